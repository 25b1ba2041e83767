#include "welcome.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/files.h"

static const struct {
    tui_action_id action;
    const char *label;
} choices[TUI_WELCOME_COUNT] = {
    [TUI_WELCOME_HERE] = {TUI_ACT_START_HERE, "Start a project here"},
    [TUI_WELCOME_OPEN] = {TUI_ACT_OPEN_DIR, "Open another directory"},
    [TUI_WELCOME_SAMPLE] = {TUI_ACT_SAMPLE, "Make a sample project to try the flow"},
};

tui_action_id tui_welcome_action(tui_welcome_choice c)
{
    return (unsigned)c < TUI_WELCOME_COUNT ? choices[c].action : TUI_ACT_NONE;
}

const char *tui_welcome_label(tui_welcome_choice c)
{
    return (unsigned)c < TUI_WELCOME_COUNT ? choices[c].label : "";
}

bool tui_welcome_key(tui_welcome *w, tui_action_id act, int *chosen)
{
    *chosen = -1;
    switch (act) {
    case TUI_ACT_UP:
        w->sel = w->sel > 0 ? w->sel - 1 : 0;
        return true;
    case TUI_ACT_DOWN:
        w->sel = w->sel + 1 < TUI_WELCOME_COUNT ? w->sel + 1 : TUI_WELCOME_COUNT - 1;
        return true;
    case TUI_ACT_OPEN:
        *chosen = w->sel;
        return true;
    default:
        break;
    }
    for (int c = 0; c < TUI_WELCOME_COUNT; c++)
        if (choices[c].action == act) {
            w->sel = c;
            *chosen = c;
            return true;
        }
    return false;
}

char *tui_welcome_path(const char *typed)
{
    if (!typed)
        return NULL;
    while (isspace((unsigned char)*typed))
        typed++;
    size_t n = strlen(typed);
    while (n && isspace((unsigned char)typed[n - 1]))
        n--;
    if (!n)
        return NULL;
    const char *home = getenv("HOME");
    if (typed[0] == '~' && (n == 1 || typed[1] == '/') && home && *home)
        return byoc_xasprintf("%s%.*s", home, (int)(n - 1), typed + 1);
    return byoc_xstrndup(typed, n);
}

bool tui_welcome_check_open(const char *typed, char *msg, size_t size)
{
    char *path = tui_welcome_path(typed);
    bool ok = false;
    if (!path)
        snprintf(msg, size, "a directory, please");
    else if (!byoc_path_exists(path))
        snprintf(msg, size, "no such directory");
    else if (!byoc_path_is_dir(path))
        snprintf(msg, size, "not a directory");
    else
        ok = true;
    free(path);
    return ok;
}

static bool dir_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return false;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d)))
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

bool tui_welcome_check_sample(const char *typed, char *msg, size_t size)
{
    char *path = tui_welcome_path(typed);
    bool ok = false;
    if (!path)
        snprintf(msg, size, "a directory name, please");
    else if (byoc_path_exists(path) && !byoc_path_is_dir(path))
        snprintf(msg, size, "exists and is not a directory");
    else if (byoc_path_is_dir(path) && !dir_is_empty(path))
        snprintf(msg, size, "exists and is not empty: choose a new name");
    else
        ok = true;
    free(path);
    return ok;
}

char *tui_welcome_sample_default(void)
{
    char msg[80];
    if (tui_welcome_check_sample(TUI_WELCOME_SAMPLE_DIR, msg, sizeof msg))
        return byoc_xstrdup(TUI_WELCOME_SAMPLE_DIR);
    for (int i = 2; i < 100; i++) {
        char *dir = byoc_xasprintf("%s-%d", TUI_WELCOME_SAMPLE_DIR, i);
        if (tui_welcome_check_sample(dir, msg, sizeof msg))
            return dir;
        free(dir);
    }
    return byoc_xstrdup(TUI_WELCOME_SAMPLE_DIR);    /* the prompt says why not */
}

byoc_init_options tui_welcome_sample_options(const char *dir, const char *region)
{
    return (byoc_init_options){.dir = dir, .recipe = BYOC_RECIPE_CUSTOM_BASE, .language = BYOC_LANG_PYTHON,
                               .arch = BYOC_ARCH_AMD64, .region = region, .git = true};
}
