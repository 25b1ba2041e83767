/* step_page: the information page every step screen shows: what the step
 * does, what it needs (with the values byoc would use now: project,
 * profile, region, engine), its command-line twins, and its keys (generated
 * from the action table). Step screens keep showing it beside or below
 * their widgets as they grow. */
#ifndef BYOC_TUI_STEP_PAGE_H
#define BYOC_TUI_STEP_PAGE_H

#include "page.h"
#include "shell.h"

typedef struct tui_step_text {
    const char *does;              /* a paragraph */
    const char *const *needs;      /* NULL-terminated bullets */
    const char *cli;               /* "byoc lint, byoc build" */
} tui_step_text;

/* Refill page for screen s (its step, the app's current values). */
void tui_step_page_fill(tui_page *page, tui_screen *s, const tui_step_text *text);
/* The keys section alone: every action reachable on screen s with a hint. */
void tui_step_page_keys(tui_page *page, tui_screen *s);

/* A step screen that is, for now, its page: the common ops pieces. */
typedef struct tui_info_screen {
    tui_screen base;
    tui_page page;
    const tui_step_text *text;
} tui_info_screen;

tui_screen *tui_info_screen_new(tui_app *app, const tui_screen_ops *ops, int step, const tui_step_text *text);
void tui_info_screen_destroy(tui_screen *s);
void tui_info_screen_enter(tui_screen *s);
void tui_info_screen_draw(tui_screen *s, WINDOW *win, tui_rect r);
bool tui_info_screen_key(tui_screen *s, const tui_keyev *ev);
size_t tui_info_screen_contexts(tui_screen *s, tui_ctx *out, size_t max);   /* PAGE */

#endif
