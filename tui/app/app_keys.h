/* app_keys: from a key (or a `:` command) to what happens: dialogs and the
 * prompt first, then the focused screen, then the app's own actions (help,
 * the whole view and the image browser open from here). For app.c. */
#ifndef BYOC_TUI_APP_KEYS_H
#define BYOC_TUI_APP_KEYS_H

#include "app_api.h"

void app_route_key(tui_app *a, int key);

#endif
