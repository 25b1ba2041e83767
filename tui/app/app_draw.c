/* app_draw: the layout (top bar, sidebar, content box, status bar, bottom
 * line) and the drawing of everything but the screens' insides. Only the
 * parts marked dirty are drawn; one doupdate() per frame. */
#include "app_draw.h"

#include <stdio.h>
#include <string.h>

#include "hintbar.h"
#include "progress.h"
#include "text.h"
#include "whole.h"

static int sidebar_width(const tui_app *a)
{
    if (app_top(a)->wide)
        return 0;
    return a->cols >= 120 ? 22 : 18;
}

void app_resize_steps(tui_app *a)
{
    if (a->too_small || a->rows == 0)
        return;
    tui_rect r = app_content_rect(a);
    for (int i = 0; i < TUI_STEP_COUNT; i++)
        if (a->steps[i]->ops->on_resize)
            a->steps[i]->ops->on_resize(a->steps[i], r);
}

void app_layout(tui_app *a)
{
    getmaxyx(stdscr, a->rows, a->cols);
    a->too_small = a->rows < APP_MIN_ROWS || a->cols < APP_MIN_COLS;
    if (!a->too_small) {
        tui_rect r = app_content_rect(a);
        app_resize_steps(a);
        for (int i = 0; i < a->depth; i++)
            if (a->stack[i]->ops->on_resize)
                a->stack[i]->ops->on_resize(a->stack[i], r);
    }
    a->dirty = DIRTY_ALL;
}

static tui_rect full_content_box(const tui_app *a)
{
    int sw = sidebar_width(a);
    return (tui_rect){1, sw, a->rows - 3, a->cols - sw};
}

tui_dialog_place app_dialog_place(const tui_app *a)
{
    tui_about about = app_dialog_about(a);
    tui_rect mark = about == TUI_ABOUT_MARK ? a->dialog_owner->about : (tui_rect){0, 0, 0, 0};
    return tui_dialog_place_for(&a->dialog, about, a->cols, a->rows, full_content_box(a), mark);
}

/* The content box with its border; shorter while a dialog is docked under it. */
static tui_rect content_box(const tui_app *a)
{
    tui_rect box = full_content_box(a);
    if (app_dialog_about(a) == TUI_ABOUT_PANE)  /* the docked question takes the box's last rows */
        box.h -= app_dialog_place(a).cut;
    return box;
}

/* The inside of the content box: what a screen draws into. */
tui_rect app_content_rect(const tui_app *a)
{
    return tui_rect_inset(content_box(a), 1);
}

static void draw_top(tui_app *a)
{
    const bool utf8 = tui_glyph_mode_get() == TUI_GLYPHS_UTF8;
    tui_draw_blank(stdscr, 0, 0, a->cols, TUI_STY_NORMAL);
    int x = tui_draw_text(stdscr, 0, 0, a->cols, TUI_STY_TITLE, " byoc ");
    x += tui_draw_text(stdscr, 0, x, a->cols - x, TUI_STY_DIM, utf8 ? "│ " : "| ");
    int active = app_top(a)->top_level ? -1 : a->step;     /* the welcome page is no step yet */
    for (int i = 0; i < TUI_STEP_COUNT; i++) {
        char tab[32];
        snprintf(tab, sizeof tab, " %d %s ", i + 1, tui_step_title(i));
        x += tui_draw_text(stdscr, 0, x, a->cols - x, i == active ? TUI_STY_TAB_ACTIVE : TUI_STY_TAB, tab);
        if (i + 1 < TUI_STEP_COUNT)
            x += tui_draw_text(stdscr, 0, x, a->cols - x, TUI_STY_DIM, utf8 ? "›" : ">");
    }
    const char *project = a->project;
    int room = a->cols - x - 2;
    if (room > 8) {
        char buf[256];
        tui_text_fit_tail(project, room - 1, tui_glyph()->ellipsis, buf, sizeof buf);
        int w = tui_text_width(buf);
        tui_draw_text(stdscr, 0, a->cols - w - 1, w, TUI_STY_DIM, buf);
    }
}

static void draw_sidebar(tui_app *a)
{
    int sw = sidebar_width(a);
    tui_rect box = {1, 0, a->rows - 3, sw};
    tui_draw_fill(stdscr, box, TUI_STY_SIDEBAR);
    tui_draw_box(stdscr, box, a->sidebar_focus ? TUI_STY_BORDER_FOCUS : TUI_STY_BORDER, "Steps",
                 a->sidebar_focus ? TUI_STY_HEADING : TUI_STY_LABEL);
    tui_rect in = tui_rect_inset(box, 1);
    for (int i = 0; i < TUI_STEP_COUNT && i < in.h; i++) {
        char item[40];
        bool cur = i == a->step;
        snprintf(item, sizeof item, "%s%d %s", cur ? "" : " ", i + 1, tui_step_title(i));
        tui_style sty = cur ? (a->sidebar_focus ? TUI_STY_SIDEBAR_SEL : TUI_STY_SIDEBAR_CUR) : TUI_STY_SIDEBAR;
        tui_draw_blank(stdscr, in.y + i, in.x, in.w, cur && a->sidebar_focus ? sty : TUI_STY_SIDEBAR);
        int x = in.x;
        if (cur)
            x += tui_draw_text(stdscr, in.y + i, x, 1, sty, tui_glyph()->marker);
        tui_draw_fit(stdscr, in.y + i, x, in.x + in.w - x, sty, item);
    }
    /* what runs, under the steps */
    int y = in.y + TUI_STEP_COUNT + 1;
    if (a->ntasks && y < in.y + in.h) {
        tui_draw_text(stdscr, y++, in.x, in.w, TUI_STY_LABEL, "Running");
        for (size_t i = 0; i < a->ntasks && y < in.y + in.h; i++)
            tui_draw_fit(stdscr, y++, in.x + 1, in.w - 1, TUI_STY_NORMAL, byoc_task_name(a->tasks[i].task));
    }
}

static void draw_content(tui_app *a)
{
    tui_rect box = content_box(a);
    tui_screen *s = app_top(a);
    char title[128];
    if (s->ops->title)
        s->ops->title(s, title, sizeof title);
    else if (s->step >= 0)
        snprintf(title, sizeof title, "%d %s", s->step + 1, tui_step_title(s->step));
    else
        snprintf(title, sizeof title, "%s", s->ops->name);
    tui_draw_fill(stdscr, box, TUI_STY_NORMAL);
    bool focus = !a->sidebar_focus && !a->dialog_open;
    tui_draw_box(stdscr, box, focus ? TUI_STY_BORDER_FOCUS : TUI_STY_BORDER, title, TUI_STY_HEADING);
    s->about = (tui_rect){0, 0, 0, 0};     /* marked anew by this draw, or nothing */
    s->ops->draw(s, stdscr, tui_rect_inset(box, 1));
    s->dirty = false;
}

static void draw_status(tui_app *a)
{
    int y = a->rows - 2;
    if (a->prompting && a->prompt_info[0]) {
        tui_draw_blank(stdscr, y, 0, a->cols, TUI_STY_STATUS);
        tui_draw_fit(stdscr, y, 1, a->cols - 2, TUI_STY_STATUS, a->prompt_info);
        return;
    }
    char right[96] = "";
    if (a->ntasks == 1)
        snprintf(right, sizeof right, "%s %s", tui_glyph()->spinner[tui_spinner_frame(tui_now_ms(),
                 tui_glyph()->spinner_frames)], byoc_task_name(a->tasks[0].task));
    else if (a->ntasks > 1)
        snprintf(right, sizeof right, "%s %zu tasks", tui_glyph()->spinner[tui_spinner_frame(tui_now_ms(),
                 tui_glyph()->spinner_frames)], a->ntasks);
    tui_status_draw(&a->status, stdscr, y, 0, a->cols, right);
}

static void draw_bottom(tui_app *a)
{
    int y = a->rows - 1;
    tui_draw_blank(stdscr, y, 0, a->cols, TUI_STY_NORMAL);
    if (a->prompting) {
        tui_draw_text(stdscr, y, 0, 1, TUI_STY_KEY, ":");
        tui_edit_draw(&a->prompt, stdscr, y, 1, a->cols - 1, TUI_STY_NORMAL, true);
        return;
    }
    tui_ctx chain[12];
    size_t n = app_chain(a, chain, 12);
    if (a->msg[0]) {
        /* a message too long for the line ends with the key that shows it whole */
        tui_style sty = a->msg_error ? TUI_STY_ERROR : TUI_STY_MESSAGE;
        tui_hint whole;
        int w = a->cols - 1, hw = 0;
        if (tui_text_width(a->msg) > w && tui_hints_whole(chain, n, &whole)) {
            hw = tui_text_width(whole.keys) + 1 + tui_text_width(whole.label) + 2;
            int x = a->cols - hw + 1;
            x += tui_draw_text(stdscr, y, x, a->cols - x, TUI_STY_HINT_KEY, whole.keys);
            x += tui_draw_text(stdscr, y, x, a->cols - x, TUI_STY_HINT, " ");
            tui_draw_text(stdscr, y, x, a->cols - x, TUI_STY_HINT, whole.label);
        }
        tui_whole_fit(stdscr, y, 1, w - hw, sty, a->msg_error ? "Message (an error)" : "Message", a->msg, NULL);
        return;
    }
    tui_hints_draw(stdscr, y, 0, a->cols, chain, n, tui_whole_count() > 0);
}

static void draw_too_small(tui_app *a)
{
    erase();
    char line[128], quit[160], k[16];
    const char *lines[4];
    lines[0] = "Terminal too small";
    snprintf(line, sizeof line, "This window is %dx%d; byoc needs at least %dx%d.", a->cols, a->rows,
             APP_MIN_COLS, APP_MIN_ROWS);
    lines[1] = line;
    /* the one key of "back" that quits here (app_keys.c: Esc never quits) */
    snprintf(quit, sizeof quit, "Make the window larger, or press %s to quit.",
             tui_action_key(TUI_CTX_GLOBAL, TUI_ACT_BACK, k, sizeof k));
    lines[2] = quit;
    lines[3] = NULL;
    int y = a->rows / 2 - 2;
    if (y < 0)
        y = 0;
    for (int i = 0; lines[i] && y + i < a->rows; i++) {
        int w = tui_text_width(lines[i]);
        int x = w < a->cols ? (a->cols - w) / 2 : 0;
        tui_draw_fit(stdscr, y + i, x, a->cols - x, i == 0 ? TUI_STY_ERROR : TUI_STY_NORMAL, lines[i]);
    }
}

void app_draw(tui_app *a)
{
    tui_screen *s = app_top(a);
    if (s->dirty)
        a->dirty |= DIRTY_CONTENT;
    if (!a->dirty)
        return;
    if (a->too_small) {
        draw_too_small(a);
    } else {
        if (a->dirty & DIRTY_TOP)
            draw_top(a);
        if ((a->dirty & DIRTY_SIDEBAR) && sidebar_width(a) > 0)
            draw_sidebar(a);
        bool cut = tui_whole_count() > 0;
        if (a->dirty & DIRTY_CONTENT) {
            tui_whole_begin(TUI_WHOLE_CONTENT);
            draw_content(a);
            if (cut != (tui_whole_count() > 0))
                a->dirty |= DIRTY_BOTTOM;   /* the hint bar offers the whole key while something is cut */
        }
        if (a->dirty & DIRTY_STATUS)
            draw_status(a);
        if (a->dirty & DIRTY_BOTTOM) {
            tui_whole_begin(TUI_WHOLE_MESSAGE);
            draw_bottom(a);
        }
    }
    if (a->dialog_open) {               /* after the content: it placed the mark */
        tui_dialog_place at = app_dialog_place(a);
        tui_dialog_draw(&a->dialog, stdscr, &at);
    }
    a->dirty = 0;
    wnoutrefresh(stdscr);
    doupdate();
}
