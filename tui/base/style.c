#include "style.h"

static bool use_colour;
static tui_glyph_mode glyph_mode = TUI_GLYPHS_ASCII;

static const struct {
    short fg;
    attr_t colour_attrs, mono_attrs;
} styles[TUI_STY_COUNT] = {
#define TUI_STYLE_ROW(name, fg, cattr, mattr) [TUI_STY_##name] = {fg, cattr, mattr},
    TUI_STYLES(TUI_STYLE_ROW)
#undef TUI_STYLE_ROW
};

static const char *const spinner_utf8[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
static const char *const spinner_ascii[] = {"|", "/", "-", "\\"};

static const tui_glyphs glyphs_utf8 = {
    "─", "│", "┌", "┐", "└", "┘", "├", "┤",
    "…", "▲", "▼", "▶", "█", "░",
    "[x]", "[ ]", "◀", "▶",
    spinner_utf8, 10,
};

static const tui_glyphs glyphs_ascii = {
    "-", "|", "+", "+", "+", "+", "+", "+",
    "~", "^", "v", ">", "#", ".",
    "[x]", "[ ]", "<", ">",
    spinner_ascii, 4,
};

void tui_style_init(bool colour, tui_glyph_mode glyphs)
{
    glyph_mode = glyphs;
    use_colour = colour && has_colors();
    if (!use_colour)
        return;
    start_color();
    bool defaults = use_default_colors() == OK;
    for (int i = 0; i < TUI_STY_COUNT; i++) {
        short fg = styles[i].fg;
        if (fg < 0 && !defaults)
            fg = COLOR_WHITE;
        init_pair((short)(i + 1), fg, defaults ? -1 : COLOR_BLACK);
    }
}

attr_t tui_style_attrs(tui_style s, short *pair)
{
    if ((unsigned)s >= TUI_STY_COUNT)
        s = TUI_STY_NORMAL;
    if (use_colour && COLOR_PAIRS > TUI_STY_COUNT) {
        *pair = styles[s].fg < 0 ? 0 : (short)(s + 1);
        return styles[s].colour_attrs;
    }
    *pair = 0;
    return styles[s].mono_attrs;
}

void tui_style_set(WINDOW *win, tui_style s)
{
    short pair;
    attr_t a = tui_style_attrs(s, &pair);
    wattr_set(win, a, pair, NULL);
}

const tui_glyphs *tui_glyph(void)
{
    return glyph_mode == TUI_GLYPHS_UTF8 ? &glyphs_utf8 : &glyphs_ascii;
}

tui_glyph_mode tui_glyph_mode_get(void)
{
    return glyph_mode;
}
