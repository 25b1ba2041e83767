#include "job_status.h"

#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "style.h"

typedef struct status_look {
    const char *status, *utf8, *ascii;
    tui_style style;
} status_look;

static const status_look looks[] = {
    {"QUEUED", "\u25f7", "~", TUI_STY_WARN},      {"RUNNING", "\u25b6", ">", TUI_STY_LABEL_FOCUS},
    {"COMPLETED", "\u2713", "+", TUI_STY_OK},     {"FAILED", "\u2717", "x", TUI_STY_ERROR},
    {"CANCELLING", "\u2298", "-", TUI_STY_WARN},  {"CANCELLED", "\u2298", "-", TUI_STY_DIM},
};

static const status_look *look(const char *status)
{
    for (size_t i = 0; status && i < sizeof looks / sizeof looks[0]; i++)
        if (strcmp(looks[i].status, status) == 0)
            return &looks[i];
    return NULL;
}

char *tui_job_status_text(const char *status, char *buf, size_t size)
{
    const status_look *l = look(status);
    snprintf(buf, size, "%s %s", l ? (tui_glyph_mode_get() == TUI_GLYPHS_UTF8 ? l->utf8 : l->ascii) : "?", status ? status : "");
    return buf;
}

tui_style tui_job_status_style(const char *status)
{
    const status_look *l = look(status);
    return l ? l->style : TUI_STY_NORMAL;
}

const char *tui_job_device_short(const char *device)
{
    if (!device)
        return "";
    const char *d = strstr(device, ":device/");
    if (!d)
        return device;
    d += 8;
    const char *slash = strchr(d, '/');
    return slash && strchr(slash + 1, '/') ? slash + 1 : d;
}

void tui_mon_empty_text(size_t total, const char *filter, char *buf, size_t size)
{
    if (total == 0)
        snprintf(buf, size, "No jobs yet: Run creates one");
    else
        snprintf(buf, size, "No %s jobs: the status filter hides all %zu (f cycles it back to all)", filter, total);
}
