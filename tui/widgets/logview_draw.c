#include "logview.h"

#include <string.h>

#include "text.h"

void tui_logview_draw(tui_logview *v, WINDOW *win, tui_rect r, bool focused)
{
    if (r.h <= 0 || r.w <= 0)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    int text_h = r.h >= 3 ? r.h - 1 : r.h;
    tui_logview_set_size(v, r.w, text_h);
    size_t i = tui_logview_first_index(v);
    int sub = v->top_sub;
    int y = r.y;
    if (v->ring.count == 0)
        tui_draw_text(win, y, r.x, r.w, TUI_STY_DIM, "(no output yet)");
    while (y < r.y + text_h && i < tui_logring_count(&v->ring)) {
        const tui_log_line *l = tui_logring_get(&v->ring, i);
        char prefix[32];
        tui_logview_prefix(v, l, prefix, sizeof prefix);
        tui_style sty = (long)i == v->match ? TUI_STY_WARN : TUI_STY_NORMAL;
        if (!v->wrap) {
            int pw = tui_draw_text(win, y, r.x, r.w, TUI_STY_DIM, prefix);
            if (tui_text_width(l->text) > r.w - pw) {
                char buf[2048];
                tui_text_fit(l->text, r.w - pw, tui_glyph()->ellipsis, buf, sizeof buf);
                tui_draw_highlight(win, y, r.x + pw, r.w - pw, sty, TUI_STY_MATCH, buf, v->search);
            } else {
                tui_draw_highlight(win, y, r.x + pw, r.w - pw, sty, TUI_STY_MATCH, l->text, v->search);
            }
            y++;
            i++;
            continue;
        }
        /* wrapped: row k shows columns [k*w, (k+1)*w) of prefix + text */
        int rows = tui_logview_line_rows(v, i);
        for (int k = sub; k < rows && y < r.y + text_h; k++, y++) {
            int skip = k * r.w, x = r.x, avail = r.w;
            int pw = tui_text_width(prefix);
            if (skip < pw) {
                int n = tui_draw_text(win, y, x, avail, TUI_STY_DIM, prefix + skip);
                x += n;
                avail -= n;
                skip = 0;
            } else {
                skip -= pw;
            }
            const char *t = tui_text_skip_cols(l->text, skip, NULL);
            tui_draw_highlight(win, y, x, avail, sty, TUI_STY_MATCH, t, v->search);
        }
        sub = 0;
        i++;
    }
    if (text_h < r.h) {
        int fy = r.y + r.h - 1;
        tui_draw_blank(win, fy, r.x, r.w, TUI_STY_DIM);
        if (v->searching) {
            tui_draw_text(win, fy, r.x, 1, TUI_STY_KEY, "/");
            tui_edit_draw(&v->search_edit, win, fy, r.x + 1, r.w - 1, TUI_STY_NORMAL, focused);
        } else {
            char status[256];
            tui_logview_status(v, status, sizeof status);
            tui_draw_fit(win, fy, r.x, r.w, v->note[0] ? TUI_STY_WARN : TUI_STY_DIM, status);
        }
    }
}
