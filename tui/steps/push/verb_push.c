/* byoc push: a local image into an ECR repository (backend/byoc/pushflow.h's
 * task, as the Push screen runs it), with each layer's progress on stderr and
 * the image URI and digest on stdout. Ctrl-C cancels the push (cli_task.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/pushflow.h"
#include "core/buf.h"
#include "core/jsonprint.h"
#include "cli_task.h"
#include "verbs.h"

/* ---- progress on stderr ---- */

typedef struct {
    char id[72];
    char word[32];     /* the status word last printed ("Pushing", "Pushed", ...) */
} seen_layer;

typedef struct {
    bool tty;
    bool line_open;    /* a \r progress line is on stderr */
    seen_layer *layers;
    size_t n;
} printer;

static void close_line(printer *p)
{
    if (p->line_open) {
        fputs("\r\033[K", stderr);
        p->line_open = false;
    }
}

/* "Retrying in 5 seconds" -> "Retrying"; "Mounted from x" -> "Mounted"; else the status up to a digit. */
static void status_word(const char *text, char *out, size_t n)
{
    size_t k = 0;
    for (const char *s = text; *s && k + 1 < n; s++) {
        if ((*s >= '0' && *s <= '9') || (k > 0 && (strncmp(s, " in ", 4) == 0 || strncmp(s, " from ", 6) == 0)))
            break;
        out[k++] = *s;
    }
    while (k > 0 && out[k - 1] == ' ')
        k--;
    out[k] = 0;
}

static seen_layer *seen(printer *p, const char *id)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->layers[i].id, id) == 0)
            return &p->layers[i];
    p->layers = byoc_xrealloc(p->layers, (p->n + 1) * sizeof *p->layers);
    seen_layer *l = &p->layers[p->n++];
    memset(l, 0, sizeof *l);
    snprintf(l->id, sizeof l->id, "%s", id);
    return l;
}

static void print_event(printer *p, const byoc_push_event *ev)
{
    if (ev->kind == BYOC_PUSH_EV_NOTE || ev->kind == BYOC_PUSH_EV_STEP) {
        close_line(p);
        fprintf(stderr, "%s\n", ev->text ? ev->text : "");
    } else if (ev->kind == BYOC_PUSH_EV_WARNING) {
        close_line(p);
        fprintf(stderr, "warning: %s\n", ev->text ? ev->text : "");
    } else if (ev->kind == BYOC_PUSH_EV_LAYER) {
        seen_layer *l = seen(p, ev->layer);
        char word[32];
        status_word(ev->text ? ev->text : "", word, sizeof word);
        if (strcmp(word, l->word) != 0) {
            snprintf(l->word, sizeof l->word, "%s", word);
            close_line(p);
            fprintf(stderr, "%s: %s\n", ev->layer, ev->text ? ev->text : "");
        } else if (p->tty && strcmp(word, "Pushing") == 0 && ev->current >= 0) {
            if (ev->total > 0)
                fprintf(stderr, "\r\033[K%s: Pushing %.1f / %.1f MiB", ev->layer, (double)ev->current / 1048576.0,
                        (double)ev->total / 1048576.0);
            else
                fprintf(stderr, "\r\033[K%s: Pushing %.1f MiB", ev->layer, (double)ev->current / 1048576.0);
            p->line_open = true;
        }
    }
    fflush(stderr);
}

static void on_task_event(void *ud, const byoc_event *ev)
{
    byoc_push_event pe;
    if (byoc_push_event_from(ev, &pe))
        print_event(ud, &pe);
}

/* The push is pushflow's task, on a worker thread while this one prints its
 * events and turns Ctrl-C into the task's cancel. */
static int run_push(const byoc_globals *g, const byoc_push_opts *o, byoc_push_result **res, byoc_err *err)
{
    printer p = {.tty = isatty(STDERR_FILENO)};
    void *result = NULL;
    int rc = byoc_cli_run_task("push", byoc_push_task, byoc_push_job_new(NULL, NULL, g->profile, g->region, o),
                               byoc_push_job_free, on_task_event, &p, &result, err);
    close_line(&p);
    free(p.layers);
    *res = result;
    return rc;
}

/* ---- the verb ---- */

int verb_push(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    enum { OPT_CREATE = 256, OPT_DOCKER_CONFIG, OPT_SCAN, OPT_IMMUTABLE, OPT_ENCRYPTION, OPT_KMS_KEY, OPT_REPO_TAG };
    static const struct option opts[] = {
        {"repository", required_argument, NULL, 'r'},
        {"tag", required_argument, NULL, 't'},
        {"create", no_argument, NULL, OPT_CREATE},
        {"docker-config", no_argument, NULL, OPT_DOCKER_CONFIG},
        {"scan-on-push", no_argument, NULL, OPT_SCAN},
        {"immutable-tags", no_argument, NULL, OPT_IMMUTABLE},
        {"encryption", required_argument, NULL, OPT_ENCRYPTION},
        {"kms-key", required_argument, NULL, OPT_KMS_KEY},
        {"repository-tag", required_argument, NULL, OPT_REPO_TAG},
        {NULL, 0, NULL, 0},
    };
    byoc_push_opts o = {0};
    byoc_ecr_tag *tags = NULL;
    size_t n_tags = 0;
    bool creation_flags = false;
    int rc = 2, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":r:t:", opts, NULL)) != -1) {
        switch (c) {
        case 'r': o.repository = optarg; break;
        case 't': o.tag = optarg; break;
        case OPT_CREATE: o.create = true; break;
        case OPT_DOCKER_CONFIG: o.write_docker_config = true; break;
        case OPT_SCAN: o.create_opts.scan_on_push = creation_flags = true; break;
        case OPT_IMMUTABLE: o.create_opts.immutable_tags = creation_flags = true; break;
        case OPT_ENCRYPTION: o.create_opts.encryption_type = optarg; creation_flags = true; break;
        case OPT_KMS_KEY: o.create_opts.kms_key = optarg; creation_flags = true; break;
        case OPT_REPO_TAG: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg) {
                rc = byoc_cli_usage(err, "--repository-tag", "'%s': expected KEY=VALUE", optarg);
                goto out;
            }
            *eq = 0;
            tags = byoc_xrealloc(tags, (n_tags + 1) * sizeof *tags);
            tags[n_tags++] = (byoc_ecr_tag){optarg, eq + 1};
            creation_flags = true;
            break;
        }
        case ':':
            rc = byoc_cli_usage(err, argv[optind - 1], "needs a value");
            goto out;
        default:
            rc = byoc_cli_usage(err, "push", "unknown flag '%s' (see byoc push --help)", argv[optind - 1]);
            goto out;
        }
    }
    if (argc - optind != 1) {
        rc = argc - optind == 0 ? byoc_cli_usage(err, "push", "which image? byoc push REF --repository NAME")
                                : byoc_cli_usage(err, "push", "takes one image (got '%s' and '%s')", argv[optind],
                                                 argv[optind + 1]);
        goto out;
    }
    if (!o.repository) {
        rc = byoc_cli_usage(err, "--repository", "the ECR repository to push to is required");
        goto out;
    }
    if (creation_flags && !o.create) {
        rc = byoc_cli_usage(err, "--create",
                            "--scan-on-push, --immutable-tags, --encryption, --kms-key and --repository-tag apply "
                            "only when the repository is created (add --create)");
        goto out;
    }
    o.source = argv[optind];
    o.create_opts.tags = tags;
    o.create_opts.n_tags = n_tags;
    o.project_dir = g->project_dir;

    byoc_push_result *res = NULL;
    if (run_push(g, &o, &res, err) < 0) {
        rc = byoc_err_exit_code(err->kind);
    } else {
        json_t *doc = byoc_push_result_json(res);
        if (g->json) {
            byoc_cli_print_json(doc);
        } else {
            json_t *shown = byoc_json_printable_copy(doc); /* the URI is ECR's repositoryUri */
            json_decref(doc);
            printf("image_uri: %s\ndigest:    %s\n", byoc_json_text(json_object_get(shown, "image_uri"), ""),
                   byoc_json_text(json_object_get(shown, "digest"), ""));
            json_decref(shown);
        }
        rc = 0;
    }
    if (res) {
        byoc_push_result_clear(res);
        free(res);
    }
out:
    free(tags);
    return rc;
}
