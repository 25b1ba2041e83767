#include "job_model.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "byoc/jobs.h"
#include "core/buf.h"
#include "core/str.h"

/* Each line of a record, with its source in front: the log view colours the "[source]" tag. */
static void record_lines(const byoc_jobs_log *r, tui_job_line_fn on_line, void *ud)
{
    double ts = r->ms > 0 ? (double)r->ms / 1000.0 : (double)time(NULL);
    byoc_buf line = BYOC_BUF_INIT;
    const char *p = r->text, *end = r->text + r->len;
    while (p <= end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        byoc_buf_reset(&line);
        if (*r->source)
            byoc_buf_printf(&line, "[%s] ", r->source);
        byoc_buf_append(&line, p, n);
        byoc_buf_append(&line, "", 1);
        on_line(line.data, ts, ud);
        if (!nl)
            break;
        p = nl + 1;
    }
    byoc_buf_clear(&line);
}

bool tui_job_model_event(tui_job_model *m, const byoc_event *ev, tui_job_line_fn on_line, void *ud)
{
    switch (ev->kind) {
    case BYOC_EV_DATA:
        if (ev->current == BYOC_JOBS_STATUS || ev->current == BYOC_JOBS_DESCRIBED) {
            json_t **slot = ev->current == BYOC_JOBS_STATUS ? &m->job : &m->config;
            json_decref(*slot);
            *slot = json_incref(ev->result);
            return true;
        }
        if (ev->current == BYOC_JOBS_LOG && on_line)
            record_lines(ev->result, on_line, ud);
        return false;
    case BYOC_EV_DONE:
        m->ended = true;
        m->watching = false;
        return false;
    case BYOC_EV_ERROR:
        m->watching = false;
        if (ev->err.kind != BYOC_E_CANCELLED) {
            free(m->error);
            m->error = byoc_xstrdup(ev->err.message);
        }
        return false;
    default: return false;
    }
}

void tui_job_model_clear(tui_job_model *m)
{
    json_decref(m->job);
    json_decref(m->config);
    free(m->error);
    memset(m, 0, sizeof *m);
}
