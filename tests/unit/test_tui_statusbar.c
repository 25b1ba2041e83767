/* The status line's problems (issue 19 point 1): no region and a profile in
 * neither AWS file carry their fix, and at 80 columns the fix is shown whole:
 * the fine values are cut or go first, then the running-task note. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "statusbar.h"
#include "text.h"

static const char *no_env(const char *name)
{
    (void)name;
    return NULL;
}

static const char *region_env(const char *name)
{
    return strcmp(name, "AWS_REGION") == 0 ? "eu-west-1" : NULL;
}

static int shown(const int give[TUI_SB_COUNT])
{
    int n = 0;
    for (int f = 0; f < TUI_SB_COUNT; f++)
        n += give[f] > 0;
    return n;
}

static int used(const int give[TUI_SB_COUNT], int right)
{
    int u = 1 + right;
    for (int f = 0; f < TUI_SB_COUNT; f++)
        u += give[f] ? give[f] + 2 : 0;
    return u;
}

static int whole(const tui_statusbar *sb, tui_sb_field f)
{
    char t[512];
    tui_status_field_text(sb, f, t, sizeof t);
    return tui_text_width(t);
}

int main(void)
{
    tui_statusbar sb;
    char t[512];
    int give[TUI_SB_COUNT], right;

    /* no region anywhere: the field says so and how to set one */
    tui_status_init(&sb, NULL, no_env);
    CHECK_STR(tui_status_get(&sb, TUI_SB_REGION), "not set");
    tui_status_field_text(&sb, TUI_SB_REGION, t, sizeof t);
    CHECK_STR(t, "region not set: export AWS_REGION=us-east-1 or aws configure");
    CHECK(tui_status_fix(&sb, TUI_SB_PROFILE) == NULL);

    /* wide: everything whole, as before */
    tui_status_fit(&sb, 200, 10, give, &right);
    CHECK_INT(shown(give), 3);
    CHECK_INT(right, 10);
    for (int f = 0; f < TUI_SB_COUNT; f++)
        CHECK_INT(give[f], whole(&sb, f));

    /* 80 columns with a task running: the fix stays whole, profile whole, the engine and the note go */
    tui_status_set(&sb, TUI_SB_ENGINE, "20.10.24+dfsg1");
    tui_status_fit(&sb, 80, 8, give, &right);
    CHECK_INT(give[TUI_SB_REGION], whole(&sb, TUI_SB_REGION));
    CHECK_INT(give[TUI_SB_PROFILE], whole(&sb, TUI_SB_PROFILE));
    CHECK_INT(give[TUI_SB_ENGINE], 0);
    CHECK_INT(right, 0);
    CHECK(used(give, right) <= 80);

    /* the region set later: the problem is gone, all three fit with the note */
    tui_status_set(&sb, TUI_SB_REGION, "us-east-1");
    CHECK(tui_status_fix(&sb, TUI_SB_REGION) == NULL);
    tui_status_fit(&sb, 80, 8, give, &right);
    CHECK_INT(shown(give), 3);
    CHECK_INT(right, 8);
    for (int f = 0; f < TUI_SB_COUNT; f++)
        CHECK_INT(give[f], whole(&sb, f));

    /* a long engine value is cut (not dropped) when cutting is enough */
    tui_status_set(&sb, TUI_SB_ENGINE, "unix:///var/run/a-rather-long-socket-path/for-docker.sock");
    tui_status_fit(&sb, 80, 0, give, &right);
    CHECK(give[TUI_SB_ENGINE] > 0 && give[TUI_SB_ENGINE] < whole(&sb, TUI_SB_ENGINE));
    CHECK_INT(give[TUI_SB_PROFILE], whole(&sb, TUI_SB_PROFILE));
    CHECK(used(give, right) <= 80);

    /* a profile named by AWS_PROFILE that exists nowhere */
    tui_status_profile_missing(&sb, "nope", "AWS_PROFILE");
    tui_status_field_text(&sb, TUI_SB_PROFILE, t, sizeof t);
    CHECK_STR(t, "profile nope (not found): unset AWS_PROFILE or aws configure --profile nope");
    tui_status_fit(&sb, 80, 8, give, &right);
    CHECK_INT(give[TUI_SB_PROFILE], whole(&sb, TUI_SB_PROFILE));
    CHECK(used(give, right) <= 80);
    tui_status_profile_missing(&sb, "nope", "--profile");
    tui_status_field_text(&sb, TUI_SB_PROFILE, t, sizeof t);
    CHECK_STR(t, "profile nope (not found): aws configure --profile nope, or another --profile");

    /* two problems in 80 columns: both kept as long as they fit, the last one cut at its end */
    tui_status_region_missing(&sb);
    tui_status_fit(&sb, 80, 0, give, &right);
    CHECK_INT(give[TUI_SB_ENGINE], 0);
    CHECK_INT(give[TUI_SB_PROFILE], whole(&sb, TUI_SB_PROFILE));
    CHECK(used(give, right) <= 80);
    tui_status_fit(&sb, 200, 0, give, &right);
    CHECK_INT(shown(give), 3);

    /* control characters from outside never reach the line */
    tui_status_set_problem(&sb, TUI_SB_ENGINE, "bad\x1b[2J", "fix\x07 it");
    tui_status_field_text(&sb, TUI_SB_ENGINE, t, sizeof t);
    CHECK(strchr(t, '\x1b') == NULL && strchr(t, '\x07') == NULL);
    tui_status_clear(&sb);

    /* a region from the environment is fine from the start */
    tui_status_init(&sb, NULL, region_env);
    CHECK_STR(tui_status_get(&sb, TUI_SB_REGION), "eu-west-1");
    CHECK(tui_status_fix(&sb, TUI_SB_REGION) == NULL);
    tui_status_clear(&sb);
    return check_done();
}
