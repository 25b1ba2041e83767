/* keys: one integer per key press, with names for binding tables and help.
 *
 * A key is a Unicode code point (printable characters, and the control
 * characters 1..31, e.g. C-u = 21) or one of the TUI_KEY_* specials above
 * the Unicode range, so curses' KEY_* codes never collide with characters.
 * Names: "q", "?", "Esc", "Enter", "Tab", "S-Tab", "Space", "Backspace",
 * "Del", "Ins", "Up", "Down", "Left", "Right", "PgUp", "PgDn", "Home", "End",
 * "F1".."F12", "C-a".."C-z". */
#ifndef BYOC_TUI_KEYS_H
#define BYOC_TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

enum {
    TUI_KEY_NONE = 0,
    TUI_KEY_TAB = 9,
    TUI_KEY_ENTER = 13,
    TUI_KEY_ESC = 27,
    TUI_KEY_SPECIAL = 0x200000,
    TUI_KEY_UP,
    TUI_KEY_DOWN,
    TUI_KEY_LEFT,
    TUI_KEY_RIGHT,
    TUI_KEY_PGUP,
    TUI_KEY_PGDN,
    TUI_KEY_HOME,
    TUI_KEY_END,
    TUI_KEY_BACKSPACE,
    TUI_KEY_DELETE,
    TUI_KEY_INSERT,
    TUI_KEY_BTAB,       /* Shift-Tab */
    TUI_KEY_RESIZE,     /* never bound: the terminal changed size */
    TUI_KEY_F0 = TUI_KEY_SPECIAL + 0x100,
};
#define TUI_KEY_F(n) (TUI_KEY_F0 + (n))
#define TUI_KEY_CTRL(c) ((c) & 0x1f)

/* A key that inserts itself into a text field (printable character). */
bool tui_key_is_text(int key);
/* Parse a key name; -1 if unknown. */
int tui_key_parse(const char *name);
/* The key's name (as accepted by tui_key_parse). Returns buf. */
char *tui_key_name(int key, char *buf, size_t size);
/* Map what curses' wget_wch returned (rc = OK or KEY_CODE_YES) to a key;
 * TUI_KEY_NONE for keys byoc does not use. Enter, C-j, C-m and KEY_ENTER are
 * TUI_KEY_ENTER; DEL, C-h and KEY_BACKSPACE are TUI_KEY_BACKSPACE. */
int tui_key_from_curses(int rc, unsigned wch);

#endif
