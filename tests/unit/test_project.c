/* byoc.json (byoc/project.h): read, write atomically with mode 0600, keep unknown keys. */
#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/project.h"
#include "core/str.h"
#include "check.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void write_text(const char *dir, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/byoc.json", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_defaults_and_missing(const char *dir)
{
    byoc_project p;
    bool found = true;
    byoc_err err;
    CHECK_INT(byoc_project_load(&p, dir, &found, &err), 0);
    CHECK(!found);
    CHECK_STR(p.dockerfile, "Dockerfile");
    CHECK_STR(p.context, ".");
    CHECK(p.recipe == NULL && !p.gpu && p.n_tags == 0);
    CHECK(json_is_object(p.job));
    byoc_project_clear(&p);
}

static void test_round_trip(const char *dir)
{
    write_text(dir, "{\n"
                    "  \"name\": \"amazon-braket-x\",\n"
                    "  \"recipe\": \"custom-base\",\n"
                    "  \"language\": \"rust\",\n"
                    "  \"arch\": \"arm64\",\n"
                    "  \"gpu\": true,\n"
                    "  \"base_image\": \"rust:1.79\",\n"
                    "  \"dockerfile\": \"docker/Dockerfile\",\n"
                    "  \"context\": \"src\",\n"
                    "  \"tags\": [\"a:1\", \"b:2\"],\n"
                    "  \"build_args\": {\"K\": \"V\"},\n"
                    "  \"job\": {\"instance_type\": \"ml.g4dn.xlarge\", \"future_field\": [1, 2]},\n"
                    "  \"unknown_top\": {\"nested\": true}\n"
                    "}\n");
    byoc_project p;
    bool found = false;
    byoc_err err;
    CHECK_INT(byoc_project_load(&p, dir, &found, &err), 0);
    CHECK(found);
    CHECK_STR(p.name, "amazon-braket-x");
    CHECK_STR(p.recipe, "custom-base");
    CHECK_STR(p.language, "rust");
    CHECK_STR(p.arch, "arm64");
    CHECK(p.gpu);
    CHECK_STR(p.dockerfile, "docker/Dockerfile");
    CHECK_STR(p.context, "src");
    CHECK_INT(p.n_tags, 2);
    CHECK_STR(p.tags[1], "b:2");
    CHECK_STR(byoc_project_build_arg(&p, "K"), "V");
    CHECK_STR(byoc_project_job_string(&p, "instance_type"), "ml.g4dn.xlarge");
    CHECK(byoc_project_job_string(&p, "future_field") == NULL);

    /* change some, save, read again: unknown keys survive */
    byoc_str_set(&p.arch, "amd64");
    p.gpu = false;
    byoc_project_set_build_arg(&p, "K", "W");
    byoc_project_set_build_arg(&p, "NEW", "1");
    CHECK_INT(byoc_project_save(&p, dir, &err), 0);
    byoc_project_clear(&p);

    char path[4096];
    snprintf(path, sizeof path, "%s/byoc.json", dir);
    struct stat st;
    CHECK_INT(stat(path, &st), 0);
    CHECK_INT(st.st_mode & 0777, 0600);
    CHECK_INT(byoc_project_load(&p, dir, &found, &err), 0);
    CHECK_STR(p.arch, "amd64");
    CHECK(!p.gpu);
    CHECK_STR(byoc_project_build_arg(&p, "K"), "W");
    CHECK_STR(byoc_project_build_arg(&p, "NEW"), "1");
    json_t *doc = byoc_project_to_json(&p);
    CHECK(json_is_true(json_object_get(json_object_get(doc, "unknown_top"), "nested")));
    CHECK_INT(json_array_size(json_object_get(json_object_get(doc, "job"), "future_field")), 2);
    json_decref(doc);
    byoc_project_clear(&p);

    /* no temporary files are left behind */
    int leftovers = 0;
    char cmd_path[4096];
    snprintf(cmd_path, sizeof cmd_path, "%s", dir);
    DIR *d = opendir(cmd_path);
    struct dirent *e;
    while ((e = readdir(d)))
        leftovers += strstr(e->d_name, ".byoc.json.") != NULL;
    closedir(d);
    CHECK_INT(leftovers, 0);
}

static void expect_bad(const char *dir, const char *text, const char *what)
{
    write_text(dir, text);
    byoc_project p;
    byoc_err err;
    CHECK_INT(byoc_project_load(&p, dir, NULL, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    if (!strstr(err.what, what) && !strstr(err.message, what))
        check_fail(__FILE__, __LINE__, "'%s': error names '%s: %s', want %s", text, err.what, err.message, what);
    byoc_project_clear(&p);
}

static void test_invalid(const char *dir)
{
    expect_bad(dir, "{\"arch\": \"sparc\"}", "arch");
    expect_bad(dir, "{\"gpu\": \"yes\"}", "gpu");
    expect_bad(dir, "{\"recipe\": 3}", "recipe");
    expect_bad(dir, "{\"tags\": \"x\"}", "tags");
    expect_bad(dir, "{\"tags\": [\"\"]}", "tags");
    expect_bad(dir, "{\"build_args\": {\"A\": 1}}", "build_args");
    expect_bad(dir, "{\"job\": []}", "job");
    expect_bad(dir, "[1, 2]", "object");
    expect_bad(dir, "{\"a\": 1, \"a\": 2}", "line");
    expect_bad(dir, "{not json", "line");
    expect_bad(dir, "\x01\x02\xff binary", "line");
}

/* A push is recorded in byoc.json as "pushed" (`byoc push` and the TUI's Push both call this):
 * only where byoc.json exists, keeping the rest of the file, mode 0600. */
static void test_record_push(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/byoc.json", dir);
    unlink(path);
    byoc_err err;
    CHECK_INT(byoc_project_record_push(dir, "1.dkr.ecr.r.amazonaws.com/a:1", "sha256:ab", &err), 0);
    CHECK(access(path, F_OK) != 0);            /* no byoc.json: none is made */

    write_text(dir, "{\"name\": \"x\", \"job\": {\"device\": \"local:braket/sim\"}, \"mine\": 1}\n");
    CHECK_INT(byoc_project_record_push(dir, "1.dkr.ecr.r.amazonaws.com/a:1", "sha256:ab", &err), 0);
    byoc_project p;
    bool found = false;
    CHECK_INT(byoc_project_load(&p, dir, &found, &err), 0);
    CHECK_STR(byoc_project_pushed_image(&p), "1.dkr.ecr.r.amazonaws.com/a:1");
    CHECK_STR(json_string_value(json_object_get(json_object_get(p.doc, "pushed"), "digest")), "sha256:ab");
    CHECK_STR(byoc_project_job_string(&p, "device"), "local:braket/sim");
    CHECK_INT(json_integer_value(json_object_get(p.doc, "mine")), 1);
    byoc_project_clear(&p);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(byoc_project_pushed_image(NULL) == NULL);
}

int main(void)
{
    char *dir = check_tmpdir();
    test_defaults_and_missing(dir);
    test_round_trip(dir);
    test_invalid(dir);
    test_record_push(dir);
    nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    free(dir);
    return check_done();
}
