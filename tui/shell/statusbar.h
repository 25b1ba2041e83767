/* statusbar: the line showing where byoc will act: AWS profile, region and
 * the Docker engine, plus what runs.
 *
 * Filled from the global flags and the environment (AWS_PROFILE, AWS_REGION,
 * AWS_DEFAULT_REGION, DOCKER_HOST) until the app learns better: the status
 * feed (status_feed.h) later sets the real values with tui_status_set
 * (through tui_app_set_status in shell.h).
 *
 * A value that stops byoc from working (no region, a profile in neither AWS
 * file) is a problem: it carries its fix, and the line says "region not set:
 * export AWS_REGION=us-east-1 or aws configure" rather than a bare value. A
 * narrow line gives way in this order: the values that are fine are cut, the
 * running-task note goes, the fine fields go; a fix is cut last.
 * Pure; drawing in statusbar_draw.c. */
#ifndef BYOC_TUI_STATUSBAR_H
#define BYOC_TUI_STATUSBAR_H

#include <stddef.h>

#include "cli.h"
#include "draw.h"

typedef enum { TUI_SB_PROFILE, TUI_SB_REGION, TUI_SB_ENGINE, TUI_SB_COUNT } tui_sb_field;

typedef struct tui_statusbar {
    char *values[TUI_SB_COUNT];
    char *fixes[TUI_SB_COUNT];   /* how to fix a problem value, or NULL when the value is fine */
} tui_statusbar;

typedef const char *(*tui_getenv_fn)(const char *name);

/* env may be NULL (getenv). */
void tui_status_init(tui_statusbar *sb, const byoc_globals *g, tui_getenv_fn env);
void tui_status_clear(tui_statusbar *sb);
/* A value that is fine (clears any problem of the field). */
void tui_status_set(tui_statusbar *sb, tui_sb_field f, const char *value);
/* A problem value and how to fix it ("not set", "export AWS_REGION=..."). */
void tui_status_set_problem(tui_statusbar *sb, tui_sb_field f, const char *value, const char *fix);
/* The problems byoc knows the fix of: no region; a named profile in neither
 * AWS file (origin: "--profile", "AWS_PROFILE" or "AWS_DEFAULT_PROFILE"). */
void tui_status_region_missing(tui_statusbar *sb);
void tui_status_profile_missing(tui_statusbar *sb, const char *profile, const char *origin);
const char *tui_status_get(const tui_statusbar *sb, tui_sb_field f);
const char *tui_status_fix(const tui_statusbar *sb, tui_sb_field f);   /* NULL when the value is fine */
const char *tui_status_label(tui_sb_field f);
/* One field as the line shows it whole: "region eu-west-1", "region not set: export ...". */
void tui_status_field_text(const tui_statusbar *sb, tui_sb_field f, char *buf, size_t size);
/* "profile default  region eu-west-1  engine unix:///var/run/docker.sock" */
void tui_status_text(const tui_statusbar *sb, char *buf, size_t size);
/* How w columns are shared (the line starts with one blank, fields are two
 * apart): give[f] columns for each field (0: not shown; less than its text:
 * cut with an ellipsis) and *right_give for the right part, which wants
 * right_w columns. */
void tui_status_fit(const tui_statusbar *sb, int w, int right_w, int give[TUI_SB_COUNT], int *right_give);
/* One line; `right` (may be NULL) is drawn right-aligned (tasks, spinner). */
void tui_status_draw(const tui_statusbar *sb, WINDOW *win, int y, int x, int w, const char *right);

#endif
