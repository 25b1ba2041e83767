/* screen_run: the Run step. The job form, local validation, upload and CreateJob, or local mode. */
#include "screens.h"
#include "step_page.h"
#include "steps.h"

static const char *const needs[] = {
    "the image URI (from Push or the image browser)",
    "the source module and its entry point, under %P",
    "AWS: an execution role and an S3 location for the outputs (region %R)",
    "local mode: only the Docker engine %E",
    NULL,
};

static const tui_step_text text = {
    .does = "Fills in the job form (the fields of AwsQuantumJob.create with their defaults), "
            "validates everything locally first, uploads the source module to S3 and creates "
            "the job; or, in local mode, runs the job container on the local engine under "
            "the same container contract.",
    .needs = needs,
    .cli = "byoc preflight ...; byoc run --image-uri URI --source-module PATH --entry-point MOD",
};

static const tui_screen_ops ops = {
    .name = "run",
    .destroy = tui_info_screen_destroy,
    .enter = tui_info_screen_enter,
    .draw = tui_info_screen_draw,
    .key = tui_info_screen_key,
    .contexts = tui_info_screen_contexts,
};

tui_screen *tui_screen_run_new(tui_app *app)
{
    return tui_info_screen_new(app, &ops, TUI_STEP_RUN, &text);
}
