/* app: the interactive TUI. byoc_tui_run() takes over the terminal, runs
 * the screens until the user quits (or a signal ends it) and always gives
 * the terminal back as it found it. Refuses terminals without cursor
 * addressing (TERM=dumb) with exit code 3. */
#ifndef BYOC_TUI_APP_H
#define BYOC_TUI_APP_H

#include "cli.h"

int byoc_tui_run(const byoc_globals *g);   /* returns the process exit code */

#endif
