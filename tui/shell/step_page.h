/* step_page: the keys section of a step's information page, generated from
 * the action table so that what a page says about keys never drifts from
 * what the keys do. */
#ifndef BYOC_TUI_STEP_PAGE_H
#define BYOC_TUI_STEP_PAGE_H

#include "page.h"
#include "shell.h"

/* Append to page every action reachable on screen s with a hint. */
void tui_step_page_keys(tui_page *page, tui_screen *s);

#endif
