/* verbs: the entry points of the command-line verbs, one per tui/verb_<name>.c,
 * and their --help texts. The table that binds names to them is cli_verbs.c. */
#ifndef BYOC_TUI_VERBS_H
#define BYOC_TUI_VERBS_H

#include "cli.h"

#define VERB_TUI_HELP \
    "Opens the interactive workbench: Decide, Build, Push, Permit, Run, Monitor.\n" \
    "Keys: 1-6 steps, ? help, : command, / filter, q back/quit."
int verb_tui(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_DOCTOR_HELP \
    "Checks what byoc needs and says how to fix what is missing:\n" \
    "  the Docker engine (DOCKER_HOST), the AWS credentials source and profile (never the secret),\n" \
    "  the region, the caller identity (STS GetCallerIdentity), the endpoints in force, the terminal.\n" \
    "Exit 3 if a needed part is missing. With --json: {\"engine\", \"credentials\", \"region\",\n" \
    "\"account\", \"arn\", \"endpoints\", \"terminal\"}."
int verb_doctor(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#endif
