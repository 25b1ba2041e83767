/* statusbar: the line showing where byoc will act: AWS profile, region and
 * the Docker engine, plus what runs.
 *
 * Filled from the global flags and the environment (AWS_PROFILE, AWS_REGION,
 * AWS_DEFAULT_REGION, DOCKER_HOST) until the app learns better: the lead's
 * doctor task later sets the real values with tui_status_set (through
 * tui_app_set_status in shell.h). Pure; drawing in statusbar_draw.c. */
#ifndef BYOC_TUI_STATUSBAR_H
#define BYOC_TUI_STATUSBAR_H

#include <stddef.h>

#include "cli.h"
#include "draw.h"

typedef enum { TUI_SB_PROFILE, TUI_SB_REGION, TUI_SB_ENGINE, TUI_SB_COUNT } tui_sb_field;

typedef struct tui_statusbar {
    char *values[TUI_SB_COUNT];
} tui_statusbar;

typedef const char *(*tui_getenv_fn)(const char *name);

/* env may be NULL (getenv). */
void tui_status_init(tui_statusbar *sb, const byoc_globals *g, tui_getenv_fn env);
void tui_status_free(tui_statusbar *sb);
void tui_status_set(tui_statusbar *sb, tui_sb_field f, const char *value);
const char *tui_status_get(const tui_statusbar *sb, tui_sb_field f);
const char *tui_status_label(tui_sb_field f);
/* "profile default  region eu-west-1  engine unix:///var/run/docker.sock" */
void tui_status_text(const tui_statusbar *sb, char *buf, size_t size);
/* One line; `right` (may be NULL) is drawn right-aligned (tasks, spinner). */
void tui_status_draw(const tui_statusbar *sb, WINDOW *win, int y, int x, int w, const char *right);

#endif
