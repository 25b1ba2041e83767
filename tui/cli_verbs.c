/* The verb table: one line per verb. Each verb lives in tui/verb_<name>.c. */
#include "cli.h"
#include "verbs.h"

const byoc_verb byoc_verbs[] = {
    {"tui", "", "open the terminal UI (the default on a terminal)", VERB_TUI_HELP, verb_tui},
    {"doctor", "", "check the engine, credentials, region, endpoints and terminal", VERB_DOCTOR_HELP, verb_doctor},
    {NULL, NULL, NULL, NULL, NULL},
};
