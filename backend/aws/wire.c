/* Reading and writing the AWS wire formats: XML replies (libxml2, no network,
 * no entity expansion), form bodies and ISO 8601 times (request.h). */
#include "aws/request.h"

#include <ctype.h>
#include <libxml/parser.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;
static void xml_init(void) { xmlInitParser(); }

xmlDoc *byoc_aws_xml_parse(const char *body, size_t len)
{
    if (!body || !len || len > (size_t)0x7fffffff)
        return NULL;
    pthread_once(&xml_once, xml_init);
    return xmlReadMemory(body, (int)len, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

xmlNode *byoc_aws_xml_child(const xmlNode *n, const char *name)
{
    if (!n)
        return NULL;
    for (xmlNode *c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
            return c;
    return NULL;
}

char *byoc_aws_xml_text(const xmlNode *n, const char *path)
{
    const xmlNode *cur = n;
    char *copy = byoc_xstrdup(path);
    char *save = NULL;
    for (char *part = strtok_r(copy, "/", &save); part && cur; part = strtok_r(NULL, "/", &save))
        cur = byoc_aws_xml_child(cur, part);
    free(copy);
    if (!cur)
        return NULL;
    xmlChar *t = xmlNodeGetContent(cur);
    char *out = byoc_xstrdup(t ? (const char *)t : "");
    xmlFree(t);
    return out;
}

xmlNode *byoc_aws_xml_find(xmlNode *n, const char *name)
{
    for (xmlNode *c = n; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (strcmp((const char *)c->name, name) == 0)
            return c;
        xmlNode *d = byoc_aws_xml_find(c->children, name);
        if (d)
            return d;
    }
    return NULL;
}

void byoc_aws_form_add(byoc_buf *b, const char *key, const char *value)
{
    if (b->len)
        byoc_buf_putc(b, '&');
    byoc_sigv4_encode(b, key, strlen(key), false);
    byoc_buf_putc(b, '=');
    byoc_sigv4_encode(b, value, strlen(value), false);
}

int byoc_aws_parse_time(const char *s, time_t *out)
{
    struct tm tm = {0};
    int n = 0;
    if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                     &tm.tm_min, &tm.tm_sec, &n) != 6)
        return -1;
    const char *p = s + n;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            ;
    long offset = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int hh, mm, k = 0;
        if (sscanf(p + 1, "%2d:%2d%n", &hh, &mm, &k) != 2 || k != 5)
            return -1;
        offset = (hh * 3600L + mm * 60L) * (*p == '+' ? 1 : -1);
        p += 6;
    }
    if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
        tm.tm_min > 59 || tm.tm_sec > 60)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    *out = timegm(&tm) - offset;
    return 0;
}

