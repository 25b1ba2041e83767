/* style: the look of byoc's TUI in one table, with a monochrome column.
 *
 * Every style has a colour form (foreground on the terminal's default
 * background, so light and dark terminals both work) and an attribute-only
 * form (bold / reverse / underline) used when NO_COLOR is set, --no-color
 * was given or the terminal has no colours. State is never shown by colour
 * alone: selections are reverse video in both forms.
 *
 * Glyphs: Unicode box drawing and symbols when the locale is UTF-8 and the
 * terminal has line drawing (acsc); ASCII otherwise or when BYOC_ASCII=1. */
#ifndef BYOC_TUI_STYLE_H
#define BYOC_TUI_STYLE_H

#include <curses.h>
#include <stdbool.h>

/* X(name, colour fg, colour attrs, mono attrs); fg -1 = terminal default. */
#define TUI_STYLES(X)                                                   \
    X(NORMAL,         -1,            A_NORMAL,            A_NORMAL)     \
    X(TITLE,          COLOR_CYAN,    A_BOLD,              A_BOLD)       \
    X(TAB,            -1,            A_NORMAL,            A_NORMAL)     \
    X(TAB_ACTIVE,     COLOR_CYAN,    A_BOLD | A_REVERSE,  A_BOLD | A_REVERSE) \
    X(BORDER,         COLOR_BLUE,    A_NORMAL,            A_NORMAL)     \
    X(BORDER_FOCUS,   COLOR_CYAN,    A_BOLD,              A_BOLD)       \
    X(HEADING,        COLOR_CYAN,    A_BOLD,              A_BOLD | A_UNDERLINE) \
    X(SIDEBAR,        -1,            A_NORMAL,            A_NORMAL)     \
    X(SIDEBAR_SEL,    COLOR_CYAN,    A_BOLD | A_REVERSE,  A_BOLD | A_REVERSE) \
    X(SIDEBAR_CUR,    COLOR_CYAN,    A_BOLD,              A_BOLD | A_UNDERLINE) \
    X(STATUS,         -1,            A_REVERSE,           A_REVERSE)    \
    X(STATUS_KEY,     -1,            A_REVERSE | A_BOLD,  A_REVERSE | A_BOLD) \
    X(HINT,           -1,            A_NORMAL,            A_NORMAL)     \
    X(HINT_KEY,       COLOR_YELLOW,  A_BOLD,              A_BOLD)       \
    X(MESSAGE,        COLOR_GREEN,   A_BOLD,              A_BOLD)       \
    X(ERROR,          COLOR_RED,     A_BOLD,              A_BOLD | A_UNDERLINE) \
    X(WARN,           COLOR_YELLOW,  A_BOLD,              A_BOLD)       \
    X(OK,             COLOR_GREEN,   A_NORMAL,            A_NORMAL)     \
    X(DIM,            -1,            A_DIM,               A_DIM)        \
    X(KEY,            COLOR_YELLOW,  A_BOLD,              A_BOLD)       \
    X(SELECTED,       COLOR_CYAN,    A_REVERSE | A_BOLD,  A_REVERSE | A_BOLD) \
    X(SELECTED_DIM,   -1,            A_REVERSE,           A_REVERSE)    \
    X(COLUMN_HEAD,    -1,            A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE) \
    X(MATCH,          COLOR_YELLOW,  A_REVERSE,           A_REVERSE | A_UNDERLINE) \
    X(LABEL,          -1,            A_NORMAL,            A_NORMAL)     \
    X(LABEL_FOCUS,    COLOR_CYAN,    A_BOLD,              A_BOLD)       \
    X(FIELD,          -1,            A_UNDERLINE,         A_UNDERLINE)  \
    X(FIELD_FOCUS,    COLOR_CYAN,    A_UNDERLINE | A_BOLD, A_REVERSE)   \
    X(DIALOG,         -1,            A_NORMAL,            A_NORMAL)     \
    X(BUTTON,         -1,            A_NORMAL,            A_NORMAL)     \
    X(BUTTON_FOCUS,   COLOR_CYAN,    A_REVERSE | A_BOLD,  A_REVERSE | A_BOLD) \
    X(BAR_DONE,       COLOR_GREEN,   A_BOLD,              A_BOLD)       \
    X(BAR_TODO,       -1,            A_DIM,               A_DIM)

typedef enum {
#define TUI_STYLE_ENUM(name, fg, cattr, mattr) TUI_STY_##name,
    TUI_STYLES(TUI_STYLE_ENUM)
#undef TUI_STYLE_ENUM
    TUI_STY_COUNT
} tui_style;

typedef enum { TUI_GLYPHS_UTF8, TUI_GLYPHS_ASCII } tui_glyph_mode;

typedef struct tui_glyphs {
    const char *hline, *vline, *ul, *ur, *ll, *lr, *ltee, *rtee;
    const char *ellipsis, *sort_up, *sort_down, *marker, *bar_full, *bar_empty;
    const char *check_on, *check_off, *arrow_left, *arrow_right;
    const char *const *spinner;
    int spinner_frames;
} tui_glyphs;

/* Call after curses is up: colour = use colours (has_colors() is checked too). */
void tui_style_init(bool colour, tui_glyph_mode glyphs);
/* Apply a style to a window (wattr_set). */
void tui_style_set(WINDOW *win, tui_style s);
/* The attributes of a style in the current mode (for chgat-like use). */
attr_t tui_style_attrs(tui_style s, short *pair);
const tui_glyphs *tui_glyph(void);
tui_glyph_mode tui_glyph_mode_get(void);

#endif
