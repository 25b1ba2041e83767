/* dockerfile: a Dockerfile parser that models what the builder sees:
 * parser directives (# syntax=, # escape=), comments, line continuations with
 * the escape character, heredocs (<<EOF, <<-EOF, <<"EOF", <<'EOF') on RUN,
 * COPY and ADD, JSON (exec) and shell forms, flags (--from=, --platform=,
 * --mount=...), build stages (FROM ... AS name, COPY --from=name|index) and
 * ARG/ENV substitution ($VAR, ${VAR}, ${VAR:-x}, ${VAR:+x}) with the scoping
 * rules of the builder (global ARGs for FROM, per-stage ARG and ENV, ENV
 * inherited from a base stage, build args overriding defaults).
 *
 * Parsing never fails: problems become diagnostics with a line number. */
#ifndef BYOC_BYOC_DOCKERFILE_H
#define BYOC_BYOC_DOCKERFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/kv.h"

typedef struct byoc_df_diag {
    int line;
    bool error;          /* false: a warning (deprecated or doubtful syntax) */
    char *message;
} byoc_df_diag;

typedef struct byoc_df_heredoc {
    char *delimiter;
    char *body;          /* lines up to the delimiter, each ending in '\n'; tabs stripped for <<- */
    bool expand;         /* unquoted delimiter: the shell expands the body */
    bool strip_tabs;     /* <<- */
    int line;            /* first line of the body */
} byoc_df_heredoc;

typedef struct byoc_df_flag {
    char *name;          /* without the dashes: "from", "platform", "mount", "chown" */
    char *value;         /* expanded for instructions the builder expands; NULL for a bare flag */
} byoc_df_flag;

typedef struct byoc_df_var {
    char *name;
    char *value;         /* NULL: declared (ARG X) without a value */
} byoc_df_var;

typedef struct byoc_df_instr {
    char *keyword;       /* upper case: "FROM", "RUN", ... */
    int line;            /* physical line of the keyword (1-based) */
    int end_line;        /* last physical line, heredoc bodies included */
    char *original;      /* the logical line as written after the keyword (continuations joined) */
    char *rest;          /* `original` without the leading flags */
    byoc_df_flag *flags;
    size_t n_flags;
    bool json_form;      /* rest is a JSON array of strings */
    char **args;         /* JSON elements; or words (quotes removed, expanded where the builder
                          * expands: FROM ADD COPY ENV ARG LABEL EXPOSE STOPSIGNAL USER VOLUME WORKDIR);
                          * for RUN/CMD/ENTRYPOINT/SHELL/HEALTHCHECK shell form: one arg, the text */
    size_t n_args;
    byoc_df_var *pairs;  /* ENV/ARG/LABEL: the key=value pairs, values expanded */
    size_t n_pairs;
    byoc_df_heredoc *heredocs;
    size_t n_heredocs;
    int stage;           /* index into stages; -1 for global ARGs before the first FROM */
} byoc_df_instr;

typedef struct byoc_df_stage {
    char *name;          /* the AS name (lower case), or NULL */
    char *base;          /* the FROM argument, expanded */
    int base_stage;      /* index of the stage it builds on, or -1 for an image */
    char *platform;      /* --platform value, expanded, or NULL */
    int line;            /* the FROM line */
    size_t first_instr;  /* index of its FROM in instrs */
    size_t n_instrs;     /* FROM included */
    byoc_df_var *env;    /* ENV in effect at the end of the stage (inherited from a base stage) */
    size_t n_env;
} byoc_df_stage;

typedef struct byoc_dockerfile {
    byoc_df_instr *instrs;
    size_t n_instrs;
    byoc_df_stage *stages;
    size_t n_stages;
    byoc_df_diag *diags;
    size_t n_diags;
    size_t n_errors;     /* diags with error = true */
    char escape;         /* '\\' or '`' */
    char *syntax;        /* the "# syntax=" directive, or NULL */
    byoc_df_var *global_args; /* ARGs before the first FROM, after build-arg overrides */
    size_t n_global_args;
} byoc_dockerfile;

typedef struct byoc_df_options {
    const byoc_kv *build_args;   /* --build-arg values */
    size_t n_build_args;
    const char *target_arch;     /* "amd64"/"arm64" for TARGETARCH and friends; NULL = amd64 */
} byoc_df_options;

/* Parse text (need not be NUL-terminated; NUL bytes are reported). opts may be NULL. */
void byoc_dockerfile_parse(const char *text, size_t len, const byoc_df_options *opts,
                           byoc_dockerfile *out);
void byoc_dockerfile_clear(byoc_dockerfile *df);

/* A flag's value ("" for a bare flag), or NULL when absent. */
const char *byoc_df_flag_value(const byoc_df_instr *in, const char *name);
/* A pair's value (ENV/ARG/LABEL), or NULL. */
const char *byoc_df_pair_value(const byoc_df_instr *in, const char *name);
/* The last stage (the image that is built without --target), or NULL. */
const byoc_df_stage *byoc_df_final_stage(const byoc_dockerfile *df);
/* The stage named or numbered by ref ("build", "0"), or -1. */
int byoc_df_find_stage(const byoc_dockerfile *df, const char *ref);
/* ENV value in effect at the end of a stage (NULL if unset). */
const char *byoc_df_stage_env(const byoc_df_stage *st, const char *name);
/* The image a stage finally builds on, following stage-to-stage FROMs. */
const char *byoc_df_stage_root_image(const byoc_dockerfile *df, int stage);

#endif
