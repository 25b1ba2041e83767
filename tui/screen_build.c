/* screen_build: the Build step. Dockerfile from a recipe, BYOC-aware lint, build on the engine. */
#include "screens.h"
#include "step_page.h"
#include "steps.h"

static const char *const needs[] = {
    "a Docker engine: %E",
    "a Dockerfile in %P, or a recipe from Decide to scaffold one",
    "a build context without secrets (.dockerignore is honoured)",
    NULL,
};

static const tui_step_text text = {
    .does = "Scaffolds a Dockerfile from the chosen recipe (editable), lints it for the "
            "container contract (entry point, SAGEMAKER_PROGRAM, sagemaker-training, "
            "architecture against the instance, GPU against the base, secrets or SSH keys in "
            "the context), then builds the image on the Docker engine with live output.",
    .needs = needs,
    .cli = "byoc lint [DIR]; byoc build [DIR] -t REF",
};

static const tui_screen_ops ops = {
    .name = "build",
    .destroy = tui_info_screen_destroy,
    .enter = tui_info_screen_enter,
    .draw = tui_info_screen_draw,
    .key = tui_info_screen_key,
    .contexts = tui_info_screen_contexts,
};

tui_screen *tui_screen_build_new(tui_app *app)
{
    return tui_info_screen_new(app, &ops, TUI_STEP_BUILD, &text);
}
