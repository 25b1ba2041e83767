#include "whole.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

#define NOTES_MAX 16            /* per area: more than a screen can show cut */

typedef struct note {
    char *title, *text;
} note;

static note notes[TUI_WHOLE_AREAS][NOTES_MAX];
static size_t counts[TUI_WHOLE_AREAS];
static tui_whole_area current = TUI_WHOLE_CONTENT;

static void forget(tui_whole_area area)
{
    for (size_t i = 0; i < counts[area]; i++) {
        free(notes[area][i].title);
        free(notes[area][i].text);
    }
    counts[area] = 0;
}

void tui_whole_begin(tui_whole_area area)
{
    if ((unsigned)area >= TUI_WHOLE_AREAS)
        return;
    forget(area);
    current = area;
}

bool tui_whole_has(const char *text)
{
    for (int a = 0; a < TUI_WHOLE_AREAS; a++)
        for (size_t i = 0; i < counts[a]; i++)
            if (strcmp(notes[a][i].text, text) == 0)
                return true;
    return false;
}

void tui_whole_note(const char *title, const char *text)
{
    if (!text || !*text || counts[current] == NOTES_MAX || tui_whole_has(text))
        return;
    notes[current][counts[current]++] = (note){byoc_xstrdup(title ? title : ""), byoc_xstrdup(text)};
}

size_t tui_whole_count(void)
{
    size_t n = 0;
    for (int a = 0; a < TUI_WHOLE_AREAS; a++)
        n += counts[a];
    return n;
}

bool tui_whole_get(size_t i, const char **title, const char **text)
{
    for (int a = 0; a < TUI_WHOLE_AREAS; a++) {
        if (i < counts[a]) {
            *title = notes[a][i].title;
            *text = notes[a][i].text;
            return true;
        }
        i -= counts[a];
    }
    return false;
}

void tui_whole_clear(void)
{
    for (int a = 0; a < TUI_WHOLE_AREAS; a++)
        forget((tui_whole_area)a);
    current = TUI_WHOLE_CONTENT;
}
