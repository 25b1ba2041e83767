/* cmdline: the `:` command prompt's language. A command is an action name
 * from the table (or a unique prefix of one), optionally followed by an
 * argument (`:goto build`, `:goto 3`). Completion on Tab completes the
 * action name, then the step name after `goto`. Pure: no curses. */
#ifndef BYOC_TUI_CMDLINE_H
#define BYOC_TUI_CMDLINE_H

#include <stddef.h>

#include "action.h"

typedef struct tui_command {
    const tui_action *action;
    char arg[128];
    int step;            /* for goto: the step index */
} tui_command;

typedef enum {
    TUI_CMD_OK,
    TUI_CMD_EMPTY,       /* nothing typed */
    TUI_CMD_UNKNOWN,     /* no such command */
    TUI_CMD_AMBIGUOUS,   /* a prefix of several */
    TUI_CMD_BAD_ARG,     /* missing or wrong argument, or one given to a command without */
} tui_cmd_status;

/* Parse a command line (without the ':'); on failure msg says why. */
tui_cmd_status tui_cmd_parse(const char *line, tui_command *out, char *msg, size_t msgsize);
/* Complete the line in place (to the longest common prefix of the matches;
 * a single match gets a trailing space when it takes an argument). The
 * matches, space-separated, go to `matches`. Returns the number of matches. */
size_t tui_cmd_complete(char *line, size_t linesize, char *matches, size_t msize);

#endif
