/* requirements: reads pip requirement lists (requirements.txt, and the
 * dependency arrays of pyproject.toml) well enough to answer the wizard:
 * how many packages, which are missing from the prebuilt image, which come
 * from private places (git+ssh, scp-style git URLs, a private index, URLs
 * with credentials), and which files they include (-r). */
#ifndef BYOC_BYOC_REQUIREMENTS_H
#define BYOC_BYOC_REQUIREMENTS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    BYOC_REQ_PACKAGE,  /* name[extras] specifier ; markers */
    BYOC_REQ_VCS,      /* git+..., hg+..., -e git+... */
    BYOC_REQ_URL,      /* https://.../pkg.whl, name @ https://... */
    BYOC_REQ_PATH,     /* ./local/pkg, file:..., -e . */
    BYOC_REQ_INCLUDE,  /* -r other.txt / --requirement */
    BYOC_REQ_INDEX,    /* -i / --index-url / --extra-index-url / --find-links */
    BYOC_REQ_OPTION,   /* any other option line (-c, --hash alone, --pre ...) */
} byoc_req_kind;

typedef struct byoc_requirement {
    byoc_req_kind kind;
    int line;            /* first physical line, 1-based */
    char *text;          /* the logical line, comment removed, continuations joined */
    char *name;          /* PEP 503-normalised project name, or NULL when unknown */
    char *url;           /* VCS/URL/index/include target, or NULL */
    bool private_source; /* needs credentials to fetch */
    const char *why_private; /* static text naming the reason, or NULL */
    bool has_credentials;    /* user:password@ in the URL: a secret in the file */
} byoc_requirement;

typedef struct byoc_requirements {
    byoc_requirement *items;
    size_t n;
} byoc_requirements;

/* Parse a requirements.txt text. Never fails: lines it cannot classify are
 * kept as BYOC_REQ_OPTION. */
void byoc_requirements_parse(const char *text, size_t len, byoc_requirements *out);

/* Parse one PEP 508 requirement string (a pyproject dependency) and append it. */
void byoc_requirements_add_pep508(byoc_requirements *r, const char *req, int line);

void byoc_requirements_clear(byoc_requirements *r);

/* Number of package-like entries (PACKAGE, VCS, URL, PATH). */
size_t byoc_requirements_count(const byoc_requirements *r);

/* PEP 503 normalisation: lower case, runs of -_. become one '-'. Caller frees. */
char *byoc_pypi_normalize(const char *name, size_t len);

/* Does this URL point at a source that needs credentials (ssh, scp-style git, credentials
 * in the URL)? *why gets a static reason. */
bool byoc_url_is_private(const char *url, const char **why);

#endif
