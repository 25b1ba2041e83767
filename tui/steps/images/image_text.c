#include "image_text.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

void tui_image_short_id(const char *id, char *buf, size_t size)
{
    if (!id)
        id = "";
    if (strncmp(id, "sha256:", 7) == 0)
        id += 7;
    snprintf(buf, size, "%.12s", id);
}

void tui_image_time(int64_t t, char *buf, size_t size)
{
    if (t <= 0) {
        snprintf(buf, size, "-");
        return;
    }
    time_t tt = (time_t)t;
    struct tm tm;
    localtime_r(&tt, &tm);
    strftime(buf, size, "%Y-%m-%d %H:%M", &tm);
}
