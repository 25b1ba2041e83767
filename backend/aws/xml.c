#include "aws/xml.h"

#include <expat.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

typedef struct {
    XML_Parser parser;
    byoc_aws_xml *stack[BYOC_AWS_XML_MAX_DEPTH + 1]; /* stack[0] is the document */
    byoc_aws_xml *last[BYOC_AWS_XML_MAX_DEPTH + 1];  /* the last child of each open element */
    size_t text_cap[BYOC_AWS_XML_MAX_DEPTH + 1];
    int depth;
    int failed;
} builder;

static byoc_aws_xml *node_new(const char *name)
{
    byoc_aws_xml *n = byoc_xcalloc(1, sizeof *n);
    n->name = byoc_xstrdup(name);
    n->text = byoc_xstrdup("");
    return n;
}

static void stop(builder *b)
{
    b->failed = 1;
    XML_StopParser(b->parser, XML_FALSE);
}

static void on_start(void *ud, const XML_Char *name, const XML_Char **attrs)
{
    (void)attrs;
    builder *b = ud;
    if (b->depth >= BYOC_AWS_XML_MAX_DEPTH) {
        stop(b);
        return;
    }
    const char *colon = strrchr(name, ':');
    byoc_aws_xml *parent = b->stack[b->depth], *n = node_new(colon ? colon + 1 : name);
    n->at = parent->text_len;
    if (b->last[b->depth])
        b->last[b->depth]->next = n;
    else
        parent->children = n;
    b->last[b->depth] = n;
    b->depth++;
    b->stack[b->depth] = n;
    b->last[b->depth] = NULL;
    b->text_cap[b->depth] = 1;
}

static void on_end(void *ud, const XML_Char *name)
{
    (void)name;
    builder *b = ud;
    b->depth--;
}

static void on_text(void *ud, const XML_Char *s, int len)
{
    builder *b = ud;
    if (b->depth == 0 || len <= 0)
        return;
    byoc_aws_xml *n = b->stack[b->depth];
    size_t *cap = &b->text_cap[b->depth];
    if (n->text_len + (size_t)len + 1 > *cap) {
        while (n->text_len + (size_t)len + 1 > *cap)
            *cap *= 2;
        n->text = byoc_xrealloc(n->text, *cap);
    }
    memcpy(n->text + n->text_len, s, (size_t)len);
    n->text_len += (size_t)len;
    n->text[n->text_len] = '\0';
}

static void on_doctype(void *ud, const XML_Char *name, const XML_Char *sysid, const XML_Char *pubid,
                       int has_internal_subset)
{
    (void)name, (void)sysid, (void)pubid, (void)has_internal_subset;
    stop(ud);
}

byoc_aws_xml *byoc_aws_xml_parse(const char *body, size_t len)
{
    if (!body || !len || len > (size_t)INT_MAX)
        return NULL;
    builder *b = byoc_xcalloc(1, sizeof *b);
    b->parser = XML_ParserCreate(NULL);
    if (!b->parser) {
        free(b);
        return NULL;
    }
    byoc_aws_xml *doc = node_new("");
    b->stack[0] = doc;
    XML_SetUserData(b->parser, b);
    XML_SetElementHandler(b->parser, on_start, on_end);
    XML_SetCharacterDataHandler(b->parser, on_text);
    XML_SetStartDoctypeDeclHandler(b->parser, on_doctype);
    XML_SetParamEntityParsing(b->parser, XML_PARAM_ENTITY_PARSING_NEVER);
    int ok = XML_Parse(b->parser, body, (int)len, XML_TRUE) == XML_STATUS_OK && !b->failed && doc->children;
    XML_ParserFree(b->parser);
    free(b);
    if (!ok) {
        byoc_aws_xml_free(doc);
        return NULL;
    }
    return doc;
}

void byoc_aws_xml_free(byoc_aws_xml *n)
{
    while (n) { /* siblings iteratively; children recurse at most BYOC_AWS_XML_MAX_DEPTH deep */
        byoc_aws_xml *next = n->next;
        byoc_aws_xml_free(n->children);
        free(n->name);
        free(n->text);
        free(n);
        n = next;
    }
}

byoc_aws_xml *byoc_aws_xml_root(const byoc_aws_xml *doc) { return doc ? doc->children : NULL; }

byoc_aws_xml *byoc_aws_xml_child(const byoc_aws_xml *n, const char *name)
{
    for (byoc_aws_xml *c = n ? n->children : NULL; c; c = c->next)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

byoc_aws_xml *byoc_aws_xml_find(const byoc_aws_xml *n, const char *name)
{
    for (const byoc_aws_xml *c = n; c; c = c->next) {
        if (strcmp(c->name, name) == 0)
            return (byoc_aws_xml *)c;
        byoc_aws_xml *d = byoc_aws_xml_find(c->children, name);
        if (d)
            return d;
    }
    return NULL;
}

static void append_content(const byoc_aws_xml *n, byoc_buf *out)
{
    size_t pos = 0;
    for (const byoc_aws_xml *c = n->children; c; c = c->next) {
        byoc_buf_append(out, n->text + pos, c->at - pos);
        pos = c->at;
        append_content(c, out);
    }
    byoc_buf_append(out, n->text + pos, n->text_len - pos);
}

char *byoc_aws_xml_content(const byoc_aws_xml *n)
{
    byoc_buf out = BYOC_BUF_INIT;
    byoc_buf_puts(&out, "");
    if (n)
        append_content(n, &out);
    return byoc_buf_steal(&out);
}

char *byoc_aws_xml_text(const byoc_aws_xml *n, const char *path)
{
    const byoc_aws_xml *cur = n;
    char *copy = byoc_xstrdup(path);
    char *save = NULL;
    for (char *part = strtok_r(copy, "/", &save); part && cur; part = strtok_r(NULL, "/", &save))
        cur = byoc_aws_xml_child(cur, part);
    free(copy);
    return cur ? byoc_aws_xml_content(cur) : NULL;
}
