/* byoc images: the local images on the Docker engine, one row per image and
 * repository; or with --repository NAME the images of an ECR repository.
 * A table, or {"images": [...]} with --json. */
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "aws/client.h"
#include "aws/ecr.h"
#include "byoc/imageplatforms.h"
#include "core/buf.h"
#include "core/jsonprint.h"
#include "core/utf8.h"
#include "docker/engine.h"
#include "docker/images.h"
#include "verbs.h"

static void human_size(int64_t b, char *out, size_t n)
{
    if (b < 1000)
        snprintf(out, n, "%lldB", (long long)b);
    else if (b < 1000 * 1000)
        snprintf(out, n, "%.1fkB", (double)b / 1e3);
    else if (b < 1000LL * 1000 * 1000)
        snprintf(out, n, "%.1fMB", (double)b / 1e6);
    else
        snprintf(out, n, "%.2fGB", (double)b / 1e9);
}

static void age(int64_t created, char *out, size_t n)
{
    double d = difftime(time(NULL), (time_t)created);   /* int64 -> time_t: same width here */
    int s = d > -2e9 && d < 2e9 ? (int)d : 0;            /* beyond 63 years: not an image's age */
    if (s < 120)
        snprintf(out, n, "%d seconds ago", s);
    else if (s < 7200)
        snprintf(out, n, "%d minutes ago", s / 60);
    else if (s < 2 * 86400)
        snprintf(out, n, "%d hours ago", s / 3600);
    else
        snprintf(out, n, "%d days ago", s / 86400);
}

/* The engine's names are outside text too: the table prints them made printable, in place. */
static void print_table(byoc_image_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        byoc_printable_inplace(rows[i].repository);
        byoc_printable_inplace(rows[i].id);
        for (size_t k = 0; k < rows[i].n_tags; k++)
            byoc_printable_inplace(rows[i].tags[k]);
    }
    int wr = (int)strlen("REPOSITORY"), wt = (int)strlen("TAG");
    for (size_t i = 0; i < n; i++) {
        if ((int)strlen(rows[i].repository) > wr)
            wr = (int)strlen(rows[i].repository);
        for (size_t k = 0; k < rows[i].n_tags; k++)
            if ((int)strlen(rows[i].tags[k]) > wt)
                wt = (int)strlen(rows[i].tags[k]);
    }
    printf("%-*s  %-*s  %-12s  %-16s  %s\n", wr, "REPOSITORY", wt, "TAG", "IMAGE ID", "CREATED", "SIZE");
    for (size_t i = 0; i < n; i++) {
        const byoc_image_row *r = &rows[i];
        const char *id = strncmp(r->id, "sha256:", 7) == 0 ? r->id + 7 : r->id;
        char size[32], when[32];
        human_size(r->size, size, sizeof size);
        age(r->created, when, sizeof when);
        size_t lines = r->n_tags ? r->n_tags : 1;
        for (size_t k = 0; k < lines; k++)
            printf("%-*s  %-*s  %-12.12s  %-16s  %s\n", wr, r->repository, wt, r->n_tags ? r->tags[k] : "<none>",
                   id, when, size);
    }
}

/* An index's platforms, on a line under its row. */
static void print_platforms(const json_t *im)
{
    char *text = byoc_image_platforms_text(im);
    if (text)
        printf("  %-38s  platforms: %s\n", "(index)", text);
    free(text);
}

/* images is the printable copy: any field may be missing or of another type. */
static void print_ecr_table(const json_t *images)
{
    printf("%-40s  %-20s  %-19s  %-10s  %s\n", "TAGS", "DIGEST", "PUSHED", "SIZE", "SCAN");
    size_t i;
    json_t *im;
    json_array_foreach(images, i, im) {
        byoc_buf tags = BYOC_BUF_INIT;
        size_t k;
        json_t *t;
        json_array_foreach(json_object_get(im, "tags"), k, t)
            byoc_buf_printf(&tags, "%s%s", k ? "," : "", byoc_json_text(t, "?"));
        char size[32];
        human_size(json_integer_value(json_object_get(im, "size")), size, sizeof size);
        printf("%-40s  %-20.20s  %-19.19s  %-10s  %s\n", tags.len ? byoc_buf_str(&tags) : "<untagged>",
               byoc_json_text(json_object_get(im, "digest"), ""), byoc_json_text(json_object_get(im, "created"), ""),
               size, byoc_json_text(json_object_get(im, "scan_status"), ""));
        byoc_buf_clear(&tags);
        print_platforms(im);
    }
}

/* The ECR half of the image browser: DescribeImages over every page. */
static int list_repository(const byoc_globals *g, const char *repository, byoc_err *err)
{
    char why[256];
    if (!byoc_ecr_repository_name_ok(repository, why, sizeof why))
        return byoc_cli_usage(err, "--repository", "'%s': %s", repository, why);
    byoc_aws_client *client;
    byoc_aws_config_opts copts = {.profile = g->profile, .region = g->region};
    if (byoc_aws_client_new(&copts, &client, err) != 0)
        return byoc_err_exit_code(err->kind);
    json_t *doc = NULL;
    int rc = byoc_ecr_repository_images_json(client, NULL, repository, &doc, err);
    if (rc == 0) {
        byoc_err perr;
        byoc_err_clear(&perr);
        if (byoc_ecr_images_add_platforms(client, NULL, doc, 0, &perr) < 0) {
            char line[1024];
            fprintf(stderr, "byoc: warning: the platforms of indexes not read: %s\n",
                    byoc_err_format(&perr, line, sizeof line));
        }
    }
    byoc_aws_client_free(client);
    if (rc != 0)
        return byoc_err_exit_code(err->kind);
    if (g->json)
        byoc_cli_print_json(doc);
    else {
        json_t *shown = byoc_json_printable_copy(doc);
        print_ecr_table(json_object_get(shown, "images"));
        json_decref(shown);
        json_decref(doc);
    }
    return 0;
}

int verb_images(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {
        {"local", no_argument, NULL, 'l'},
        {"all", no_argument, NULL, 'a'},
        {"repository", required_argument, NULL, 'r'},
        {NULL, 0, NULL, 0},
    };
    bool all = false, local = false;
    const char *repository = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "a", opts, NULL)) != -1) {
        switch (c) {
        case 'l': local = true; break;
        case 'a': all = true; break;
        case 'r': repository = optarg; break;
        default:
            return byoc_cli_usage(err, "images", "unknown flag '%s' (see byoc images --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return byoc_cli_usage(err, "images", "takes no arguments (got '%s')", argv[optind]);
    if (repository && (local || all))
        return byoc_cli_usage(err, "--repository", "lists an ECR repository; it cannot be combined with %s",
                              local ? "--local" : "--all");
    if (repository)
        return list_repository(g, repository, err);
    byoc_engine *e;
    if (byoc_engine_new(&e, err) < 0)
        return byoc_err_exit_code(err->kind);
    byoc_image_list list;
    if (byoc_images_list(e, NULL, all, NULL, &list, err) < 0) {
        byoc_engine_free(e);
        return byoc_err_exit_code(err->kind);
    }
    byoc_image_row *rows;
    size_t n;
    byoc_image_rows(&list, &rows, &n);
    if (g->json)
        byoc_cli_print_json(byoc_image_rows_json(rows, n));
    else
        print_table(rows, n);
    byoc_image_rows_free(rows, n);
    byoc_image_list_clear(&list);
    byoc_engine_free(e);
    return 0;
}
