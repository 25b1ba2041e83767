/* preflight_ctx: adding a finding to the report, the one call every check group makes. */
#include "byoc/preflight_ctx.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>

#include "core/buf.h"
#include "core/log.h"
#include "core/utf8.h"

void pf_add(pf_ctx *c, int order, const char *name, byoc_pf_status st, const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf msg = BYOC_BUF_INIT;
    byoc_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    char *message = byoc_redact_dup(byoc_buf_str(&msg));
    byoc_buf_clear(&msg);
    byoc_printable_inplace(message); /* findings quote the services, the image and the code: one clean line */
    pthread_mutex_lock(&c->lock);
    byoc_preflight_report *r = c->report;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 24;
        r->items = byoc_xrealloc(r->items, r->cap * sizeof *r->items);
    }
    byoc_pf_check *k = &r->items[r->n++];
    k->name = byoc_xstrdup(name);
    k->status = st;
    k->message = message;
    k->fix = byoc_redact_dup(fix && st != BYOC_PF_PASS ? fix : "");
    byoc_printable_inplace(k->fix); /* a fix may quote the finding's names too */
    k->order = order;
    /* k may move once the lock is released (another check's pf_add grows the array); its strings do not */
    const char *shown_fix = k->fix;
    pthread_mutex_unlock(&c->lock);
    byoc_task_check(c->t, name, st, message, shown_fix);
}
