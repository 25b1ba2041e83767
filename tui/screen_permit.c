/* screen_permit: the Permit step. Check and grant pull access to the image for the job role. */
#include "screens.h"
#include "step_page.h"
#include "steps.h"

static const char *const needs[] = {
    "the ECR repository from Push (region %R)",
    "the execution role ARN the job will use",
    "permission to read and set the repository policy (profile %A)",
    NULL,
};

static const tui_step_text text = {
    .does = "Checks that the job's execution role can pull the image, and edits the repository "
            "policy to grant pull to named roles, users or accounts only, with a diff "
            "preview and a warning on a wildcard principal.",
    .needs = needs,
    .cli = "byoc permit REPOSITORY [--allow PRINCIPAL]... [--revoke PRINCIPAL]... [--dry-run]",
};

static const tui_screen_ops ops = {
    .name = "permit",
    .destroy = tui_info_screen_destroy,
    .enter = tui_info_screen_enter,
    .draw = tui_info_screen_draw,
    .key = tui_info_screen_key,
    .contexts = tui_info_screen_contexts,
};

tui_screen *tui_screen_permit_new(tui_app *app)
{
    return tui_info_screen_new(app, &ops, TUI_STEP_PERMIT, &text);
}
