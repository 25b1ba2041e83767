/* screen_job: one job in detail, pushed above Monitor (q/Esc closes it).
 *
 * Tabs (Tab cycles): Overview (status, queue position, failure reason, the
 * status timeline from the job's events, hyperparameters and config),
 * Logs (the log tail in a bounded logview: F follow, / search, w wrap,
 * t timestamps; lines tagged with their instance), Metrics (metrics_tab.h:
 * one metric's line plot from the "Metrics -" lines, [ and ] choose the
 * metric, x switches between time and iteration).
 * c cancels (with a confirmation), d downloads the results with progress.
 * The jobs module's watch task (byoc/jobs.h) feeds its model (job_model.h) until
 * the job ended. */
#ifndef BYOC_TUI_JOB_VIEW_H
#define BYOC_TUI_JOB_VIEW_H

#include "shell.h"

/* arn: an AWS job ARN or local:job/<name>. */
tui_screen *tui_screen_job_new(tui_app *app, const char *arn);

#endif
