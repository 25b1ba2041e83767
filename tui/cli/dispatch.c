#include "dispatch.h"

#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byoc/scaffold.h"
#include "cli.h"
#include "cli_doc.h"
#include "complete.h"
#include "manpage.h"
#include "core/buf.h"
#include "core/log.h"
#include "net/http.h"

static const byoc_verb *find_verb(const char *name)
{
    for (const byoc_verb *v = byoc_verbs; v->name; v++)
        if (strcmp(v->name, name) == 0)
            return v;
    return NULL;
}

/* --json given after an unknown verb still asks for the error document. */
static bool asks_json(int argc, char **argv, int from)
{
    for (int i = from; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--json") == 0)
            return true;
    return false;
}

/* A verb's --help anywhere in its arguments wins over everything else. */
static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    }
    return false;
}

/* Remove the global flags from a verb's arguments (up to "--") and apply them.
 * Returns the new argc, or -1 with err set when a flag lacks its value. */
static int take_global_flags(byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const char *with_value[] = {"--project", "--profile", "--region"};
    const char **targets[] = {&g->project_dir, &g->profile, &g->region};
    int out = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < argc)
                argv[out++] = argv[i++];
            break;
        }
        bool taken = false;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++) {
            size_t n = strlen(with_value[k]);
            if (strncmp(a, with_value[k], n) != 0)
                continue;
            if (a[n] == '=') {
                *targets[k] = a + n + 1;
                taken = true;
            } else if (a[n] == '\0') {
                if (i + 1 >= argc) {
                    byoc_err_set(err, BYOC_E_USAGE, with_value[k], "needs a value");
                    return -1;
                }
                *targets[k] = argv[++i];
                taken = true;
            }
            if (taken && k == 0)
                g->project_set = true;
        }
        if (!taken && strcmp(a, "--json") == 0)
            taken = g->json = true;
        else if (!taken && strcmp(a, "--no-color") == 0)
            taken = g->no_color = true;
        else if (!taken && (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0))
            taken = true, g->verbose++;
        if (!taken)
            argv[out++] = argv[i];
    }
    argv[out] = NULL;
    return out;
}

static void setup_logging(const byoc_globals *g)
{
    int stderr_level = g->verbose >= 2 ? BYOC_LOG_DEBUG : g->verbose == 1 ? BYOC_LOG_INFO : BYOC_LOG_WARN;
    char *dir = byoc_state_dir();
    char *path = byoc_xasprintf("%s/debug.log", dir);
    /* The debug log file is written only when asked for (-vv or BYOC_DEBUG_LOG=1). */
    const char *want = getenv("BYOC_DEBUG_LOG");
    byoc_log_init(g->verbose >= 2 || (want && *want == '1') ? path : NULL, stderr_level, BYOC_LOG_DEBUG);
    free(path);
    free(dir);
}

int byoc_cli_main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    byoc_globals g = {.project_dir = "."};
    const char *nc = getenv("NO_COLOR");
    g.no_color = nc && *nc;

    enum { OPT_PROJECT = 256, OPT_PROFILE, OPT_REGION, OPT_JSON, OPT_NO_COLOR, OPT_VERSION };
    static const struct option opts[] = {
        {"project", required_argument, NULL, OPT_PROJECT},
        {"profile", required_argument, NULL, OPT_PROFILE},
        {"region", required_argument, NULL, OPT_REGION},
        {"json", no_argument, NULL, OPT_JSON},
        {"no-color", no_argument, NULL, OPT_NO_COLOR},
        {"verbose", no_argument, NULL, 'v'},
        {"version", no_argument, NULL, OPT_VERSION},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    /* '+' stops at the first non-option: the verb. Global flags may also follow the verb
     * (`byoc doctor --json`): take_global_flags() lifts them out before the verb parses. */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+vh", opts, NULL)) != -1) {
        switch (c) {
        case OPT_PROJECT: g.project_dir = optarg; g.project_set = true; break;
        case OPT_PROFILE: g.profile = optarg; break;
        case OPT_REGION: g.region = optarg; break;
        case OPT_JSON: g.json = true; break;
        case OPT_NO_COLOR: g.no_color = true; break;
        case 'v': g.verbose++; break;
        case OPT_VERSION:
            byoc_doc_print_version(stdout);
            if (g.verbose)   /* -v --version: where the recipes are read from */
                printf("assets: %s\n", byoc_assets_dir());
            return 0;
        case 'h': byoc_doc_print_help(stdout); return 0;
        default: {
            byoc_err err;
            byoc_err_set(&err, BYOC_E_USAGE, argv[optind - 1], "unknown or incomplete flag (see byoc --help)");
            byoc_cli_print_error(&err, g.json || asks_json(argc, argv, 1), "byoc", 2);
            return 2;
        }
        }
    }
    const char *name;
    if (optind >= argc) {
        if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
            name = "tui";
        } else {
            byoc_doc_print_help(stderr);
            if (g.json) {
                byoc_err err;
                byoc_err_set(&err, BYOC_E_USAGE, "byoc", "no verb given (see byoc --help)");
                byoc_cli_print_error_json(&err, "byoc", 2);
            }
            return 2;
        }
    } else {
        name = argv[optind];
    }
    /* Hidden verbs for the build and the shells: not in the verb table, so not in --help. */
    if (strcmp(name, "__man") == 0) {
        byoc_manpage_write(stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (strcmp(name, "__complete") == 0)
        return byoc_complete_main(argc - optind - 1, argv + optind + 1);
    const byoc_verb *v = find_verb(name);
    if (!v) {
        byoc_err err;
        byoc_err_set(&err, BYOC_E_USAGE, name, "unknown verb (see byoc --help)");
        byoc_cli_print_error(&err, g.json || asks_json(argc, argv, optind), "byoc", 2);
        return 2;
    }
    int vargc = optind < argc ? argc - optind : 1;
    char *tui_argv[] = {(char *)"tui", NULL};
    char **vargv = optind < argc ? argv + optind : tui_argv;
    byoc_err err;
    byoc_err_clear(&err);
    vargc = take_global_flags(&g, vargc, vargv, &err);
    if (vargc < 0) {
        byoc_cli_print_error(&err, g.json, v->name, 2);
        return 2;
    }
    setup_logging(&g);
    if (wants_help(vargc, vargv)) {
        printf("usage: byoc [global flags] %s %s\n\n%s\n", v->name, v->args, v->help);
        return 0;
    }

    optind = 0; /* let the verb run getopt again from its own argv */
    int rc = v->run(&g, vargc, vargv, &err);
    if (rc != 0 && (err.message[0] || err.what[0]))
        byoc_cli_print_error(&err, g.json, v->name, rc);
    else if (rc != 0 && g.json)
        byoc_cli_print_error_json(&err, v->name, rc);
    byoc_http_global_cleanup();
    byoc_log_close();
    return rc;
}
