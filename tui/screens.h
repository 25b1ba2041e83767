/* screens: the constructors of the screens the app knows: one per step, in
 * step order (steps.h), and the help screen. Each returns a new screen the
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
/* first: the contexts whose keys come first (the screen it is opened from), may be empty. */
tui_screen *tui_screen_help_new(tui_app *app, const tui_ctx *first, size_t nfirst);

#endif
