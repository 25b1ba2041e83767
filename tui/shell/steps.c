#include "steps.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name, *title, *purpose;
} steps[TUI_STEP_COUNT] = {
    {"decide", "Decide", "Do you need your own container, and which recipe?"},
    {"build", "Build", "Write and lint the Dockerfile, then build the image"},
    {"push", "Push", "Push the image to an ECR repository"},
    {"permit", "Permit", "Let the job's execution role pull the image"},
    {"run", "Run", "Create the Hybrid Job, or run it locally"},
    {"monitor", "Monitor", "Follow jobs: status, logs, metrics, results"},
};

const char *tui_step_name(int s)
{
    return s >= 0 && s < TUI_STEP_COUNT ? steps[s].name : "";
}

const char *tui_step_title(int s)
{
    return s >= 0 && s < TUI_STEP_COUNT ? steps[s].title : "";
}

const char *tui_step_purpose(int s)
{
    return s >= 0 && s < TUI_STEP_COUNT ? steps[s].purpose : "";
}

int tui_step_find(const char *arg)
{
    if (!arg || !*arg)
        return -1;
    if (arg[0] >= '1' && arg[0] <= '0' + TUI_STEP_COUNT && !arg[1])
        return arg[0] - '1';
    int found = -1;
    size_t len = strlen(arg);
    for (int i = 0; i < TUI_STEP_COUNT; i++) {
        if (strcasecmp(arg, steps[i].name) == 0)
            return i;
        if (strncasecmp(arg, steps[i].name, len) == 0) {
            if (found >= 0)
                return -1;          /* ambiguous: "p" is push or permit */
            found = i;
        }
    }
    return found;
}
