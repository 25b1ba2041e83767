/* The baked side of the start-up comparison (byoc/baked_start.h): the
 * project's newest local run with output, matched by an image byoc.json
 * names ("name" is "name:latest") or by output under the project directory
 * (not a sibling whose name starts the same); a record's figure that is not
 * a sane number is no figure; the text passes the printable pass. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/baked_start.h"
#include "core/buf.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
}

/* One record entry; first is the JSON text of first_output_seconds. */
static char *job(const char *name, const char *image, const char *out_dir, const char *first)
{
    return byoc_xasprintf("{\"job_name\": \"%s\", \"status\": \"COMPLETED\", \"image\": \"%s\", "
                          "\"image_id\": \"sha256:%s\", \"started\": \"2026-12-05T08:00:00.000Z\", "
                          "\"output_dir\": \"%s\", \"first_output_seconds\": %s}",
                          name, image, name, out_dir, first);
}

static void write_record(const char *path, char **jobs, size_t n)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_puts(&b, "{\"version\": 1, \"jobs\": [");
    for (size_t i = 0; i < n; i++) {
        byoc_buf_puts(&b, i ? ", " : "");
        byoc_buf_puts(&b, jobs[i]);
        free(jobs[i]);
    }
    byoc_buf_puts(&b, "]}");
    write_file(path, b.data);
    byoc_buf_clear(&b);
}

int main(void)
{
    char *dir = check_tmpdir();
    char *proj = byoc_xasprintf("%s/proj", dir);
    char *sibling = byoc_xasprintf("%s/proj-other/run", dir);
    char *inside = byoc_xasprintf("%s/proj/job-1", dir);
    char *record = byoc_xasprintf("%s/local-jobs.json", dir);
    char *project_file = byoc_xasprintf("%s/byoc.json", proj);
    CHECK(mkdir(proj, 0700) == 0);
    byoc_baked_start b;

    /* no record at all: nothing, no error */
    CHECK_INT(byoc_baked_start_lookup(proj, record, &b), 0);

    /* newest first: a run without output and a sibling directory's run are passed over */
    char *jobs[] = {job("no-output", "app:1", inside, "null"), job("sibling", "app:1", sibling, "0.5"),
                    job("hostile", "app:1", inside, "-3"), job("huge", "app:1", inside, "1e300"),
                    job("wrong-type", "app:1", inside, "\"fast\""), job("inside", "app:1", inside, "2.25")};
    write_record(record, jobs, 6);
    CHECK_INT(byoc_baked_start_lookup(proj, record, &b), 1);
    CHECK_STR(b.job_name, "inside");
    CHECK(b.first_output_seconds == 2.25);
    CHECK_STR(b.image_id, "sha256:inside");
    CHECK_STR(b.ran_at, "2026-12-05T08:00:00.000Z");
    json_t *j = byoc_baked_start_to_json(&b);
    CHECK_STR(json_string_value(json_object_get(j, "job_arn")), "local:job/inside");
    CHECK(json_real_value(json_object_get(j, "first_output_seconds")) == 2.25);
    json_decref(j);
    char *text = byoc_baked_start_text(&b);
    CHECK_STR(text, "a baked image (app:1) printed its first line 2.2 s after its container started "
                    "(local run inside, 2026-12-05T08:00:00.000Z)");
    free(text);
    byoc_baked_start_clear(&b);

    /* an image byoc.json names matches wherever the run wrote; "name" means "name:latest" */
    char *elsewhere[] = {job("other-image", "other:1", "/elsewhere/a", "0.1"),
                         job("by-tag", "registry.example/app", "/elsewhere/b", "4")};
    write_record(record, elsewhere, 2);
    CHECK_INT(byoc_baked_start_lookup(proj, record, &b), 0);
    write_file(project_file, "{\"tags\": [\"registry.example/app:latest\"]}");
    CHECK_INT(byoc_baked_start_lookup(proj, record, &b), 1);
    CHECK_STR(b.job_name, "by-tag");
    byoc_baked_start_clear(&b);
    write_file(project_file, "{\"job\": {\"image_uri\": \"other:1\"}}");
    CHECK_INT(byoc_baked_start_lookup(proj, record, &b), 1);
    CHECK_STR(b.job_name, "other-image");
    byoc_baked_start_clear(&b);
    write_file(project_file, "{\"pushed\": {\"image_uri\": \"registry.example/app:latest\"}}");
    CHECK_INT(byoc_baked_start_lookup(proj, record, &b), 1);
    CHECK_STR(b.job_name, "by-tag");
    byoc_baked_start_clear(&b);

    /* outside text reaches people without control characters */
    char *escape[] = {job("esc", "app\\u001b[2J:1", "/elsewhere/c", "1")};
    write_record(record, escape, 1);
    write_file(project_file, "{\"tags\": [\"app\\u001b[2J:1\"]}");
    CHECK_INT(byoc_baked_start_lookup(proj, record, &b), 1);
    text = byoc_baked_start_text(&b);
    CHECK(strchr(text, 0x1b) == NULL);
    free(text);
    byoc_baked_start_clear(&b);
    text = byoc_baked_start_text(NULL);
    CHECK(strstr(text, "byoc run --local") != NULL);
    free(text);

    unlink(project_file);
    unlink(record);
    rmdir(proj);
    rmdir(dir);
    free(dir);
    free(proj);
    free(sibling);
    free(inside);
    free(record);
    free(project_file);
    return check_done();
}
