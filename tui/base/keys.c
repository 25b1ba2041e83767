#include "keys.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"

static const struct {
    int key;
    const char *name;
} named[] = {
    {TUI_KEY_ESC, "Esc"},       {TUI_KEY_ENTER, "Enter"},   {TUI_KEY_TAB, "Tab"},
    {TUI_KEY_BTAB, "S-Tab"},    {' ', "Space"},             {TUI_KEY_BACKSPACE, "Backspace"},
    {TUI_KEY_DELETE, "Del"},    {TUI_KEY_INSERT, "Ins"},    {TUI_KEY_UP, "Up"},
    {TUI_KEY_DOWN, "Down"},     {TUI_KEY_LEFT, "Left"},     {TUI_KEY_RIGHT, "Right"},
    {TUI_KEY_PGUP, "PgUp"},     {TUI_KEY_PGDN, "PgDn"},     {TUI_KEY_HOME, "Home"},
    {TUI_KEY_END, "End"},
};

bool tui_key_is_text(int key)
{
    return key >= 0x20 && key != 0x7F && key < TUI_KEY_SPECIAL && !(key >= 0x80 && key < 0xA0);
}

int tui_key_parse(const char *name)
{
    if (!name || !*name)
        return -1;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcasecmp(name, named[i].name) == 0 && strlen(name) > 1)
            return named[i].key;
    if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && name[2] && !name[3]) {
        char c = name[2];
        if (c >= 'a' && c <= 'z')
            return TUI_KEY_CTRL(c);
        if (c >= 'A' && c <= 'Z')
            return TUI_KEY_CTRL(c);
        return -1;
    }
    if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
        char *end;
        long n = strtol(name + 1, &end, 10);
        if (!*end && n >= 1 && n <= 12)
            return TUI_KEY_F(n);
        return -1;
    }
    unsigned cp;
    size_t len = byoc_utf8_decode(name, &cp);
    if (name[len] == '\0' && tui_key_is_text((int)cp))
        return (int)cp;
    return -1;
}

char *tui_key_name(int key, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (named[i].key == key) {
            snprintf(buf, size, "%s", named[i].name);
            return buf;
        }
    if (key >= 1 && key < 0x20)
        snprintf(buf, size, "C-%c", 'a' + key - 1);
    else if (key > TUI_KEY_F0 && key <= TUI_KEY_F(12))
        snprintf(buf, size, "F%d", key - TUI_KEY_F0);
    else if (tui_key_is_text(key)) {
        char u[5] = {0};
        byoc_utf8_encode((unsigned)key, u);
        snprintf(buf, size, "%s", u);
    } else
        snprintf(buf, size, "<%d>", key);
    return buf;
}

int tui_key_from_curses(int rc, unsigned wch)
{
    if (rc == OK) {
        switch (wch) {
        case '\r': case '\n': return TUI_KEY_ENTER;
        case 0x7F: case 0x08: return TUI_KEY_BACKSPACE;
        default: break;
        }
        if (wch < TUI_KEY_SPECIAL)
            return (int)wch;
        return TUI_KEY_NONE;
    }
    if (rc != KEY_CODE_YES)
        return TUI_KEY_NONE;
    switch ((int)wch) {
    case KEY_UP: return TUI_KEY_UP;
    case KEY_DOWN: return TUI_KEY_DOWN;
    case KEY_LEFT: return TUI_KEY_LEFT;
    case KEY_RIGHT: return TUI_KEY_RIGHT;
    case KEY_PPAGE: return TUI_KEY_PGUP;
    case KEY_NPAGE: return TUI_KEY_PGDN;
    case KEY_HOME: case KEY_A1: return TUI_KEY_HOME;
    case KEY_END: case KEY_C1: return TUI_KEY_END;
    case KEY_BACKSPACE: return TUI_KEY_BACKSPACE;
    case KEY_DC: return TUI_KEY_DELETE;
    case KEY_IC: return TUI_KEY_INSERT;
    case KEY_BTAB: return TUI_KEY_BTAB;
    case KEY_ENTER: return TUI_KEY_ENTER;
    case KEY_RESIZE: return TUI_KEY_RESIZE;
    default: break;
    }
    if ((int)wch > KEY_F0 && (int)wch <= KEY_F(12))
        return TUI_KEY_F((int)wch - KEY_F0);
    return TUI_KEY_NONE;
}
