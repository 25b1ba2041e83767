/* cli_json: a --json document {"<key>": [item, ...]} written as its items
 * arrive, so a listing of any length is never held whole. The bytes are the
 * ones byoc_cli_print_json prints for the same document held whole (2-space
 * indent, keys in insertion order).
 *
 * Nothing is written before the first item or the end: a listing that fails
 * before it begins leaves stdout to the CLI's error document {"error": {...}},
 * as a held document would. One that fails after items went out is still
 * closed as one valid document, with the same error object added:
 * {"<key>": [the items so far], "error": {"what", "why", "exit_code", ...}};
 * the exit code says the failure too. */
#ifndef BYOC_TUI_CLI_JSON_H
#define BYOC_TUI_CLI_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/buf.h"

typedef struct byoc_json_list {
    FILE *out;
    const char *key;
    size_t n;          /* items written */
    byoc_buf buf;      /* the page being written: one write per page */
} byoc_json_list;

void byoc_json_list_begin(byoc_json_list *l, FILE *out, const char *key);
/* Each item of the array items, then a flush: one call per page. */
void byoc_json_list_add_all(byoc_json_list *l, const json_t *items);
/* Close the document. error NULL: complete; else the failure's object
 * (byoc_cli_error_json), added only when items were written. Returns whether
 * a document was written. */
bool byoc_json_list_end(byoc_json_list *l, const json_t *error);

#endif
