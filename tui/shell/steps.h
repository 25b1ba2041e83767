/* steps: the six steps of the flow, in order (README.md): their names (used
 * by `:goto`), titles and one-line purposes. Pure. */
#ifndef BYOC_TUI_STEPS_H
#define BYOC_TUI_STEPS_H

typedef enum {
    TUI_STEP_DECIDE, TUI_STEP_BUILD, TUI_STEP_PUSH, TUI_STEP_PERMIT, TUI_STEP_RUN, TUI_STEP_MONITOR,
    TUI_STEP_COUNT
} tui_step;

const char *tui_step_name(int step);    /* "build" */
const char *tui_step_title(int step);   /* "Build" */
const char *tui_step_purpose(int step); /* one line */
/* A step from a name (case-insensitive; a unique prefix will do) or its
 * number "1".."6"; -1 if none. */
int tui_step_find(const char *arg);

#endif
