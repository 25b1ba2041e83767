/* jobs_rows: the jobs list as compact rows (the Monitor's table), for lists of many
 * thousands of jobs.
 *
 * A row holds only what the table shows (and what opening or cancelling a
 * job needs): the ARN, name, status, device, instance, failure reason, the
 * created/started/ended times and whether it is a local job. Its strings
 * live in the set's own arena (appended in large chunks, freed together);
 * the few distinct values of status, device, instance and failure reason
 * are interned, so 10,000 rows cost about 1 KiB per row less than as JSON.
 *
 * byoc_job_known: a map ARN -> instance text ("ml.m5.large x2"), kept across
 * listings so a job is described (GetJob) once. */
#ifndef BYOC_BYOC_JOBS_ROWS_H
#define BYOC_BYOC_JOBS_ROWS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct byoc_job_row {
    const char *arn, *name, *status, *device, *instance, *failure;  /* never NULL */
    double created, started, ended;   /* epoch seconds; NAN when unknown */
    long pid;                         /* local RUNNING job: the byoc process running it */
    bool local;
} byoc_job_row;

typedef struct byoc_job_chunk byoc_job_chunk;

typedef struct byoc_job_strings {
    byoc_job_chunk *chunks;
    const char **interned;            /* open addressing, NULL = free slot */
    size_t interned_cap, interned_n;
} byoc_job_strings;

typedef struct byoc_job_rows {
    byoc_job_row *items;
    size_t n, cap;
    byoc_job_strings strings;
} byoc_job_rows;

void byoc_job_rows_init(byoc_job_rows *r);
void byoc_job_rows_clear(byoc_job_rows *r);
/* Append a copy of src (its strings copied into r; NULL strings become ""). */
byoc_job_row *byoc_job_rows_add(byoc_job_rows *r, const byoc_job_row *src);
/* Append copies of every row of src. */
void byoc_job_rows_append(byoc_job_rows *r, const byoc_job_rows *src);
/* Exchange the contents of a and b. */
void byoc_job_rows_swap(byoc_job_rows *a, byoc_job_rows *b);
/* Move every row of src to the end of dst (no copy when dst is empty); src ends empty. */
void byoc_job_rows_move(byoc_job_rows *dst, byoc_job_rows *src);

typedef struct byoc_job_known {
    const char **keys, **values;      /* open addressing on keys */
    size_t cap, n;
    byoc_job_strings strings;
} byoc_job_known;

void byoc_job_known_init(byoc_job_known *k);
void byoc_job_known_clear(byoc_job_known *k);
/* The instance known for arn, or NULL. */
const char *byoc_job_known_get(const byoc_job_known *k, const char *arn);
void byoc_job_known_put(byoc_job_known *k, const char *arn, const char *instance);

#endif
