/* cli_doc: what `byoc --help` and the man page byoc(1) both say about the
 * command line as a whole: the global flags, the environment, the files and
 * the exit codes. One table each, so the two texts cannot drift apart (the
 * verbs' own texts are the verb table, cli_verbs.c). */
#ifndef BYOC_TUI_CLI_DOC_H
#define BYOC_TUI_CLI_DOC_H

#include <stdio.h>

typedef struct byoc_doc_item {
    const char *name;   /* "--project DIR", "AWS_REGION", "0", a path */
    const char *text;   /* one line */
} byoc_doc_item;

/* NULL-name terminated tables. */
extern const byoc_doc_item byoc_doc_flags[];
extern const byoc_doc_item byoc_doc_env[];
extern const byoc_doc_item byoc_doc_files[];
extern const byoc_doc_item byoc_doc_exit[];

extern const char byoc_doc_tagline[];  /* "a workbench for ..." */
extern const char byoc_doc_usage[];    /* the synopsis after "byoc " */
extern const char byoc_doc_flow[];     /* "decide -> build -> ..." */

/* The revision byoc was built from ("1a2b3c4", "1a2b3c4-dirty" or "unknown"),
 * generated at build time (cmake/revision.cmake). */
extern const char byoc_revision[];

/* `byoc --help`. */
void byoc_doc_print_help(FILE *out);
/* `byoc --version`: "byoc VERSION (git REVISION)". */
void byoc_doc_print_version(FILE *out);

#endif
