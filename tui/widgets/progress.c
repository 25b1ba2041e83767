#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/str.h"

char *tui_fmt_rate(double bps, char *buf, size_t size)
{
    char b[32];
    if (bps < 0)
        bps = 0;
    byoc_fmt_bytes((int64_t)(bps + 0.5), b, sizeof b);
    snprintf(buf, size, "%s/s", b);
    return buf;
}

char *tui_fmt_duration(int64_t s, char *buf, size_t size)
{
    if (s < 0)
        snprintf(buf, size, "-");
    else if (s < 60)
        snprintf(buf, size, "%llds", (long long)s);
    else if (s < 3600)
        snprintf(buf, size, "%lldm%02llds", (long long)(s / 60), (long long)(s % 60));
    else if (s < 86400)
        snprintf(buf, size, "%lldh%02lldm", (long long)(s / 3600), (long long)(s % 3600 / 60));
    else
        snprintf(buf, size, "%lldd%02lldh", (long long)(s / 86400), (long long)(s % 86400 / 3600));
    return buf;
}

void tui_progress_init(tui_progress *p, const char *label, bool bytes)
{
    memset(p, 0, sizeof *p);
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    p->bytes = bytes;
    p->total = -1;
}

/* Rate samples closer than this are merged: short bursts would make the rate jump. */
#define RATE_WINDOW_MS 250

void tui_progress_update(tui_progress *p, int64_t current, int64_t total, uint64_t now_ms)
{
    if (p->start_ms == 0) {
        p->start_ms = p->last_ms = now_ms ? now_ms : 1;
        p->last_current = current;
    } else if (now_ms >= p->last_ms + RATE_WINDOW_MS) {
        double dt = (double)(now_ms - p->last_ms) / 1000.0;
        double inst = (double)(current - p->last_current) / dt;
        if (inst < 0)
            inst = 0;
        p->rate = p->rate > 0 ? 0.7 * p->rate + 0.3 * inst : inst;
        p->last_ms = now_ms;
        p->last_current = current;
    }
    p->current = current;
    p->total = total;
}

void tui_progress_finish(tui_progress *p)
{
    p->done = true;
    if (p->total > 0)
        p->current = p->total;
}

double tui_progress_fraction(const tui_progress *p)
{
    if (p->total <= 0)
        return p->done ? 1.0 : -1.0;
    double f = (double)p->current / (double)p->total;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

int64_t tui_progress_eta(const tui_progress *p)
{
    if (p->total <= 0 || p->rate <= 0 || p->done)
        return -1;
    int64_t left = p->total - p->current;
    if (left <= 0)
        return 0;
    return (int64_t)((double)left / p->rate + 0.5);
}

char *tui_progress_text(const tui_progress *p, char *buf, size_t size)
{
    char cur[32], tot[32], rate[40], eta[32];
    byoc_buf b = BYOC_BUF_INIT;
    if (p->bytes) {
        byoc_fmt_bytes(p->current, cur, sizeof cur);
        if (p->total > 0)
            byoc_buf_printf(&b, "%s / %s", cur, byoc_fmt_bytes(p->total, tot, sizeof tot));
        else
            byoc_buf_puts(&b, cur);
    } else if (p->total > 0) {
        byoc_buf_printf(&b, "%lld / %lld", (long long)p->current, (long long)p->total);
    } else {
        byoc_buf_printf(&b, "%lld", (long long)p->current);
    }
    double f = tui_progress_fraction(p);
    if (f >= 0)
        byoc_buf_printf(&b, "  %d%%", (int)(f * 100.0));
    if (p->done) {
        byoc_buf_puts(&b, "  done");
    } else {
        if (p->rate > 0 && p->bytes)
            byoc_buf_printf(&b, "  %s", tui_fmt_rate(p->rate, rate, sizeof rate));
        else if (p->rate > 0)
            byoc_buf_printf(&b, "  %.1f/s", p->rate);
        int64_t e = tui_progress_eta(p);
        if (e >= 0)
            byoc_buf_printf(&b, "  ETA %s", tui_fmt_duration(e, eta, sizeof eta));
    }
    snprintf(buf, size, "%s", byoc_buf_str(&b));
    byoc_buf_clear(&b);
    return buf;
}

int tui_progress_cells(double fraction, int width)
{
    if (width <= 0 || fraction <= 0)
        return 0;
    if (fraction >= 1)
        return width;
    int n = (int)(fraction * width);
    return n > width ? width : n;
}

int tui_spinner_frame(uint64_t now_ms, int frames)
{
    return frames > 0 ? (int)((now_ms / 100) % (uint64_t)frames) : 0;
}

uint64_t tui_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
