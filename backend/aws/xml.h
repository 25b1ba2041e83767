/* xml: AWS XML replies (query and rest-xml protocols, error bodies) read into a small tree of
 * elements, parsed with expat. No network, no DTD (a document with a DOCTYPE is refused, so no
 * entity is ever expanded), at most BYOC_AWS_XML_MAX_DEPTH levels. Namespaces are ignored: an
 * element's name is its local name. */
#ifndef BYOC_AWS_XML_H
#define BYOC_AWS_XML_H

#include <stddef.h>

#define BYOC_AWS_XML_MAX_DEPTH 256

typedef struct byoc_aws_xml byoc_aws_xml;
struct byoc_aws_xml {
    char *name;            /* local name; "" for the document itself */
    byoc_aws_xml *children; /* child elements only, in document order */
    byoc_aws_xml *next;    /* next sibling element */
    char *text;            /* the character data directly inside, NUL-terminated (never NULL) */
    size_t text_len;
    size_t at;             /* where this element sits in its parent's text */
};

/* Parse a reply. The document node (name ""), whose only child is the root element, or NULL if
 * the body is empty or not well-formed. Free with byoc_aws_xml_free. */
byoc_aws_xml *byoc_aws_xml_parse(const char *body, size_t len);
void byoc_aws_xml_free(byoc_aws_xml *doc);
/* The root element of a parsed document (NULL if doc is NULL). */
byoc_aws_xml *byoc_aws_xml_root(const byoc_aws_xml *doc);
/* The first element named name at or below n and its siblings, depth first, or NULL. */
byoc_aws_xml *byoc_aws_xml_find(const byoc_aws_xml *n, const char *name);
/* The first child element of n named name, or NULL. */
byoc_aws_xml *byoc_aws_xml_child(const byoc_aws_xml *n, const char *name);
/* All the text inside n, its descendants' included, in document order; malloc'd. */
char *byoc_aws_xml_content(const byoc_aws_xml *n);
/* Text of the element at a '/'-separated path below n ("GetCallerIdentityResult/Account");
 * malloc'd, or NULL when absent. */
char *byoc_aws_xml_text(const byoc_aws_xml *n, const char *path);

#endif
