#include "statusbar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "text.h"

static const char *std_getenv(const char *name)
{
    return getenv(name);
}

static const char *first(const char *a, const char *b)
{
    return a && *a ? a : b;
}

void tui_status_init(tui_statusbar *sb, const byoc_globals *g, tui_getenv_fn env)
{
    if (!env)
        env = std_getenv;
    memset(sb, 0, sizeof *sb);
    const char *profile = first(g ? g->profile : NULL, first(env("AWS_PROFILE"), "default"));
    const char *region = first(g ? g->region : NULL,
                               first(env("AWS_REGION"), first(env("AWS_DEFAULT_REGION"), "(not set)")));
    const char *engine = first(env("DOCKER_HOST"), "unix:///var/run/docker.sock");
    tui_status_set(sb, TUI_SB_PROFILE, profile);
    tui_status_set(sb, TUI_SB_REGION, region);
    tui_status_set(sb, TUI_SB_ENGINE, engine);
}

void tui_status_free(tui_statusbar *sb)
{
    for (int i = 0; i < TUI_SB_COUNT; i++)
        free(sb->values[i]);
    memset(sb, 0, sizeof *sb);
}

void tui_status_set(tui_statusbar *sb, tui_sb_field f, const char *value)
{
    if ((unsigned)f >= TUI_SB_COUNT)
        return;
    free(sb->values[f]);
    const char *v = value ? value : "";
    sb->values[f] = tui_text_sanitize(v, strlen(v));
}

const char *tui_status_get(const tui_statusbar *sb, tui_sb_field f)
{
    return (unsigned)f < TUI_SB_COUNT && sb->values[f] ? sb->values[f] : "";
}

const char *tui_status_label(tui_sb_field f)
{
    static const char *labels[TUI_SB_COUNT] = {"profile", "region", "engine"};
    return (unsigned)f < TUI_SB_COUNT ? labels[f] : "";
}

void tui_status_text(const tui_statusbar *sb, char *buf, size_t size)
{
    byoc_buf b = BYOC_BUF_INIT;
    for (int i = 0; i < TUI_SB_COUNT; i++)
        byoc_buf_printf(&b, "%s%s %s", i ? "  " : "", tui_status_label(i), tui_status_get(sb, i));
    snprintf(buf, size, "%s", byoc_buf_str(&b));
    byoc_buf_free(&b);
}
