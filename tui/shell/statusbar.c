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
    const char *region = first(g ? g->region : NULL, first(env("AWS_REGION"), env("AWS_DEFAULT_REGION")));
    const char *engine = first(env("DOCKER_HOST"), "unix:///var/run/docker.sock");
    tui_status_set(sb, TUI_SB_PROFILE, profile);
    if (region && *region)
        tui_status_set(sb, TUI_SB_REGION, region);
    else                                 /* the profile may name one: the feed will say */
        tui_status_region_missing(sb);
    tui_status_set(sb, TUI_SB_ENGINE, engine);
}

void tui_status_clear(tui_statusbar *sb)
{
    for (int i = 0; i < TUI_SB_COUNT; i++) {
        free(sb->values[i]);
        free(sb->fixes[i]);
    }
    memset(sb, 0, sizeof *sb);
}

static char *clean(const char *v)
{
    return v ? tui_text_sanitize(v, strlen(v)) : NULL;
}

void tui_status_set_problem(tui_statusbar *sb, tui_sb_field f, const char *value, const char *fix)
{
    if ((unsigned)f >= TUI_SB_COUNT)
        return;
    free(sb->values[f]);
    free(sb->fixes[f]);
    sb->values[f] = clean(value ? value : "");
    sb->fixes[f] = fix && *fix ? clean(fix) : NULL;
}

void tui_status_set(tui_statusbar *sb, tui_sb_field f, const char *value)
{
    tui_status_set_problem(sb, f, value, NULL);
}

/* aws configure writes the region into the default profile; the variable is the quicker fix. */
void tui_status_region_missing(tui_statusbar *sb)
{
    tui_status_set_problem(sb, TUI_SB_REGION, "not set", "export AWS_REGION=us-east-1 or aws configure");
}

void tui_status_profile_missing(tui_statusbar *sb, const char *profile, const char *origin)
{
    const char *p = profile && *profile ? profile : "?";
    char *value = byoc_xasprintf("%s (not found)", p);
    /* a flag is fixed where it is typed; a variable can simply go (the default profile is then used) */
    char *fix = origin && strcmp(origin, "--profile") == 0
                    ? byoc_xasprintf("aws configure --profile %s, or another --profile", p)
                    : byoc_xasprintf("unset %s or aws configure --profile %s", origin && *origin ? origin
                                                                                            : "AWS_PROFILE", p);
    tui_status_set_problem(sb, TUI_SB_PROFILE, value, fix);
    free(value);
    free(fix);
}

const char *tui_status_get(const tui_statusbar *sb, tui_sb_field f)
{
    return (unsigned)f < TUI_SB_COUNT && sb->values[f] ? sb->values[f] : "";
}

const char *tui_status_fix(const tui_statusbar *sb, tui_sb_field f)
{
    return (unsigned)f < TUI_SB_COUNT ? sb->fixes[f] : NULL;
}

const char *tui_status_label(tui_sb_field f)
{
    static const char *labels[TUI_SB_COUNT] = {"profile", "region", "engine"};
    return (unsigned)f < TUI_SB_COUNT ? labels[f] : "";
}

void tui_status_field_text(const tui_statusbar *sb, tui_sb_field f, char *buf, size_t size)
{
    const char *fix = tui_status_fix(sb, f);
    snprintf(buf, size, "%s %s%s%s", tui_status_label(f), tui_status_get(sb, f), fix ? ": " : "", fix ? fix : "");
}

void tui_status_text(const tui_statusbar *sb, char *buf, size_t size)
{
    byoc_buf b = BYOC_BUF_INIT;
    for (int i = 0; i < TUI_SB_COUNT; i++) {
        char field[512];
        tui_status_field_text(sb, i, field, sizeof field);
        byoc_buf_printf(&b, "%s%s", i ? "  " : "", field);
    }
    snprintf(buf, size, "%s", byoc_buf_str(&b));
    byoc_buf_clear(&b);
}

#define FINE_MIN 6      /* columns of a fine value cut shorter than this say nothing */
#define GAP 2           /* blanks after each field */

static int fit_used(const int give[TUI_SB_COUNT])
{
    int used = 1;                        /* the line starts with a blank */
    for (int f = 0; f < TUI_SB_COUNT; f++)
        used += give[f] ? give[f] + GAP : 0;
    return used;
}

void tui_status_fit(const tui_statusbar *sb, int w, int right_w, int give[TUI_SB_COUNT], int *right_give)
{
    int floor[TUI_SB_COUNT];
    for (int f = 0; f < TUI_SB_COUNT; f++) {
        char text[512];
        tui_status_field_text(sb, f, text, sizeof text);
        give[f] = tui_text_width(text);
        int label = tui_text_width(tui_status_label(f)) + 1;
        floor[f] = tui_status_fix(sb, f) || give[f] < label + FINE_MIN ? give[f] : label + FINE_MIN;
    }
    int right = right_w > w / 2 ? w / 2 : right_w < 0 ? 0 : right_w;
    for (;;) {
        int over = fit_used(give) + right - w;
        if (over <= 0)
            break;
        int spare = 0;
        for (int f = 0; f < TUI_SB_COUNT; f++)
            spare += give[f] - floor[f];
        if (spare >= over) {             /* cutting the fine values is enough: the last field first */
            for (int f = TUI_SB_COUNT - 1; f >= 0 && over > 0; f--) {
                int cut = give[f] - floor[f] < over ? give[f] - floor[f] : over;
                give[f] -= cut;
                over -= cut;
            }
            break;
        }
        if (right) {                     /* else the running-task note goes, */
            right = 0;
            continue;
        }
        int f = TUI_SB_COUNT - 1;        /* then the fine fields, the last first, */
        while (f >= 0 && (!give[f] || tui_status_fix(sb, f)))
            f--;
        if (f >= 0) {
            give[f] = floor[f] = 0;
            continue;
        }
        /* then a fix is cut at its end; a field with no room for its label and a little goes */
        for (f = TUI_SB_COUNT - 1; f >= 0 && over > 0; f--) {
            if (!give[f])
                continue;
            if (give[f] - over >= tui_text_width(tui_status_label(f)) + 3) {
                give[f] -= over;
                over = 0;
            } else {
                over -= give[f] + GAP;
                give[f] = 0;
            }
        }
        break;
    }
    *right_give = right;
}
