/* screen_decide: the Decide step. Answers the questions of the BYOC guide, pre-answered by scanning the project. */
#include "screens.h"
#include "step_page.h"
#include "steps.h"

static const char *const needs[] = {
    "the project directory: %P",
    "nothing else: no engine and no AWS account are needed to decide",
    NULL,
};

static const tui_step_text text = {
    .does = "Answers the questions of the bring-your-own-container guide, pre-answered by "
            "scanning the project (languages, requirements.txt, the Python version wanted, "
            "private git+ssh dependencies, CUDA use, CPU architecture), and recommends the "
            "prebuilt image with requirements.txt, extending a prebuilt Braket image "
            "(recipe 1), or a custom base with a custom entry point (recipe 2), with the reasons.",
    .needs = needs,
    .cli = "byoc decide [--scan DIR] [--answer KEY=VALUE]...; byoc init DIR --recipe R",
};

static const tui_screen_ops ops = {
    .name = "decide",
    .destroy = tui_info_screen_destroy,
    .enter = tui_info_screen_enter,
    .draw = tui_info_screen_draw,
    .key = tui_info_screen_key,
    .contexts = tui_info_screen_contexts,
};

tui_screen *tui_screen_decide_new(tui_app *app)
{
    return tui_info_screen_new(app, &ops, TUI_STEP_DECIDE, &text);
}
