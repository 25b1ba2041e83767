/* ini: the INI dialect of the AWS config and credentials files, read the way
 * the AWS CLI (botocore, Python's RawConfigParser) reads it.
 *
 * - `[name]` opens a section; the name is everything between '[' and the
 *   last ']' on the line, kept as written.
 * - `key = value` or `key: value`; keys are lower-cased, values trimmed.
 * - Full-line comments start with '#' or ';' (after optional whitespace);
 *   there are no inline comments ("a # b" is the value).
 * - A line indented deeper than its key line continues the value; a value
 *   whose first line is empty holds sub-keys (`s3 =\n  max_attempts = 3`),
 *   read with byoc_ini_get_sub().
 * - A repeated section or key in one file, a key outside any section or a
 *   line that is neither is a parse error, as in the CLI.
 * Values may be secrets: everything is wiped on free. */
#ifndef BYOC_AWS_INI_H
#define BYOC_AWS_INI_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"

typedef struct byoc_ini_kv {
    char *key;
    char *value; /* continuation lines joined with '\n' */
} byoc_ini_kv;

typedef struct byoc_ini_section {
    char *name;
    byoc_ini_kv *kv;
    size_t len, cap;
} byoc_ini_section;

typedef struct byoc_ini {
    byoc_ini_section *sections;
    size_t len, cap;
} byoc_ini;

/* Parse text; `origin` names it in errors (a path). On error *out is empty. */
int byoc_ini_parse(const char *text, const char *origin, byoc_ini *out, byoc_err *err);
/* Read and parse a file. A missing file is not an error: *found=false, empty ini. */
int byoc_ini_load(const char *path, byoc_ini *out, bool *found, byoc_err *err);
void byoc_ini_clear(byoc_ini *ini);

const byoc_ini_section *byoc_ini_section_get(const byoc_ini *ini, const char *name);
/* Value of key (keys are lower-case) or NULL. */
const char *byoc_ini_get(const byoc_ini_section *s, const char *key);
/* Sub-key of a nested value, e.g. ("s3", "max_attempts"); malloc'd copy or NULL. */
char *byoc_ini_get_sub(const byoc_ini_section *s, const char *key, const char *sub);

#endif
