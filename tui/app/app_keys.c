/* app_keys: from a key (or a `:` command) to what happens: dialogs and the
 * prompt first, then the focused screen, then the app's own actions. */
#include "app_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_draw.h"
#include "cmdline.h"
#include "core/buf.h"
#include "keys.h"
#include "screen_images.h"
#include "screens.h"
#include "tty.h"

static void quit_answer(tui_app *a, bool yes, void *ud)
{
    (void)ud;
    if (yes)
        a->quit = true;
}

static void request_quit(tui_app *a)
{
    size_t busy = 0;                    /* background tasks only look: they are not worth a question */
    for (size_t i = 0; i < a->ntasks; i++)
        busy += !a->tasks[i].background;
    if (busy == 0) {
        a->quit = true;
        return;
    }
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "%zu task%s still running (", busy, busy == 1 ? " is" : "s are");
    for (size_t i = 0, n = 0; i < a->ntasks; i++)
        if (!a->tasks[i].background)
            byoc_buf_printf(&b, "%s%s", n++ ? ", " : "", byoc_task_name(a->tasks[i].task));
    byoc_buf_puts(&b, "). Quitting cancels them. Quit byoc?");
    tui_app_confirm(a, "Quit byoc?", byoc_buf_str(&b), "Quit", quit_answer, NULL);
    byoc_buf_clear(&b);
}

static void open_help(tui_app *a)
{
    tui_screen *top = app_top(a);
    if (top->ops == NULL || strcmp(top->ops->name, "help") != 0) {
        tui_ctx chain[16];
        size_t n = app_chain(a, chain, sizeof chain / sizeof chain[0]);
        tui_app_push(a, tui_screen_help_new(a, chain, n));
    }
}

static void open_whole(tui_app *a)
{
    tui_screen *top = app_top(a);
    if (strcmp(top->ops->name, "whole") == 0)
        return;
    /* The notes are those of the last frame; keys read in one batch (Up, then v) came after it.
     * Draw what they changed first, so the view has what the screen shows now. */
    if (stdscr && !a->too_small)
        app_draw(a);
    tui_app_push(a, tui_screen_whole_new(a, a->last_msg));
}

static void open_images(tui_app *a)
{
    tui_screen *top = app_top(a);
    if (strcmp(top->ops->name, "images") != 0)
        tui_app_push(a, tui_screen_images_new(a));
}

static void back(tui_app *a, int key)
{
    if (a->depth > 0 && !app_top(a)->top_level) {
        tui_app_pop(a);
        return;
    }
    if (a->sidebar_focus) {
        a->sidebar_focus = false;
        a->dirty |= DIRTY_ALL;
        if (key == TUI_KEY_ESC)
            return;
    }
    if (key == TUI_KEY_ESC) {
        char q[16], h[16];
        tui_app_message(a, "On the top level: %s quits, %s shows the keys",
                        tui_action_key(TUI_CTX_GLOBAL, TUI_ACT_BACK, q, sizeof q),
                        tui_action_key(TUI_CTX_GLOBAL, TUI_ACT_HELP, h, sizeof h));
    } else
        request_quit(a);
}

static void history_add(tui_app *a, const char *line)
{
    if (!*line || (a->nhistory && strcmp(a->history[a->nhistory - 1], line) == 0))
        return;
    if (a->nhistory == APP_HISTORY) {
        free(a->history[0]);
        memmove(a->history, a->history + 1, (APP_HISTORY - 1) * sizeof a->history[0]);
        a->nhistory--;
    }
    a->history[a->nhistory++] = byoc_xstrdup(line);
}

static void run_action(tui_app *a, const tui_keyev *ev);

static void run_command(tui_app *a, const char *line)
{
    tui_command cmd;
    char msg[256];
    tui_cmd_status st = tui_cmd_parse(line, &cmd, msg, sizeof msg);
    if (st == TUI_CMD_EMPTY)
        return;
    if (st != TUI_CMD_OK) {
        tui_app_error(a, "%s", msg);
        return;
    }
    if (cmd.action->id == TUI_ACT_GOTO) {
        tui_app_goto_step(a, cmd.step);
        return;
    }
    if (cmd.action->id == TUI_ACT_BACK) {   /* a command is never Esc: :back from the top quits like q */
        back(a, 'q');
        return;
    }
    tui_keyev ev = {0, cmd.action->id, cmd.action, cmd.arg[0] ? cmd.arg : NULL};
    tui_screen *s = app_top(a);
    if (s->ops->key && s->ops->key(s, &ev)) {
        a->dirty |= DIRTY_CONTENT | DIRTY_BOTTOM;
        return;
    }
    run_action(a, &ev);
}

static void prompt_key(tui_app *a, int key, tui_action_id act)
{
    switch (act) {
    case TUI_ACT_ACCEPT: {
        char *line = byoc_xstrdup(tui_edit_text(&a->prompt));
        a->prompting = false;
        a->prompt_info[0] = '\0';
        a->dirty |= DIRTY_BOTTOM | DIRTY_STATUS;
        history_add(a, line);
        run_command(a, line);
        free(line);
        return;
    }
    case TUI_ACT_CANCEL:
        a->prompting = false;
        a->prompt_info[0] = '\0';
        a->dirty |= DIRTY_BOTTOM | DIRTY_STATUS;
        return;
    case TUI_ACT_COMPLETE: {
        char line[256], matches[256];
        snprintf(line, sizeof line, "%s", tui_edit_text(&a->prompt));
        size_t n = tui_cmd_complete(line, sizeof line, matches, sizeof matches);
        tui_edit_set(&a->prompt, line);
        if (n == 0)
            snprintf(a->prompt_info, sizeof a->prompt_info, "no command starts with \"%.200s\"", line);
        else if (n > 1)
            snprintf(a->prompt_info, sizeof a->prompt_info, "%s", matches);
        else
            a->prompt_info[0] = '\0';
        a->dirty |= DIRTY_BOTTOM | DIRTY_STATUS;
        return;
    }
    case TUI_ACT_HISTORY_PREV:
    case TUI_ACT_HISTORY_NEXT:
        if (a->nhistory == 0)
            return;
        a->history_pos += act == TUI_ACT_HISTORY_PREV ? -1 : 1;
        if (a->history_pos < 0)
            a->history_pos = 0;
        if (a->history_pos >= a->nhistory) {
            a->history_pos = a->nhistory;
            tui_edit_set(&a->prompt, "");
        } else {
            tui_edit_set(&a->prompt, a->history[a->history_pos]);
        }
        a->dirty |= DIRTY_BOTTOM;
        return;
    default:
        if (tui_edit_key(&a->prompt, key, act))
            a->dirty |= DIRTY_BOTTOM;
        return;
    }
}

static void sidebar_key(tui_app *a, const tui_keyev *ev)
{
    switch (ev->action) {
    case TUI_ACT_UP: app_set_step(a, a->step > 0 ? a->step - 1 : 0); break;
    case TUI_ACT_DOWN: app_set_step(a, a->step + 1 < TUI_STEP_COUNT ? a->step + 1 : a->step); break;
    case TUI_ACT_TOP: app_set_step(a, 0); break;
    case TUI_ACT_BOTTOM: app_set_step(a, TUI_STEP_COUNT - 1); break;
    case TUI_ACT_OPEN: a->sidebar_focus = false; a->dirty = DIRTY_ALL; break;
    default: run_action(a, ev); break;
    }
}

/* The app's own actions: what no screen took. */
static void run_action(tui_app *a, const tui_keyev *ev)
{
    switch (ev->action) {
    case TUI_ACT_HELP: open_help(a); break;
    case TUI_ACT_WHOLE: open_whole(a); break;
    case TUI_ACT_IMAGES: open_images(a); break;
    case TUI_ACT_BACK:
    case TUI_ACT_CANCEL: back(a, ev->key ? ev->key : 'q'); break;
    case TUI_ACT_QUIT: request_quit(a); break;
    case TUI_ACT_COMMAND:
        a->prompting = true;
        a->history_pos = a->nhistory;
        a->prompt_info[0] = '\0';
        tui_edit_set(&a->prompt, "");
        a->dirty |= DIRTY_BOTTOM;
        break;
    case TUI_ACT_GOTO: {
        int step = ev->arg ? tui_step_find(ev->arg) : ev->key - '1';
        if (step >= 0 && step < TUI_STEP_COUNT)
            tui_app_goto_step(a, step);
        break;
    }
    case TUI_ACT_NEXT_STEP: tui_app_goto_step(a, (a->step + 1) % TUI_STEP_COUNT); break;
    case TUI_ACT_PREV_STEP: tui_app_goto_step(a, (a->step + TUI_STEP_COUNT - 1) % TUI_STEP_COUNT); break;
    case TUI_ACT_REDRAW: tui_app_redraw(a); break;
    case TUI_ACT_SUSPEND:
        tui_tty_suspend();
        app_layout(a);
        a->dirty = DIRTY_ALL;
        break;
    case TUI_ACT_SIDEBAR:
        if (a->depth == 0) {
            a->sidebar_focus = true;
            a->dirty = DIRTY_ALL;
        }
        break;
    case TUI_ACT_NONE: {
        if (ev->key == 0)
            break;
        char name[24];
        tui_key_name(ev->key, name, sizeof name);
        tui_app_message(a, "%s does nothing here; ? shows the keys", name);
        break;
    }
    default: {
        const tui_action *row = ev->row ? ev->row : tui_action_get(ev->action);
        tui_app_message(a, "%s does nothing here; ? shows the keys", row ? row->name : "that");
        break;
    }
    }
}

void app_route_key(tui_app *a, int key)
{
    if (key == TUI_KEY_NONE || key == TUI_KEY_RESIZE)
        return;
    if (a->msg[0]) {
        a->msg[0] = '\0';
        a->dirty |= DIRTY_BOTTOM;
    }
    tui_ctx chain[12];
    size_t n = app_chain(a, chain, 12);
    const tui_action *row = tui_action_lookup(chain, n, key);
    tui_keyev ev = {key, row ? row->id : TUI_ACT_NONE, row, NULL};

    if (a->dialog_open) {
        if (row && row->ctx == TUI_CTX_PAGE && app_dialog_about(a) == TUI_ABOUT_PANE) {
            tui_screen *owner = a->dialog_owner;    /* scroll what the question is about */
            if (owner->ops->key)
                owner->ops->key(owner, &ev);
            a->dirty = DIRTY_ALL;
            return;
        }
        tui_dialog_result r = tui_dialog_handle(&a->dialog, key, ev.action);
        if (r != TUI_DIALOG_OPEN)
            app_close_dialog(a, r);
        else
            a->dirty = DIRTY_ALL;       /* the dialog sits over several parts */
        return;
    }
    if (a->prompting) {
        prompt_key(a, key, ev.action);
        return;
    }
    if (a->too_small) {                 /* only leaving and redrawing make sense */
        /* q quits here, as the notice says; Esc never quits (elsewhere it only goes back) */
        if (ev.action == TUI_ACT_QUIT || (ev.action == TUI_ACT_BACK && key != TUI_KEY_ESC))
            request_quit(a);
        else if (ev.action == TUI_ACT_REDRAW)
            tui_app_redraw(a);
        return;
    }
    if (a->sidebar_focus && a->depth == 0) {
        sidebar_key(a, &ev);
        return;
    }
    tui_screen *s = app_top(a);
    if (s->ops->key && s->ops->key(s, &ev)) {
        a->dirty |= DIRTY_CONTENT | DIRTY_BOTTOM;   /* the focus inside the screen may have moved: new hints */
        return;
    }
    run_action(a, &ev);
}
