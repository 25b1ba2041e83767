#include "draw.h"

#include <stdlib.h>
#include <string.h>

#include "text.h"

static bool utf8_locale = true;

void tui_draw_set_utf8(bool utf8)
{
    utf8_locale = utf8;
}

int tui_draw_ntext(WINDOW *w, int y, int x, int maxw, tui_style sty, const char *text, size_t n)
{
    if (maxw <= 0 || !text)
        return 0;
    tui_style_set(w, sty);
    wmove(w, y, x);
    int used = 0;
    size_t i = 0;
    while (i < n && text[i]) {
        unsigned cp;
        size_t len = byoc_utf8_decode(text + i, &cp);
        if (i + len > n)
            break;
        int cw = tui_cp_width(cp);
        if (used + cw > maxw)
            break;
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0xFFFD ||
            (cp >= 0x80 && !utf8_locale))
            waddch(w, '?');
        else if (cw == 0 && used == 0)
            ;                           /* a lone combining mark has nothing to sit on */
        else
            waddnstr(w, text + i, (int)len);
        used += cw;
        i += len;
    }
    return used;
}

int tui_draw_text(WINDOW *w, int y, int x, int maxw, tui_style sty, const char *text)
{
    return tui_draw_ntext(w, y, x, maxw, sty, text, text ? strlen(text) : 0);
}

int tui_draw_fit(WINDOW *w, int y, int x, int maxw, tui_style sty, const char *text)
{
    char buf[1024];
    if (maxw <= 0 || !text)
        return 0;
    if (tui_text_width(text) <= maxw)
        return tui_draw_text(w, y, x, maxw, sty, text);
    tui_text_fit(text, maxw, tui_glyph()->ellipsis, buf, sizeof buf);
    return tui_draw_text(w, y, x, maxw, sty, buf);
}

int tui_draw_path(WINDOW *w, int y, int x, int maxw, tui_style sty, const char *path)
{
    if (maxw <= 0 || !path)
        return 0;
    char *clean = tui_text_sanitize(path, strlen(path)), buf[1024];
    tui_text_fit_tail(clean, maxw, tui_glyph()->ellipsis, buf, sizeof buf);
    free(clean);
    return tui_draw_text(w, y, x, maxw, sty, buf);
}

void tui_draw_blank(WINDOW *w, int y, int x, int n, tui_style sty)
{
    if (n <= 0)
        return;
    tui_style_set(w, sty);
    mvwhline(w, y, x, ' ', n);
}

void tui_draw_fill(WINDOW *w, tui_rect r, tui_style sty)
{
    for (int i = 0; i < r.h; i++)
        tui_draw_blank(w, r.y + i, r.x, r.w, sty);
}

void tui_draw_hline(WINDOW *w, int y, int x, int n, tui_style sty)
{
    const char *g = tui_glyph()->hline;
    for (int i = 0; i < n; i++)
        tui_draw_text(w, y, x + i, 1, sty, g);
}

void tui_draw_vline(WINDOW *w, int y, int x, int n, tui_style sty)
{
    const char *g = tui_glyph()->vline;
    for (int i = 0; i < n; i++)
        tui_draw_text(w, y + i, x, 1, sty, g);
}

void tui_draw_box(WINDOW *w, tui_rect r, tui_style sty, const char *title, tui_style title_sty)
{
    if (r.w < 2 || r.h < 2)
        return;
    const tui_glyphs *g = tui_glyph();
    tui_draw_text(w, r.y, r.x, 1, sty, g->ul);
    tui_draw_hline(w, r.y, r.x + 1, r.w - 2, sty);
    tui_draw_text(w, r.y, r.x + r.w - 1, 1, sty, g->ur);
    tui_draw_vline(w, r.y + 1, r.x, r.h - 2, sty);
    tui_draw_vline(w, r.y + 1, r.x + r.w - 1, r.h - 2, sty);
    tui_draw_text(w, r.y + r.h - 1, r.x, 1, sty, g->ll);
    tui_draw_hline(w, r.y + r.h - 1, r.x + 1, r.w - 2, sty);
    tui_draw_text(w, r.y + r.h - 1, r.x + r.w - 1, 1, sty, g->lr);
    if (title && *title && r.w > 6) {
        int x = r.x + 2;
        tui_draw_text(w, r.y, x, 1, sty, " ");
        int n = tui_draw_fit(w, r.y, x + 1, r.w - 6, title_sty, title);
        tui_draw_text(w, r.y, x + 1 + n, 1, sty, " ");
    }
}

tui_rect tui_rect_inset(tui_rect r, int by)
{
    tui_rect in = {r.y + by, r.x + by, r.h - 2 * by, r.w - 2 * by};
    if (in.h < 0)
        in.h = 0;
    if (in.w < 0)
        in.w = 0;
    return in;
}

int tui_draw_highlight(WINDOW *w, int y, int x, int maxw, tui_style sty, tui_style match_sty,
                       const char *text, const char *needle)
{
    if (!needle || !*needle)
        return tui_draw_text(w, y, x, maxw, sty, text);
    int used = 0;
    const char *p = text;
    while (*p && used < maxw) {
        const char *m = tui_text_casestr(p, needle);
        size_t before = m ? (size_t)(m - p) : strlen(p);
        used += tui_draw_ntext(w, y, x + used, maxw - used, sty, p, before);
        if (!m)
            break;
        /* the match spans as many characters as the needle has */
        const char *q = m;
        for (const char *n = needle; *n && *q;) {
            unsigned cp;
            n += byoc_utf8_decode(n, &cp);
            q += byoc_utf8_decode(q, &cp);
        }
        used += tui_draw_ntext(w, y, x + used, maxw - used, match_sty, m, (size_t)(q - m));
        p = q;
    }
    return used;
}
