/* screen_push: the Push step. ECR repository, login, tag and push with per-layer progress. */
#include "screens.h"
#include "step_page.h"
#include "steps.h"

static const char *const needs[] = {
    "an image built in Build (or any local image on the engine %E)",
    "AWS credentials: profile %A",
    "a region: %R",
    "a repository name; with the default job role it must start with amazon-braket",
    NULL,
};

static const tui_step_text text = {
    .does = "Ensures the ECR repository exists (creating it on request), logs in with an ECR "
            "token, tags and pushes the image with per-layer progress, and shows the digest.",
    .needs = needs,
    .cli = "byoc push REF --repository NAME [--tag T] [--create]",
};

static const tui_screen_ops ops = {
    .name = "push",
    .destroy = tui_info_screen_destroy,
    .enter = tui_info_screen_enter,
    .draw = tui_info_screen_draw,
    .key = tui_info_screen_key,
    .contexts = tui_info_screen_contexts,
};

tui_screen *tui_screen_push_new(tui_app *app)
{
    return tui_info_screen_new(app, &ops, TUI_STEP_PUSH, &text);
}
