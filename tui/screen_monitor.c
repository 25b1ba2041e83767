/* screen_monitor: the Monitor step. Live job list and detail: status, events, logs, metrics. */
#include "screens.h"
#include "step_page.h"
#include "steps.h"

static const char *const needs[] = {
    "jobs created in Run, or any job ARN or name",
    "CloudWatch Logs access for the log tail (region %R)",
    "S3 access to fetch the results (profile %A)",
    NULL,
};

static const tui_step_text text = {
    .does = "Lists jobs live and shows one in detail: status, events, queue position, the log "
            "tail from CloudWatch (or the local container), metrics parsed from Metrics - "
            "lines drawn as a chart; cancels a job and fetches its results.",
    .needs = needs,
    .cli = "byoc jobs; byoc status JOB; byoc logs JOB --follow; byoc cancel JOB; byoc results JOB",
};

static const tui_screen_ops ops = {
    .name = "monitor",
    .destroy = tui_info_screen_destroy,
    .enter = tui_info_screen_enter,
    .draw = tui_info_screen_draw,
    .key = tui_info_screen_key,
    .contexts = tui_info_screen_contexts,
};

tui_screen *tui_screen_monitor_new(tui_app *app)
{
    return tui_info_screen_new(app, &ops, TUI_STEP_MONITOR, &text);
}
