#include "app.h"
#include "verbs.h"

int verb_tui(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    if (argc > 1)
        return byoc_cli_usage(err, "tui", "takes no arguments (got '%s')", argv[1]);
    return byoc_tui_run(g);
}
