#include "byoc/requirements.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

char *byoc_pypi_normalize(const char *name, size_t len)
{
    byoc_buf b = BYOC_BUF_INIT;
    bool sep = false;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (c == '-' || c == '_' || c == '.') {
            sep = true;
            continue;
        }
        if (sep && b.len)
            byoc_buf_putc(&b, '-');
        sep = false;
        byoc_buf_putc(&b, (char)tolower((unsigned char)c));
    }
    return byoc_buf_steal(&b);
}

static bool starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* user[:password]@ between "://" and the host. */
static bool url_has_credentials(const char *url)
{
    const char *p = strstr(url, "://");
    if (!p)
        return false;
    p += 3;
    const char *at = strchr(p, '@'), *slash = strchr(p, '/');
    if (!at || (slash && slash < at))
        return false;
    const char *colon = memchr(p, ':', (size_t)(at - p));
    return colon != NULL; /* "git@" alone is a user name, not a credential */
}

bool byoc_url_is_private(const char *url, const char **why)
{
    const char *u = url;
    if (starts_with(u, "-e "))
        u += 3;
    while (*u == ' ')
        u++;
    if (starts_with(u, "git+ssh://") || starts_with(u, "ssh://") || starts_with(u, "hg+ssh://") ||
        starts_with(u, "svn+ssh://") || starts_with(u, "bzr+ssh://")) {
        *why = "fetched over SSH";
        return true;
    }
    const char *at = strchr(u, '@'), *colon = strchr(u, ':');
    if (at && colon && at < colon && !strstr(u, "://") && !strchr(u, ' ')) {
        *why = "scp-style git URL (SSH)";
        return true;
    }
    if (starts_with(u, "git+git@")) {
        *why = "scp-style git URL (SSH)";
        return true;
    }
    if (url_has_credentials(u)) {
        *why = "credentials in the URL";
        return true;
    }
    return false;
}

static bool is_public_index(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    return starts_with(p, "pypi.org") || starts_with(p, "pypi.python.org") ||
           starts_with(p, "files.pythonhosted.org") || starts_with(p, "test.pypi.org");
}

static char *first_word(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '=')
        s++;
    size_t n = strcspn(s, " \t");
    return byoc_xstrndup(s, n);
}

/* The project name at the start of a PEP 508 string, or NULL. */
static char *pep508_name(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '-' || s[n] == '_' || s[n] == '.')
        n++;
    if (n == 0 || !isalnum((unsigned char)s[0]))
        return NULL;
    return byoc_pypi_normalize(s, n);
}

/* "#egg=name" in a VCS URL. */
static char *egg_name(const char *url)
{
    const char *e = strstr(url, "#egg=");
    if (!e)
        e = strstr(url, "&egg=");
    if (!e)
        return NULL;
    e += 5;
    size_t n = strcspn(e, "&[ \t");
    return n ? byoc_pypi_normalize(e, n) : NULL;
}

static byoc_requirement *push(byoc_requirements *r)
{
    r->items = byoc_xrealloc(r->items, (r->n + 1) * sizeof *r->items);
    byoc_requirement *it = &r->items[r->n++];
    memset(it, 0, sizeof *it);
    return it;
}

static void classify(byoc_requirements *r, const char *text, int line)
{
    byoc_requirement *it = push(r);
    it->line = line;
    it->text = byoc_xstrdup(text);
    const char *why = NULL;
    if (starts_with(text, "-r") || starts_with(text, "--requirement")) {
        it->kind = BYOC_REQ_INCLUDE;
        it->url = first_word(text + (text[1] == 'r' ? 2 : 13));
        return;
    }
    if (starts_with(text, "-i") || starts_with(text, "--index-url") ||
        starts_with(text, "--extra-index-url") || starts_with(text, "-f") ||
        starts_with(text, "--find-links")) {
        it->kind = BYOC_REQ_INDEX;
        const char *p = text + strcspn(text, " =\t");
        it->url = first_word(p);
        if (byoc_url_is_private(it->url, &why)) {
            it->private_source = true;
            it->why_private = why;
        } else if (strstr(it->url, "://") && !is_public_index(it->url)) {
            it->private_source = true;
            it->why_private = "a package index other than PyPI";
        }
        it->has_credentials = url_has_credentials(it->url);
        return;
    }
    const char *t = text;
    bool editable = false;
    if (starts_with(t, "-e ") || starts_with(t, "--editable ")) {
        editable = true;
        t += t[1] == 'e' ? 3 : 11;
        while (*t == ' ' || *t == '=')
            t++;
    }
    if (t[0] == '-') {
        it->kind = BYOC_REQ_OPTION;
        return;
    }
    if (strstr(t, "+ssh://") || strstr(t, "+https://") || strstr(t, "+http://") ||
        strstr(t, "+git://") || strstr(t, "+file://") || starts_with(t, "git+") ||
        starts_with(t, "git@")) {
        it->kind = BYOC_REQ_VCS;
        const char *at = strstr(t, " @ ");
        const char *u = at ? at + 3 : t;
        while (*u == ' ')
            u++;
        it->url = first_word(u);
        it->name = at ? pep508_name(t) : egg_name(it->url);
    } else if (strstr(t, "://")) {
        it->kind = BYOC_REQ_URL;
        const char *at = strstr(t, " @ ");
        const char *u = at ? at + 3 : t;
        it->url = first_word(u);
        it->name = at ? pep508_name(t) : egg_name(it->url);
        if (starts_with(it->url, "file:"))
            it->kind = BYOC_REQ_PATH;
    } else if (t[0] == '.' || t[0] == '/' || editable || starts_with(t, "file:")) {
        it->kind = BYOC_REQ_PATH;
        it->url = first_word(t);
    } else {
        it->kind = BYOC_REQ_PACKAGE;
        it->name = pep508_name(t);
        if (!it->name)
            it->kind = BYOC_REQ_OPTION;
    }
    if (it->url && byoc_url_is_private(it->url, &why)) {
        it->private_source = true;
        it->why_private = why;
    }
    if (it->url)
        it->has_credentials = url_has_credentials(it->url);
}

void byoc_requirements_add_pep508(byoc_requirements *r, const char *req, int line)
{
    while (isspace((unsigned char)*req))
        req++;
    if (*req)
        classify(r, req, line);
}

/* Strip a comment: '#' at the start or after whitespace (a '#' inside a URL
 * fragment such as "#egg=" follows a non-space and stays). */
static void strip_comment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
            *p = '\0';
            break;
        }
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

void byoc_requirements_parse(const char *text, size_t len, byoc_requirements *out)
{
    memset(out, 0, sizeof *out);
    byoc_buf logical = BYOC_BUF_INIT;
    int line = 0, first_line = 0;
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        line++;
        size_t n = j - i;
        if (n && text[i + n - 1] == '\r')
            n--;
        if (!logical.len)
            first_line = line;
        bool cont = n && text[i + n - 1] == '\\';
        byoc_buf_append(&logical, text + i, cont ? n - 1 : n);
        i = j < len ? j + 1 : j;
        if (cont && i < len)
            continue;
        char *s = byoc_buf_steal(&logical);
        strip_comment(s);
        char *p = s;
        while (isspace((unsigned char)*p))
            p++;
        if (*p)
            classify(out, p, first_line);
        free(s);
    }
    byoc_buf_clear(&logical);
}

void byoc_requirements_clear(byoc_requirements *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->items[i].text);
        free(r->items[i].name);
        free(r->items[i].url);
    }
    free(r->items);
    memset(r, 0, sizeof *r);
}

size_t byoc_requirements_count(const byoc_requirements *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].kind <= BYOC_REQ_PATH)
            n++;
    return n;
}
