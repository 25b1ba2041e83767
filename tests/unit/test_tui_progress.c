/* Progress figures: rates, durations, the smoothed rate,
 * the fraction, the ETA and the bar's cells; and the status bar's values
 * from the flags and the environment. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/str.h"
#include "progress.h"
#include "statusbar.h"

static const char *fake_env(const char *name)
{
    if (!strcmp(name, "AWS_PROFILE"))
        return "dev";
    if (!strcmp(name, "AWS_DEFAULT_REGION"))
        return "eu-west-1";
    if (!strcmp(name, "DOCKER_HOST"))
        return "tcp://127.0.0.1:2376";
    return NULL;
}

static const char *empty_env(const char *name)
{
    (void)name;
    return NULL;
}

int main(void)
{
    char b[64];
    CHECK_STR(byoc_fmt_bytes(1536, b, sizeof b), "1.5 KiB"); /* core/str's formatter (test_str.c) */
    CHECK_STR(tui_fmt_rate(0, b, sizeof b), "0 B/s");
    CHECK_STR(tui_fmt_rate(1258291.2, b, sizeof b), "1.2 MiB/s");
    CHECK_STR(tui_fmt_duration(0, b, sizeof b), "0s");
    CHECK_STR(tui_fmt_duration(59, b, sizeof b), "59s");
    CHECK_STR(tui_fmt_duration(65, b, sizeof b), "1m05s");
    CHECK_STR(tui_fmt_duration(3720, b, sizeof b), "1h02m");
    CHECK_STR(tui_fmt_duration(90000, b, sizeof b), "1d01h");

    tui_progress p;
    tui_progress_init(&p, "layer 3f2a", true);
    CHECK(tui_progress_fraction(&p) < 0);                          /* unknown total */
    tui_progress_update(&p, 0, 10 << 20, 1000);
    CHECK(tui_progress_fraction(&p) == 0.0);
    CHECK_INT(tui_progress_eta(&p), -1);                           /* no rate yet */
    tui_progress_update(&p, 1 << 20, 10 << 20, 1100);              /* too soon for a sample */
    CHECK(p.rate == 0);
    tui_progress_update(&p, 2 << 20, 10 << 20, 2000);              /* 2 MiB in 1 s */
    CHECK(p.rate == (double)(2 << 20));
    CHECK_INT(tui_progress_eta(&p), 4);                            /* 8 MiB left at 2 MiB/s */
    tui_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "2.0 MiB / 10.0 MiB  20%  2.0 MiB/s  ETA 4s");
    tui_progress_update(&p, 4 << 20, 10 << 20, 3000);              /* smoothed: 0.7 old + 0.3 new */
    CHECK(p.rate == (double)(2 << 20));
    tui_progress_update(&p, 8 << 20, 10 << 20, 4000);
    CHECK(p.rate > (double)(2 << 20) && p.rate < (double)(4 << 20));
    tui_progress_finish(&p);
    CHECK(tui_progress_fraction(&p) == 1.0);
    tui_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "10.0 MiB / 10.0 MiB  100%  done");

    tui_progress_init(&p, "context", true);                        /* size unknown */
    tui_progress_update(&p, 1536, -1, 1000);
    tui_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "1.5 KiB");
    tui_progress_init(&p, "steps", false);
    tui_progress_update(&p, 3, 12, 1000);
    tui_progress_text(&p, b, sizeof b);
    CHECK_STR(b, "3 / 12  25%");
    tui_progress_update(&p, 30, 12, 1000);                         /* over the total: clamped */
    CHECK(tui_progress_fraction(&p) == 1.0);

    CHECK_INT(tui_progress_cells(0.0, 20), 0);
    CHECK_INT(tui_progress_cells(0.5, 20), 10);
    CHECK_INT(tui_progress_cells(0.99, 20), 19);
    CHECK_INT(tui_progress_cells(1.0, 20), 20);
    CHECK_INT(tui_progress_cells(-1, 20), 0);
    CHECK_INT(tui_progress_cells(0.5, 0), 0);
    CHECK_INT(tui_spinner_frame(0, 4), 0);
    CHECK_INT(tui_spinner_frame(250, 4), 2);
    CHECK_INT(tui_spinner_frame(450, 4), 0);

    /* the status bar: flags win, then the environment, then defaults */
    tui_statusbar sb;
    byoc_globals g = {.project_dir = "."};
    tui_status_init(&sb, &g, fake_env);
    CHECK_STR(tui_status_get(&sb, TUI_SB_PROFILE), "dev");
    CHECK_STR(tui_status_get(&sb, TUI_SB_REGION), "eu-west-1");
    CHECK_STR(tui_status_get(&sb, TUI_SB_ENGINE), "tcp://127.0.0.1:2376");
    tui_status_clear(&sb);
    g.profile = "prod";
    g.region = "us-east-1";
    tui_status_init(&sb, &g, fake_env);
    CHECK_STR(tui_status_get(&sb, TUI_SB_PROFILE), "prod");
    CHECK_STR(tui_status_get(&sb, TUI_SB_REGION), "us-east-1");
    tui_status_clear(&sb);
    tui_status_init(&sb, NULL, empty_env);
    CHECK_STR(tui_status_get(&sb, TUI_SB_PROFILE), "default");
    CHECK_STR(tui_status_get(&sb, TUI_SB_REGION), "not set");     /* with its fix: test_tui_statusbar */
    CHECK(tui_status_fix(&sb, TUI_SB_REGION) != NULL);
    CHECK_STR(tui_status_get(&sb, TUI_SB_ENGINE), "unix:///var/run/docker.sock");
    tui_status_set(&sb, TUI_SB_ENGINE, "docker 24.0.5 \x1b[31m(unix)");   /* from the doctor later */
    tui_status_set(&sb, TUI_SB_REGION, "us-east-1");
    CHECK(tui_status_fix(&sb, TUI_SB_REGION) == NULL);
    tui_status_text(&sb, b, sizeof b);
    CHECK_STR(b, "profile default  region us-east-1  engine docker 24.0.5 (unix)");
    tui_status_clear(&sb);
    return check_done();
}
