#include "cmdline.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "steps.h"

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

tui_cmd_status tui_cmd_parse(const char *line, tui_command *out, char *msg, size_t msgsize)
{
    memset(out, 0, sizeof *out);
    out->step = -1;
    msg[0] = '\0';
    const char *p = skip_space(line ? line : "");
    if (*p == ':')
        p = skip_space(p + 1);
    if (!*p)
        return TUI_CMD_EMPTY;
    char name[64];
    size_t n = 0;
    while (p[n] && p[n] != ' ' && p[n] != '\t' && n + 1 < sizeof name) {
        name[n] = p[n];
        n++;
    }
    name[n] = '\0';
    const char *arg = skip_space(p + n);
    snprintf(out->arg, sizeof out->arg, "%s", arg);
    for (size_t e = strlen(out->arg); e > 0 && isspace((unsigned char)out->arg[e - 1]); e--)
        out->arg[e - 1] = '\0';

    bool ambiguous;
    out->action = tui_action_by_name(name, &ambiguous);
    if (!out->action) {
        if (ambiguous) {
            snprintf(msg, msgsize, "ambiguous command: %s (press Tab to see the choices)", name);
            return TUI_CMD_AMBIGUOUS;
        }
        snprintf(msg, msgsize, "unknown command: %s (Tab completes; :help lists the commands)", name);
        return TUI_CMD_UNKNOWN;
    }
    if (out->action->arg) {
        if (!out->arg[0]) {
            snprintf(msg, msgsize, "%s needs %s", out->action->name, out->action->arg);
            return TUI_CMD_BAD_ARG;
        }
        if (out->action->id == TUI_ACT_GOTO) {
            out->step = tui_step_find(out->arg);
            if (out->step < 0) {
                snprintf(msg, msgsize, "goto: no step \"%s\" (decide, build, push, permit, run, monitor)",
                         out->arg);
                return TUI_CMD_BAD_ARG;
            }
        }
    } else if (out->arg[0]) {
        snprintf(msg, msgsize, "%s takes no argument", out->action->name);
        return TUI_CMD_BAD_ARG;
    }
    return TUI_CMD_OK;
}

struct collect {
    const char *names[64];
    size_t n;
};

static void add_name(const char *name, void *ud)
{
    struct collect *c = ud;
    if (c->n < 64)
        c->names[c->n++] = name;
}

static size_t common_prefix(const char *const *names, size_t n)
{
    if (n == 0)
        return 0;
    size_t len = strlen(names[0]);
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;
        while (k < len && names[i][k] == names[0][k])
            k++;
        len = k;
    }
    return len;
}

static void list_matches(const char *const *names, size_t n, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(out + len, size - len, "%s%s", i ? " " : "", names[i]);
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
    }
}

size_t tui_cmd_complete(char *line, size_t linesize, char *matches, size_t msize)
{
    matches[0] = '\0';
    const char *p = skip_space(line);
    const char *sp = strchr(p, ' ');
    struct collect c = {{0}, 0};
    if (!sp) {                                  /* completing the command name */
        tui_action_complete(p, add_name, &c);
        list_matches(c.names, c.n, matches, msize);
        if (c.n == 0)
            return 0;
        size_t keep = common_prefix(c.names, c.n);
        char done[128];
        snprintf(done, sizeof done, "%.*s", (int)keep, c.names[0]);
        if (c.n == 1) {
            const tui_action *a = tui_action_by_name(c.names[0], NULL);
            if (a && a->arg)
                strncat(done, " ", sizeof done - strlen(done) - 1);
        }
        if (strlen(done) >= strlen(p))
            snprintf(line, linesize, "%s", done);
        return c.n;
    }
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(sp - p), p);
    const tui_action *a = tui_action_by_name(name, NULL);
    if (!a || a->id != TUI_ACT_GOTO)
        return 0;
    const char *arg = skip_space(sp);
    size_t alen = strlen(arg);
    for (int s = 0; s < TUI_STEP_COUNT; s++)
        if (strncmp(tui_step_name(s), arg, alen) == 0)
            c.names[c.n++] = tui_step_name(s);
    list_matches(c.names, c.n, matches, msize);
    if (c.n == 0)
        return 0;
    size_t keep = common_prefix(c.names, c.n);
    if (keep >= alen)
        snprintf(line, linesize, "%s %.*s", a->name, (int)keep, c.names[0]);
    return c.n;
}
