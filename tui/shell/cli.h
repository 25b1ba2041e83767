/* cli: the command line as a verb sees it: the global flags, the verb type and
 * table, usage errors and the one --json document (cli.c). The dispatch that
 * parses the flags and runs a verb is cli/dispatch.h; errors map to the exit
 * codes of README.md ("Exit codes"). */
#ifndef BYOC_TUI_CLI_H
#define BYOC_TUI_CLI_H

#include <stdbool.h>

#include "core/err.h"

/* The global flags, shared by every verb and by the TUI. */
typedef struct byoc_globals {
    const char *project_dir;   /* --project, default "." */
    const char *profile;       /* --profile, else AWS_PROFILE... (resolved by aws/config) */
    const char *region;        /* --region, else env/profile */
    bool json;                 /* --json: exactly one JSON document on stdout */
    bool no_color;             /* --no-color or NO_COLOR */
    int verbose;               /* -v count */
    bool project_set;          /* --project was given: the directory is chosen (no welcome page) */
} byoc_globals;

/* A verb: `byoc NAME ARGS`. run() gets the arguments after the verb name
 * (argv[0] is the verb name) and returns the exit code; on failure it fills
 * err and the dispatcher prints "byoc: <what>: <why>" on stderr. */
typedef struct byoc_verb {
    const char *name;
    const char *args;          /* one-line synopsis of the arguments */
    const char *summary;       /* one line for `byoc --help` */
    const char *help;          /* the full text for `byoc VERB --help` */
    int (*run)(const byoc_globals *g, int argc, char **argv, byoc_err *err);
} byoc_verb;

/* The verb table, NULL-name terminated (cli_verbs.c). */
extern const byoc_verb byoc_verbs[];

/* Print the verb's one JSON document on stdout (for --json) and free it. */
struct json_t;
void byoc_cli_print_json(struct json_t *doc);

/* For a verb that writes its --json document itself (cli_json.h): the
 * document is out, so a failure adds no error document of its own. */
void byoc_cli_json_printed(void);
/* The failure's {"what", "why", "exit_code", "code"?, "request_id"?}, as the
 * error document {"error": ...} holds it. */
struct json_t *byoc_cli_error_json(const byoc_err *err, const char *verb, int rc);

/* A failure as the dispatch reports it: "byoc: <what>: <why>" on stderr and,
 * with json, the error document on stdout unless the verb printed its own. */
void byoc_cli_print_error(const byoc_err *err, bool json, const char *verb, int rc);
/* The error document alone (unless the verb printed one). */
void byoc_cli_print_error_json(const byoc_err *err, const char *verb, int rc);

/* Print a verb's usage error "byoc: <verb>: <msg>" and return 2. */
int byoc_cli_usage(byoc_err *err, const char *what, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
