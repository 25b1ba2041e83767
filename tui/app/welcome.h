/* welcome: the model of the welcome page, the first screen in a directory
 * without byoc.json (screen_welcome.c draws it and runs the choices).
 *
 * Three choices, each an action of the table (action.c, context WELCOME):
 * start a project here (h), open another directory (o), make a sample
 * project (s); a selection that Up/Down move and Enter takes. Also the
 * checks of what the two prompts accept and the options of the sample
 * project, which is written by byoc init's own code (byoc/scaffold.h).
 * Pure but for the checks, which look at the file system. */
#ifndef BYOC_TUI_WELCOME_H
#define BYOC_TUI_WELCOME_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "byoc/scaffold.h"

typedef enum { TUI_WELCOME_HERE, TUI_WELCOME_OPEN, TUI_WELCOME_SAMPLE, TUI_WELCOME_COUNT } tui_welcome_choice;

typedef struct tui_welcome {
    int sel;                   /* the selected choice */
} tui_welcome;

/* The sample's directory, relative to the one byoc works in. */
#define TUI_WELCOME_SAMPLE_DIR "./byoc-sample"

/* The choice's action (its keys and help are the table's) and its line on the page. */
tui_action_id tui_welcome_action(tui_welcome_choice c);
const char *tui_welcome_label(tui_welcome_choice c);

/* A key's action on the page: Up/Down move the selection (true, *chosen -1);
 * Enter takes the selected choice and a choice's own key takes it (true,
 * *chosen set). false: not the page's. */
bool tui_welcome_key(tui_welcome *w, tui_action_id act, int *chosen);

/* What a typed path means: blanks around it dropped, "~" and "~/..." are
 * under $HOME. Caller frees; NULL for an empty answer. */
char *tui_welcome_path(const char *typed);
/* The open prompt: an existing directory. The sample prompt: a directory to
 * make (its parent must exist), or an empty one; never a file or a
 * directory with something in it. true, or false with why in msg. */
bool tui_welcome_check_open(const char *typed, char *msg, size_t size);
bool tui_welcome_check_sample(const char *typed, char *msg, size_t size);

/* What the sample prompt offers: ./byoc-sample, or the first of
 * ./byoc-sample-2, -3... that the check accepts. Caller frees. */
char *tui_welcome_sample_default(void);

/* The sample: recipe 2 (a public Python base), so it builds without AWS
 * credentials; byoc's sample algorithm; a git repository. region may be NULL. */
byoc_init_options tui_welcome_sample_options(const char *dir, const char *region);

#endif
