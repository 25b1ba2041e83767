/* job_status: how a job's status looks everywhere in the TUI: a symbol
 * (Unicode or ASCII, so state never rests on colour alone) and a style. */
#ifndef BYOC_TUI_JOB_STATUS_H
#define BYOC_TUI_JOB_STATUS_H

#include <stddef.h>

#include "style.h"

/* "✓ COMPLETED" or "+ COMPLETED" into buf. */
char *tui_job_status_text(const char *status, char *buf, size_t size);
tui_style tui_job_status_style(const char *status);
/* A device ARN shortened for a table: "amazon/sv1", "ionq/Aria-1", "local:none/none". */
const char *tui_job_device_short(const char *device);
/* What the Monitor's empty table says: "No jobs yet: Run creates one" only when there
 * are none; when the status filter hides them all, that and how to undo it. */
void tui_mon_empty_text(size_t total, const char *filter, char *buf, size_t size);

#endif
