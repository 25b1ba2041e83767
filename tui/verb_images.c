/* byoc images: the local images on the Docker engine, one row per image and
 * repository; a table, or {"images": [...]} with --json. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "core/buf.h"
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
    double s = difftime(time(NULL), (time_t)created);
    if (s < 120)
        snprintf(out, n, "%d seconds ago", (int)s);
    else if (s < 7200)
        snprintf(out, n, "%d minutes ago", (int)(s / 60));
    else if (s < 2 * 86400)
        snprintf(out, n, "%d hours ago", (int)(s / 3600));
    else
        snprintf(out, n, "%d days ago", (int)(s / 86400));
}

static void print_table(const byoc_image_row *rows, size_t n)
{
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

int verb_images(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {
        {"local", no_argument, NULL, 'l'},
        {"all", no_argument, NULL, 'a'},
        {NULL, 0, NULL, 0},
    };
    bool all = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "a", opts, NULL)) != -1) {
        switch (c) {
        case 'l': break; /* the local engine is the only source here */
        case 'a': all = true; break;
        default:
            return byoc_cli_usage(err, "images", "unknown flag '%s' (see byoc images --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return byoc_cli_usage(err, "images", "takes no arguments (got '%s')", argv[optind]);
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
    byoc_image_list_free(&list);
    byoc_engine_free(e);
    return 0;
}
