#include "byoc/baked_start.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "byoc/localjobs.h"
#include "byoc/project.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/utf8.h"

void byoc_baked_start_clear(byoc_baked_start *b)
{
    free(b->image);
    free(b->image_id);
    free(b->job_name);
    free(b->ran_at);
    memset(b, 0, sizeof *b);
}

/* A reference without a tag or digest means ":latest" to the engine. */
static char *with_tag(const char *ref)
{
    const char *last = strrchr(ref, '/');
    last = last ? last + 1 : ref;
    return strchr(last, ':') || strchr(last, '@') ? byoc_xstrdup(ref) : byoc_xasprintf("%s:latest", ref);
}

static bool same_image(const char *a, const char *b)
{
    char *x = with_tag(a), *y = with_tag(b);
    bool same = strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

static bool names_image(const byoc_project *p, const char *image)
{
    if (!image)
        return false;
    for (size_t i = 0; i < p->n_tags; i++)
        if (same_image(p->tags[i], image))
            return true;
    const char *job = byoc_project_job_string(p, "image_uri");
    const char *pushed = byoc_project_pushed_image(p);
    return (job && same_image(job, image)) || (pushed && same_image(pushed, image));
}

static bool under(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    return path && strncmp(path, dir, n) == 0 && (path[n] == '/' || (n && dir[n - 1] == '/'));
}

int byoc_baked_start_lookup(const char *project_dir, const char *jobs_file, byoc_baked_start *out)
{
    memset(out, 0, sizeof *out);
    byoc_local_jobs jobs = {0};
    byoc_err e;
    if (byoc_localjobs_load(jobs_file, &jobs, &e) != 0)
        return 0;
    byoc_project p;
    bool have_project = byoc_project_load(&p, project_dir, NULL, &e) == 0;
    char real[PATH_MAX];
    bool have_dir = realpath(project_dir, real) != NULL;
    int found = 0;
    for (size_t i = 0; i < jobs.n && !found; i++) { /* newest first */
        const byoc_local_job *j = &jobs.items[i];
        if (!j->has_first_output)
            continue;
        if ((have_project && names_image(&p, j->image)) || (have_dir && under(real, j->output_dir))) {
            out->image = byoc_xstrdup(j->image ? j->image : "");
            out->image_id = byoc_xstrdup_opt(j->image_id);
            out->job_name = byoc_xstrdup(j->name);
            out->ran_at = byoc_xstrdup(j->started ? j->started : j->created ? j->created : "");
            out->first_output_seconds = j->first_output_seconds;
            found = 1;
        }
    }
    if (have_project)
        byoc_project_clear(&p);
    byoc_local_jobs_clear(&jobs);
    return found;
}

json_t *byoc_baked_start_to_json(const byoc_baked_start *b)
{
    char *arn = byoc_local_job_arn(b->job_name ? b->job_name : "");
    json_t *o = json_pack("{s:s?, s:s?, s:s, s:s?, s:f}", "image", b->image, "image_id", b->image_id, "job_arn", arn,
                          "ran_at", b->ran_at, "first_output_seconds", b->first_output_seconds);
    free(arn);
    return o;
}

char *byoc_baked_start_text(const byoc_baked_start *b)
{
    if (!b)
        return byoc_xstrdup("a baked image: not timed yet; byoc run --local of the project's image times its "
                            "first line of output");
    char *text = byoc_xasprintf("a baked image (%s) printed its first line %.1f s after its container started "
                                "(local run %s, %s)",
                                b->image, b->first_output_seconds, b->job_name, b->ran_at);
    byoc_printable_inplace(text);
    return text;
}
