/* build_model: the Build screen's model, without curses calls or I/O.
 *
 * The settings form (context, Dockerfile, tags, build args, target stage,
 * platform, network for RUN, no-cache, lint first), its defaults from
 * byoc.json and the way back into byoc.json; the settings as build options;
 * and what the build's output means for the screen: the step counter, the
 * failing step, which log lines are errors. */
#ifndef BYOC_TUI_BUILD_VIEW_H
#define BYOC_TUI_BUILD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "byoc/buildflow.h"
#include "byoc/project.h"
#include "core/strv.h"
#include "form.h"

/* The settings as the form holds them. Paths are relative to the project
 * directory (or absolute). Empty strings mean "not set". */
typedef struct tui_build_settings {
    char *context;
    char *dockerfile;
    byoc_strv tags;          /* references */
    byoc_strv build_args;    /* "KEY=VALUE" or "KEY" */
    char *target;
    char *platform;
    char *network;           /* "" for the engine's default */
    bool no_cache;
    bool lint;
} tui_build_settings;

void tui_build_settings_clear(tui_build_settings *s);

/* Add the settings' fields (keys: context, dockerfile, tags, build_args,
 * target, platform, network, no_cache, lint), each checked as `byoc build`
 * checks its flags. */
void tui_build_form_build(tui_form *f);
/* Show byoc.json's values (context, Dockerfile, tags, build args); a project
 * without tags gets default_tag. The other fields keep their values. */
void tui_build_form_load(tui_form *f, const byoc_project *p, const char *default_tag);
/* Read the form (valid or not: call tui_form_validate first). */
void tui_build_settings_from_form(const tui_form *f, tui_build_settings *out);

/* The Dockerfile byoc.json means: its "dockerfile" when it names one, else
 * <context>/Dockerfile ("Dockerfile" for the context "."). Caller frees. */
char *tui_build_project_dockerfile(const byoc_project *p);
/* A tag to suggest for a project without tags: "<name>:latest", from
 * byoc.json's name or else the directory's base name, made a valid
 * repository name ("My Project" -> "my-project:latest"). Caller frees. */
char *tui_build_default_tag(const char *project_name, const char *project_dir);
/* Copy the settings byoc.json keeps (context, Dockerfile, tags, build args)
 * into p; true when anything changed. */
bool tui_build_settings_to_project(const tui_build_settings *s, byoc_project *p);

/* Words of a field: split on spaces, quotes kept as shell quoting ("A=b c"
 * in double quotes is one word). And back: words joined, quoted when needed. */
void tui_build_split_words(const char *text, byoc_strv *out);
char *tui_build_join_words(const char *const *words, size_t n);

/* The settings as build flags (byoc/buildflow.h), borrowing their strings:
 * the form holds all there is (byoc.json's values already in it), paths
 * from the project directory. */
void tui_build_flags_of(const tui_build_settings *s, byoc_build_flags *f);

/* The Dockerfile relative to the project directory, for the lint, or NULL
 * when it lies outside it (the lint then uses its default). Pure: no
 * symlinks are resolved. Caller frees. */
char *tui_build_lint_dockerfile(const char *dockerfile, const char *project_dir);

/* Is this line of build output an error? ("ERROR", "error:", "returned a
 * non-zero code", "failed to", ...) */
bool tui_build_line_is_error(const char *line);

#endif
