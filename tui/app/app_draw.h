/* app_draw: the layout of the app's parts (top bar, sidebar, content box,
 * status bar, bottom line) and the drawing of all but the screens' insides.
 * For the app's own files (app.c, app_keys.c); screens get their rectangle
 * through ops->on_resize. */
#ifndef BYOC_TUI_APP_DRAW_H
#define BYOC_TUI_APP_DRAW_H

#include "app_api.h"

void app_layout(tui_app *a);
void app_resize_steps(tui_app *a);   /* tell the steps their rectangle (after app_layout) */
void app_draw(tui_app *a);
tui_rect app_content_rect(const tui_app *a);
/* Where the open dialog goes now. */
tui_dialog_place app_dialog_place(const tui_app *a);

#endif
