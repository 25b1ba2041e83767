/* screens: the constructors of the screens the app knows: one per step, in
 * step order (steps.h), the welcome page, the help screen and the whole-text view. Each returns a new screen the
 * app owns (freed through ops->destroy). */
#ifndef BYOC_TUI_SCREENS_H
#define BYOC_TUI_SCREENS_H

#include "shell.h"

tui_screen *tui_screen_decide_new(tui_app *app);
tui_screen *tui_screen_build_new(tui_app *app);
tui_screen *tui_screen_push_new(tui_app *app);
tui_screen *tui_screen_permit_new(tui_app *app);
tui_screen *tui_screen_run_new(tui_app *app);
tui_screen *tui_screen_monitor_new(tui_app *app);
/* The welcome page (screen_welcome.c): shown above Decide in a directory without byoc.json. */
tui_screen *tui_screen_welcome_new(tui_app *app);
/* first: the contexts whose keys come first (the screen it is opened from), may be empty. */
tui_screen *tui_screen_help_new(tui_app *app, const tui_ctx *first, size_t nfirst);
/* The texts the screen below cut (whole.h), whole, then last_message (the
 * bottom line's last message, may be "") unless it is among them. */
tui_screen *tui_screen_whole_new(tui_app *app, const char *last_message);

#endif
