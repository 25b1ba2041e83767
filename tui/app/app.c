/* app: byoc_tui_run and the main loop: one poll() over the terminal, the
 * signal self-pipe and the task event queue; keys and events change state
 * and mark parts dirty; a frame is drawn only when something changed. The
 * top of the app: it makes the step screens (at start and for another
 * project) over the layers below (app_keys, app_draw, app_api). */
#include "app.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app_api.h"
#include "app_draw.h"
#include "app_keys.h"
#include "core/buf.h"
#include "core/files.h"
#include "flow.h"
#include "keys.h"
#include "progress.h"
#include "screens.h"
#include "status_feed.h"
#include "tty.h"
#include "whole.h"

/* Events handled per loop turn before keys get a look in: a flood of log
 * lines must not make the keyboard wait. */
#define EVENTS_PER_TURN 512

static tui_screen *(*const step_ctors[TUI_STEP_COUNT])(tui_app *) = {
    tui_screen_decide_new, tui_screen_build_new, tui_screen_push_new,
    tui_screen_permit_new, tui_screen_run_new, tui_screen_monitor_new,
};

static bool want_colour(const byoc_globals *g)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc)
        return false;
    return !(g && g->no_color);
}

/* A new screen for each step. */
static void make_steps(tui_app *a)
{
    for (int i = 0; i < TUI_STEP_COUNT; i++)
        a->steps[i] = step_ctors[i](a);
}

bool app_welcome_if_new(tui_app *a)
{
    if (a->g && a->g->project_set)
        return false;                   /* the directory is chosen */
    char *file = byoc_path_join(a->project, "byoc.json");
    bool known = byoc_path_exists(file);
    free(file);
    if (!known)
        tui_app_push(a, tui_screen_welcome_new(a));
    return !known;
}

tui_app *app_new(const byoc_globals *g)
{
    tui_app *a = byoc_xcalloc(1, sizeof *a);
    a->g = g;
    const char *dir = g && g->project_dir ? g->project_dir : ".";
    a->project = realpath(dir, NULL);
    if (!a->project)
        a->project = byoc_xstrdup(dir);
    tui_status_init(&a->status, g, NULL);
    tui_edit_init(&a->prompt, "");
    a->prompt.max_len = 200;
    a->q = byoc_evq_new();
    a->aws = byoc_aws_clients_new();
    a->engines = byoc_engines_new();
    make_steps(a);
    a->step = 0;
    a->dirty = DIRTY_ALL;
    return a;
}

/* Runs between keys and events, when no screen is on the call stack: the
 * screens it closes and replaces are not in the middle of anything. */
static void apply_project(tui_app *a)
{
    char *dir = a->next_project;
    if (!dir)
        return;
    a->next_project = NULL;
    char *abs = realpath(dir, NULL);
    if (!abs || chdir(abs) != 0) {
        tui_app_error(a, "Cannot work in %s: %s", dir, strerror(errno));
        free(abs);
        free(dir);
        return;
    }
    free(dir);
    app_close_steps(a);
    free(a->project);
    a->project = abs;
    tui_flow_free(a->flow);
    a->flow = NULL;
    make_steps(a);
    a->step = 0;
    a->sidebar_focus = false;
    app_resize_steps(a);
    app_show(a->steps[0]);
    a->dirty = DIRTY_ALL;
}

void app_handle_key(tui_app *a, int key)
{
    app_route_key(a, key);
    apply_project(a);
}

void app_dispatch_event(tui_app *a, byoc_event *ev)
{
    app_route_event(a, ev);
    apply_project(a);
}

void app_delete(tui_app *a)
{
    for (size_t i = 0; i < a->ntasks; i++)
        byoc_task_cancel(a->tasks[i].task);
    for (size_t i = 0; i < a->ntasks; i++)
        byoc_task_release(a->tasks[i].task);
    free(a->tasks);
    a->tasks = NULL;                    /* the screens destroyed below see no task of the app */
    a->ntasks = a->tasks_cap = 0;
    byoc_evq_free(a->q);                /* joins what still runs, drops pending events */
    if (a->dialog_open)
        tui_dialog_clear(&a->dialog);
    while (a->depth > 0) {
        tui_screen *s = a->stack[--a->depth];
        s->ops->destroy(s);
    }
    for (int i = 0; i < TUI_STEP_COUNT; i++)
        if (a->steps[i] && a->steps[i]->ops->destroy)
            a->steps[i]->ops->destroy(a->steps[i]);
    for (int i = 0; i < a->nhistory; i++)
        free(a->history[i]);
    tui_edit_clear(&a->prompt);
    tui_status_clear(&a->status);
    tui_flow_free(a->flow);
    byoc_aws_clients_free(a->aws);      /* after the tasks were joined and the screens went */
    byoc_engines_free(a->engines);
    free(a->next_project);
    free(a->project);
    free(a);
    tui_whole_clear();
}

/* Benchmark hook (bench/monitor_tui.sh): with BYOC_FRAME_LOG=<path> set, each frame
 * that follows key presses appends "<microseconds from the first key's read to the
 * end of doupdate()>\n" to that file. */
static struct {
    int fd;                             /* -1: off */
    uint64_t key_us;                    /* 0: no key waits for its frame */
} frame_log = {-1, 0};

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void frame_log_open(void)
{
    const char *path = getenv("BYOC_FRAME_LOG");
    if (path && *path)
        frame_log.fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

static void frame_log_drawn(void)
{
    if (frame_log.fd < 0 || !frame_log.key_us)
        return;
    char line[32];
    int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)(now_us() - frame_log.key_us));
    if (write(frame_log.fd, line, (size_t)n) != n) {
        close(frame_log.fd);            /* stop measuring rather than disturb the TUI */
        frame_log.fd = -1;
    }
    frame_log.key_us = 0;
}

static void read_keys(tui_app *a)
{
    wint_t ch;
    int rc;
    /* drain what curses has: bytes may already sit in its buffer, unseen by poll() */
    while (!a->quit && (rc = wget_wch(stdscr, &ch)) != ERR) {
        if (frame_log.fd >= 0 && !frame_log.key_us)
            frame_log.key_us = now_us();
        if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
            app_layout(a);
            continue;
        }
        app_handle_key(a, tui_key_from_curses(rc, (unsigned)ch));
    }
}

static void pump_events(tui_app *a)
{
    byoc_event ev;
    for (int n = 0; n < EVENTS_PER_TURN && byoc_evq_pop(a->q, &ev); n++) {
        app_dispatch_event(a, &ev);
        byoc_event_release(&ev);
    }
}

static bool wants_tick(const tui_app *a)
{
    return a->ntasks > 0 || app_top(a)->wants_tick;
}

static void tick(tui_app *a, uint64_t now)
{
    if (a->ntasks)
        a->dirty |= DIRTY_STATUS;       /* the spinner */
    tui_screen *s = app_top(a);
    if (s->wants_tick && s->ops->tick && s->ops->tick(s, now))
        a->dirty |= DIRTY_CONTENT;
}

static void loop(tui_app *a)
{
    uint64_t next_tick = tui_now_ms() + APP_TICK_MS;
    app_layout(a);
    if (app_top(a)->ops->enter)
        app_top(a)->ops->enter(app_top(a));
    while (!a->quit) {
        app_draw(a);
        frame_log_drawn();
        struct pollfd fds[3] = {
            {tui_tty_input_fd(), POLLIN, 0},
            {tui_tty_signal_fd(), POLLIN, 0},
            {byoc_evq_fd(a->q), POLLIN, 0},
        };
        int timeout = -1;
        if (wants_tick(a)) {
            uint64_t now = tui_now_ms();
            timeout = next_tick > now ? (int)(next_tick - now) : 0;
        }
        int n = poll(fds, 3, timeout);
        if (n < 0 && errno != EINTR)
            break;
        if (fds[1].revents & POLLIN) {
            tui_signals sig = tui_tty_signals();
            if (sig.terminate) {
                a->exit_code = 128 + sig.terminate;
                break;
            }
            if (sig.resize) {
                tui_tty_resize();
                app_layout(a);
            }
        }
        /* The terminal went away: as if SIGHUP (which only the session leader may get). A hung-up
         * tty polls readable too, and every read fails, so POLLHUP ends the loop whatever else is
         * set; else it would spin on reads that return nothing. */
        if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
            a->exit_code = 128 + 1;
            break;
        }
        if (fds[2].revents & POLLIN)
            pump_events(a);
        read_keys(a);
        if (wants_tick(a)) {
            uint64_t now = tui_now_ms();
            if (now >= next_tick) {
                tick(a, now);
                next_tick = now + APP_TICK_MS;
            }
        }
    }
}

int byoc_tui_run(const byoc_globals *g)
{
    char msg[256];
    if (tui_tty_check(msg, sizeof msg) != 0) {
        fprintf(stderr, "byoc: tui: %s\n", msg);
        return 3;
    }
    char why[256];
    int rc = tui_actions_check(why, sizeof why);
    if (rc != 0) {                      /* a broken table is a bug: say so rather than misbehave */
        fprintf(stderr, "byoc: tui: action table: %s\n", why);
        return 1;
    }
    if (tui_tty_start(want_colour(g), msg, sizeof msg) != 0) {
        fprintf(stderr, "byoc: tui: %s\n", msg);
        return 3;
    }
    tui_app *a = app_new(g);
    app_welcome_if_new(a);
    tui_status_feed_start(a);
    frame_log_open();
    loop(a);
    int code = a->exit_code;
    tui_tty_stop();                     /* the terminal first: cancelling tasks may take a moment */
    app_delete(a);
    if (frame_log.fd >= 0)
        close(frame_log.fd);
    frame_log.fd = -1;
    return code;
}
