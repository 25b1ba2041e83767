/* monitor_rows: the Monitor's jobs as compact rows, for tables of many
 * thousands of jobs.
 *
 * A row holds only what the table shows (and what opening or cancelling a
 * job needs): the ARN, name, status, device, instance, failure reason, the
 * created/started/ended times and whether it is a local job. Its strings
 * live in the set's own arena (appended in large chunks, freed together);
 * the few distinct values of status, device, instance and failure reason
 * are interned, so 10,000 rows cost about 1 KiB per row less than as JSON.
 *
 * tui_mon_known: a map ARN -> instance text ("ml.m5.large x2"), kept across
 * listings so a job is described (GetJob) once. */
#ifndef BYOC_TUI_MONITOR_ROWS_H
#define BYOC_TUI_MONITOR_ROWS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct tui_mon_row {
    const char *arn, *name, *status, *device, *instance, *failure;  /* never NULL */
    double created, started, ended;   /* epoch seconds; NAN when unknown */
    long pid;                         /* local RUNNING job: the byoc process running it */
    bool local;
} tui_mon_row;

typedef struct tui_mon_chunk tui_mon_chunk;

typedef struct tui_mon_strings {
    tui_mon_chunk *chunks;
    const char **interned;            /* open addressing, NULL = free slot */
    size_t interned_cap, interned_n;
} tui_mon_strings;

typedef struct tui_mon_rows {
    tui_mon_row *items;
    size_t n, cap;
    tui_mon_strings strings;
} tui_mon_rows;

void tui_mon_rows_init(tui_mon_rows *r);
void tui_mon_rows_free(tui_mon_rows *r);
/* Append a copy of src (its strings copied into r; NULL strings become ""). */
tui_mon_row *tui_mon_rows_add(tui_mon_rows *r, const tui_mon_row *src);
/* Append copies of every row of src. */
void tui_mon_rows_append(tui_mon_rows *r, const tui_mon_rows *src);
/* Exchange the contents of a and b. */
void tui_mon_rows_swap(tui_mon_rows *a, tui_mon_rows *b);
/* Move every row of src to the end of dst (no copy when dst is empty); src ends empty. */
void tui_mon_rows_move(tui_mon_rows *dst, tui_mon_rows *src);

typedef struct tui_mon_known {
    const char **keys, **values;      /* open addressing on keys */
    size_t cap, n;
    tui_mon_strings strings;
} tui_mon_known;

void tui_mon_known_init(tui_mon_known *k);
void tui_mon_known_free(tui_mon_known *k);
/* The instance known for arn, or NULL. */
const char *tui_mon_known_get(const tui_mon_known *k, const char *arn);
void tui_mon_known_put(tui_mon_known *k, const char *arn, const char *instance);

/* What the empty table says: "No jobs yet: Run creates one" only when there
 * are none; when the status filter hides them all, that and how to undo it. */
void tui_mon_empty_text(size_t total, const char *filter, char *buf, size_t size);

#endif
