/* The verb table: one line per verb. Each verb lives in tui/verb_<name>.c. */
#include <stddef.h>

#include "cli.h"
#include "verbs.h"

const byoc_verb byoc_verbs[] = {
    {"tui", "", "open the terminal UI (the default on a terminal)", VERB_TUI_HELP, verb_tui},
    {"doctor", "", "check the engine, credentials, region, endpoints and terminal", VERB_DOCTOR_HELP, verb_doctor},
    {"decide", "[--scan DIR] [--no-scan] [--answer KEY=VALUE]...", "is your own container needed, and which recipe", VERB_DECIDE_HELP, verb_decide},
    {"init", "[DIR] [--recipe extend-prebuilt|custom-base] [--language python|julia|rust|cpp] [--arch amd64|arm64] [--gpu] [--base IMAGE] [--force] [--no-git]", "scaffold a BYOC project from a recipe", VERB_INIT_HELP, verb_init},
    {"lint", "[DIR] [--instance-type T] [-f DOCKERFILE]", "check the Dockerfile and build context for BYOC mistakes", VERB_LINT_HELP, verb_lint},
    {"build", "[DIR] [-t REF]... [--build-arg K=V]... [--platform P] [--no-cache] [--target T] [--no-lint] [--network MODE] [-f DOCKERFILE]", "lint and build the image on the Docker engine", VERB_BUILD_HELP, verb_build},
    {"images", "[--local] [--all]", "list the local images", VERB_IMAGES_HELP, verb_images},
    {NULL, NULL, NULL, NULL, NULL},
};
