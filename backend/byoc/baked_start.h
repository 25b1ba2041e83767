/* baked_start: the other side of the start-up comparison (measure.h): how
 * soon a job in an image that has its software baked in prints its first
 * line, from a local run (localrun.h) of the project's image.
 *
 * The figure is the one byoc run --local records in the local job record
 * (localjobs.h first_output_seconds: from the container's start to its first
 * line of output). The project's run is the newest one with output whose
 * image is one the project names (byoc.json "tags", job.image_uri,
 * pushed.image_uri) or whose output went under the project directory. */
#ifndef BYOC_BYOC_BAKED_START_H
#define BYOC_BYOC_BAKED_START_H

#include <jansson.h>

typedef struct byoc_baked_start {
    char *image;                  /* as the run named it */
    char *image_id;               /* may be NULL */
    char *job_name;               /* the local job (local:job/<name>) */
    char *ran_at;                 /* when its container started (ISO 8601 UTC) */
    double first_output_seconds;
} byoc_baked_start;

void byoc_baked_start_clear(byoc_baked_start *b);

/* The project's newest timed local run in the record at jobs_file (NULL: the
 * default record). 1 found, 0 none (or no readable record). */
int byoc_baked_start_lookup(const char *project_dir, const char *jobs_file, byoc_baked_start *out);

/* {"image", "image_id", "job_arn", "ran_at", "first_output_seconds"}. Caller decrefs. */
json_t *byoc_baked_start_to_json(const byoc_baked_start *b);

/* One sentence for people ("a baked image (IMAGE) printed its first line 1.2 s
 * after its container started (local run NAME, TIME)"), through the printable
 * pass; b NULL: what to do to get the figure. malloc'd. */
char *byoc_baked_start_text(const byoc_baked_start *b);

#endif
