#include "manpage.h"

#include <stdbool.h>
#include <string.h>

#include "action.h"
#include "cli.h"
#include "cli_doc.h"

/* One roff text line: backslashes and dashes escaped, a leading '.' or '\''
 * kept from being read as a request, leading blanks dropped (they would break
 * the filled paragraph). */
static void text(FILE *out, const char *s, size_t n)
{
    while (n && *s == ' ')
        s++, n--;
    while (n && s[n - 1] == ' ')
        n--;
    if (n && (*s == '.' || *s == '\''))
        fputs("\\&", out);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            fputs("\\e", out);
        else if (s[i] == '-')
            fputs("\\-", out);
        else
            fputc(s[i], out);
    }
    fputc('\n', out);
}

static void line(FILE *out, const char *s) { text(out, s, strlen(s)); }

static void bold(FILE *out, const char *s)
{
    fputs("\\fB", out);
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\')
            fputs("\\e", out);
        else if (s[i] == '-')
            fputs("\\-", out);
        else
            fputc(s[i], out);
    }
    fputs("\\fR\n", out);
}

static size_t indent_of(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    return i;
}

/* A verb's help text, laid out for roff: a line indented 2-4 blanks with a gap
 * of two blanks after its first column ("  --tag REF     what it does") is a
 * tagged paragraph; a line indented deeper continues the one before; the rest
 * is prose. The words stay in the order of `byoc VERB --help`. */
static void help_text(FILE *out, const char *help)
{
    enum { PROSE, INDENTED, TAGGED } state = PROSE;
    for (const char *p = help; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        size_t ind = indent_of(p, n);
        const char *gap = NULL;
        if (ind >= 2 && ind <= 4) {
            for (size_t i = ind; i + 1 < n; i++)
                if (p[i] == ' ' && p[i + 1] == ' ') {
                    gap = p + i;
                    break;
                }
        }
        if (gap) {
            fputs(".TP\n", out);
            char tag[256];
            size_t tn = (size_t)(gap - (p + ind));
            if (tn >= sizeof tag)
                tn = sizeof tag - 1;
            memcpy(tag, p + ind, tn);
            tag[tn] = '\0';
            bold(out, tag);
            text(out, gap, n - (size_t)(gap - p));
            state = TAGGED;
        } else if (ind >= 5 && state == TAGGED) {
            text(out, p, n);
        } else {
            int now = ind >= 2 ? INDENTED : PROSE;
            if ((int)state != now)
                fputs(".PP\n", out);
            state = now;
            text(out, p, n);
        }
        p = nl ? nl + 1 : p + n;
    }
}

static void items(FILE *out, const byoc_doc_item *it)
{
    for (; it->name; it++) {
        fputs(".TP\n", out);
        bold(out, it->name);
        line(out, it->text);
    }
}

static void keys(FILE *out)
{
    size_t n;
    const tui_action *t = tui_actions(&n);
    for (int ctx = 0; ctx < TUI_CTX_COUNT; ctx++) {
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            if ((int)t[i].ctx != ctx)
                continue;
            if (!any)
                fprintf(out, ".SS \"%s\"\n", tui_ctx_title((tui_ctx)ctx));
            any = true;
            char k[96], head[192];
            tui_action_keys_text(&t[i], k, sizeof k);
            snprintf(head, sizeof head, "%s    :%s%s%s", k, t[i].name, t[i].arg ? " " : "", t[i].arg ? t[i].arg : "");
            fputs(".TP\n", out);
            bold(out, head);
            line(out, t[i].help);
        }
    }
}

void byoc_manpage_write(FILE *out)
{
    fprintf(out, ".\\\" byoc(1), written by `byoc __man` from the verb and action tables; do not edit.\n");
    fprintf(out, ".TH BYOC 1 \"\" \"byoc %s\" \"User Commands\"\n.nh\n.ad l\n", BYOC_VERSION);
    fputs(".SH NAME\nbyoc \\- ", out);
    line(out, byoc_doc_tagline);
    fputs(".SH SYNOPSIS\n.B byoc\n", out);
    line(out, byoc_doc_usage);
    fputs(".br\n.B byoc\n.SH DESCRIPTION\n", out);
    line(out, "byoc takes a quantum program from a project directory to an Amazon Braket Hybrid Job that "
              "runs in your own container. Without a verb, on a terminal, it opens the TUI.");
    fputs(".PP\nThe flow:\n", out);
    line(out, byoc_doc_flow);
    fputs(".SH OPTIONS\nThe global flags may come before or after the verb.\n", out);
    items(out, byoc_doc_flags);
    fputs(".SH COMMANDS\n", out);
    for (const byoc_verb *v = byoc_verbs; v->name; v++) {
        fprintf(out, ".SS %s\n", v->name);
        fputs("\\fBbyoc\\fR [global flags] ", out);
        bold(out, v->name);
        if (*v->args)
            line(out, v->args);
        fputs(".PP\n", out);
        line(out, v->summary);
        fputs(".PP\n", out);
        help_text(out, v->help);
    }
    fputs(".SH KEYS\nIn the TUI every action has keys and a command: press the keys, or type : and the command.\n"
          "The keys of the focused part come first; ? shows them.\n", out);
    keys(out);
    fputs(".SH ENVIRONMENT\n", out);
    items(out, byoc_doc_env);
    fputs(".SH FILES\n", out);
    items(out, byoc_doc_files);
    fputs(".SH EXIT STATUS\n", out);
    items(out, byoc_doc_exit);
    fputs(".SH SEE ALSO\n.BR docker (1),\n.BR aws (1)\n", out);
}
