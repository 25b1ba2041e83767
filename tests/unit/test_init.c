/* byoc init (byoc/scaffold.h): every recipe x language x arch x GPU renders a
 * project that parses and lints without errors; files are never overwritten
 * without force; the result is a git repository with one commit. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <jansson.h>

#include "byoc/dockerfile.h"
#include "byoc/lint.h"
#include "byoc/project.h"
#include "byoc/scaffold.h"
#include "check.h"
#include "core/files.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void rm_rf(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static char assets[4096];

static byoc_init_options options(const char *dir, byoc_recipe r, byoc_language l, byoc_arch a, bool gpu)
{
    byoc_init_options o = {.dir = dir, .recipe = r, .language = l, .arch = a, .gpu = gpu, .git = true,
                           .assets_dir = assets};
    return o;
}

static const byoc_init_file *plan_file(const byoc_init_plan *p, const char *path)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->files[i].path, path))
            return &p->files[i];
    return NULL;
}

static int git_commit_count(const char *dir)
{
    git_repository *repo;
    if (git_repository_open(&repo, dir) != 0)
        return -1;
    git_revwalk *walk;
    git_revwalk_new(&walk, repo);
    git_revwalk_push_head(walk);
    git_oid id;
    int n = 0;
    while (git_revwalk_next(&id, walk) == 0)
        n++;
    git_revwalk_free(walk);
    git_repository_free(repo);
    return n;
}

static void check_combination(const char *tmp, byoc_recipe r, byoc_language l, byoc_arch a, bool gpu)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s-%s-%s-%s", tmp, byoc_recipe_name(r), byoc_language_name(l), byoc_arch_name(a),
             gpu ? "gpu" : "cpu");
    byoc_init_options o = options(dir, r, l, a, gpu);
    byoc_init_plan plan;
    byoc_err err;
    if (byoc_init_render(&o, &plan, &err) != 0) {
        check_fail(__FILE__, __LINE__, "%s: %s: %s", dir, err.what, err.message);
        return;
    }
    const byoc_init_file *df = plan_file(&plan, "Dockerfile");
    CHECK(df != NULL);
    if (df) {
        CHECK(strstr(df->content, "{{") == NULL);
        byoc_dockerfile parsed;
        byoc_dockerfile_parse(df->content, df->len, NULL, &parsed);
        if (parsed.n_errors)
            check_fail(__FILE__, __LINE__, "%s: Dockerfile line %d: %s", dir, parsed.diags[0].line,
                       parsed.diags[0].message);
        const byoc_df_stage *fin = byoc_df_final_stage(&parsed);
        CHECK(fin != NULL);
        if (fin && r == BYOC_RECIPE_CUSTOM_BASE) {
            CHECK_STR(fin->platform, a == BYOC_ARCH_ARM64 ? "linux/arm64" : "linux/amd64");
            CHECK_STR(byoc_df_stage_env(fin, "SAGEMAKER_PROGRAM"), "byoc_container.py");
            CHECK(strstr(fin->base, gpu ? "nvidia/cuda" : "public.ecr.aws/docker/library/") != NULL);
        }
        if (fin && r == BYOC_RECIPE_EXTEND_PREBUILT)
            CHECK(strstr(fin->base, gpu ? "amazon-braket-pytorch-jobs" : "amazon-braket-base-jobs") != NULL);
        byoc_dockerfile_clear(&parsed);
    }
    CHECK((plan_file(&plan, "byoc/byoc_container.py") != NULL) == (r == BYOC_RECIPE_CUSTOM_BASE));
    CHECK(plan_file(&plan, ".dockerignore") && plan_file(&plan, ".gitignore") && plan_file(&plan, "byoc.json"));
    static const char *const samples[] = {"algorithm/algo.py", "algorithm/algo.jl", "algorithm/src/main.rs",
                                          "algorithm/algo.cpp"};
    CHECK(plan_file(&plan, samples[l]) != NULL);
    byoc_init_plan_clear(&plan);

    byoc_init_result res;
    if (byoc_init_project(&o, &res, &err) != 0) {
        check_fail(__FILE__, __LINE__, "%s: %s: %s", dir, err.what, err.message);
        byoc_init_result_clear(&res);
        return;
    }
    CHECK(res.git_created);
    CHECK_INT(strlen(res.commit), 40);
    CHECK_INT(git_commit_count(dir), 1);

    byoc_project p;
    bool found = false;
    CHECK_INT(byoc_project_load(&p, dir, &found, &err), 0);
    CHECK(found);
    CHECK_STR(p.recipe, byoc_recipe_name(r));
    CHECK_STR(p.language, byoc_language_name(l));
    CHECK_STR(p.arch, byoc_arch_name(a));
    CHECK(p.gpu == gpu);
    CHECK(p.name && !strncmp(p.name, "amazon-braket-", 14));
    CHECK(byoc_project_job_string(&p, "entry_point") != NULL);
    CHECK((byoc_project_job_string(&p, "instance_type") != NULL) == (a == BYOC_ARCH_AMD64));
    byoc_project_clear(&p);

    /* the scaffold lints without errors */
    byoc_lint_options lo = {.dir = dir};
    byoc_lint_result lr = {0};
    CHECK_INT(byoc_lint_project(&lo, &lr, &err), 0);
    for (size_t i = 0; i < lr.n; i++)
        if (lr.items[i].severity == BYOC_LINT_ERROR)
            check_fail(__FILE__, __LINE__, "%s: %s:%d %s: %s", dir, lr.items[i].file, lr.items[i].line,
                       lr.items[i].rule, lr.items[i].message);
    byoc_lint_result_clear(&lr);
    byoc_init_result_clear(&res);
}

static void test_all_combinations(const char *tmp)
{
    for (int l = 0; l < BYOC_LANG_COUNT; l++)
        for (int a = 0; a < 2; a++)
            for (int g = 0; g < 2; g++)
                check_combination(tmp, BYOC_RECIPE_CUSTOM_BASE, (byoc_language)l, (byoc_arch)a, g);
    for (int g = 0; g < 2; g++)
        check_combination(tmp, BYOC_RECIPE_EXTEND_PREBUILT, BYOC_LANG_PYTHON, BYOC_ARCH_AMD64, g);
}

static void test_invalid(const char *tmp)
{
    byoc_err err;
    byoc_init_result res;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/invalid", tmp);
    byoc_init_options o = options(dir, BYOC_RECIPE_EXTEND_PREBUILT, BYOC_LANG_RUST, BYOC_ARCH_AMD64, false);
    CHECK_INT(byoc_init_project(&o, &res, &err), -1);
    CHECK_STR(err.what, "--language");
    byoc_init_result_clear(&res);
    o = options(dir, BYOC_RECIPE_EXTEND_PREBUILT, BYOC_LANG_PYTHON, BYOC_ARCH_ARM64, false);
    CHECK_INT(byoc_init_project(&o, &res, &err), -1);
    CHECK_STR(err.what, "--arch");
    byoc_init_result_clear(&res);
    o = options(dir, BYOC_RECIPE_PREBUILT, BYOC_LANG_PYTHON, BYOC_ARCH_AMD64, false);
    CHECK_INT(byoc_init_project(&o, &res, &err), -1);
    CHECK_STR(err.what, "--recipe");
    byoc_init_result_clear(&res);
    CHECK(access(dir, F_OK) != 0); /* nothing was written */

    o = options(dir, BYOC_RECIPE_CUSTOM_BASE, BYOC_LANG_PYTHON, BYOC_ARCH_AMD64, false);
    o.assets_dir = "/nonexistent/assets";
    CHECK_INT(byoc_init_project(&o, &res, &err), -1);
    CHECK(strstr(err.message, "BYOC_ASSETS_DIR") != NULL);
    byoc_init_result_clear(&res);
}

static void test_overwrite(const char *tmp)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/existing", tmp);
    mkdir(dir, 0755);
    char path[4200];
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    FILE *f = fopen(path, "w");
    fputs("FROM mine\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/byoc.json", dir);
    f = fopen(path, "w");
    fputs("{\"job\": {\"device\": \"local:braket/sim\"}, \"custom\": 42}\n", f);
    fclose(f);

    byoc_init_options o = options(dir, BYOC_RECIPE_CUSTOM_BASE, BYOC_LANG_PYTHON, BYOC_ARCH_AMD64, false);
    o.base_image = "byoc-test/python:3";
    o.git = false;
    byoc_init_result res;
    byoc_err err;
    /* default: the files that exist are kept, the others written (never all or nothing) */
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    CHECK_INT(res.kept.n, 2);
    CHECK(res.kept.n == 2 && !strcmp(res.kept.v[0], "Dockerfile") && !strcmp(res.kept.v[1], "byoc.json"));
    CHECK_INT(res.beside.n, 0);
    byoc_init_result_clear(&res);
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    char *text = check_read_file(path, NULL);
    CHECK_STR(text, "FROM mine\n"); /* untouched */
    free(text);
    snprintf(path, sizeof path, "%s/byoc.json", dir);
    text = check_read_file(path, NULL);
    CHECK_STR(text, "{\"job\": {\"device\": \"local:braket/sim\"}, \"custom\": 42}\n");
    free(text);
    snprintf(path, sizeof path, "%s/byoc/byoc_container.py", dir);
    CHECK(access(path, F_OK) == 0); /* the rest was written */

    /* per file: byoc's Dockerfile beside the user's; byoc.json kept */
    byoc_kv choices[] = {{"Dockerfile", "beside"}, {"nothing/here", "overwrite"}};
    o.choices = choices;
    o.n_choices = 2;
    o.existing = BYOC_EXISTING_KEEP;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    CHECK(res.beside.n == 1 && !strcmp(res.beside.v[0], "Dockerfile.byoc"));
    byoc_init_result_clear(&res);
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    text = check_read_file(path, NULL);
    CHECK_STR(text, "FROM mine\n");
    free(text);
    snprintf(path, sizeof path, "%s/Dockerfile.byoc", dir);
    text = check_read_file(path, NULL);
    CHECK(text && strstr(text, "FROM --platform=linux/amd64 byoc-test/python:3") != NULL);
    free(text);
    /* byoc.json goes beside too, and names byoc's Dockerfile, not the user's */
    byoc_kv both[] = {{"Dockerfile", "beside"}, {"byoc.json", "beside"}};
    o.choices = both;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    CHECK_INT(res.beside.n, 2);
    byoc_init_result_clear(&res);
    snprintf(path, sizeof path, "%s/byoc.json.byoc", dir);
    text = check_read_file(path, NULL);
    json_t *beside_doc = text ? json_loads(text, 0, NULL) : NULL;
    CHECK_STR(json_string_value(json_object_get(beside_doc, "dockerfile")), "Dockerfile.byoc");
    json_decref(beside_doc);
    free(text);
    unlink(path);
    byoc_kv bad[] = {{"Dockerfile", "replace"}};
    o.choices = bad;
    o.n_choices = 1;
    CHECK_INT(byoc_init_project(&o, &res, &err), -1);
    CHECK_STR(err.what, "--existing");
    byoc_init_result_clear(&res);
    o.choices = NULL;
    o.n_choices = 0;
    snprintf(path, sizeof path, "%s/.git", dir);
    CHECK(access(path, F_OK) != 0);

    o.force = true;
    o.git = false;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    CHECK(!res.git_created);
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    text = check_read_file(path, NULL);
    CHECK(text && strstr(text, "FROM --platform=linux/amd64 byoc-test/python:3") != NULL);
    free(text);
    snprintf(path, sizeof path, "%s/.git", dir);
    CHECK(access(path, F_OK) != 0);
    byoc_init_result_clear(&res);

    /* byoc.json kept its unknown keys and the job form's fields */
    byoc_project p;
    CHECK_INT(byoc_project_load(&p, dir, NULL, &err), 0);
    CHECK_STR(byoc_project_job_string(&p, "device"), "local:braket/sim");
    CHECK_STR(byoc_project_job_string(&p, "entry_point"), "algorithm.algo:main");
    CHECK_STR(p.base_image, "byoc-test/python:3");
    json_t *doc = byoc_project_to_json(&p);
    CHECK_INT(json_integer_value(json_object_get(doc, "custom")), 42);
    json_decref(doc);
    byoc_project_clear(&p);

    /* modes: scripts executable, byoc.json private */
    struct stat st;
    snprintf(path, sizeof path, "%s/byoc/train", dir);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0755);
    snprintf(path, sizeof path, "%s/byoc/byoc_container.py", dir);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0111));
    snprintf(path, sizeof path, "%s/byoc.json", dir);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);

    /* the JSON result: only what differs from byoc's is written */
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    FILE *df = fopen(path, "w");
    fputs("FROM changed\n", df);
    fclose(df);
    o.git = true;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    json_t *j = byoc_init_result_to_json(&res);
    CHECK_INT(json_array_size(json_object_get(j, "files")), 1);
    CHECK(json_is_true(json_object_get(j, "adopted"))); /* the sample of the first run is code now */
    CHECK(json_is_true(json_object_get(json_object_get(j, "git"), "created")));
    json_decref(j);
    byoc_init_result_clear(&res);
    CHECK_INT(git_commit_count(dir), 1);
    /* once a repository: a second init commits nothing and says so */
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    CHECK(!res.git_created && res.git_note != NULL);
    CHECK_INT(git_commit_count(dir), 1);
    byoc_init_result_clear(&res);

    /* a file where the directory should be */
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    o.dir = path;
    CHECK_INT(byoc_init_project(&o, &res, &err), -1);
    byoc_init_result_clear(&res);
}

/* A directory of the project that is a symbolic link (d/algorithm -> elsewhere) is never written
 * through, with or without --force; a link at a file's own name is replaced, not followed. */
/* Only the user's Dockerfile in the way, written beside: the new byoc.json names byoc's. */
static void test_beside_dockerfile(const char *tmp)
{
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/beside", tmp);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    FILE *f = fopen(path, "w");
    fputs("FROM mine\n", f);
    fclose(f);
    byoc_init_options o = options(dir, BYOC_RECIPE_CUSTOM_BASE, BYOC_LANG_PYTHON, BYOC_ARCH_AMD64, false);
    o.base_image = "byoc-test/python:3";
    o.git = false;
    byoc_kv choices[] = {{"Dockerfile", "beside"}};
    o.choices = choices;
    o.n_choices = 1;
    byoc_init_result res;
    byoc_err err;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    CHECK(res.beside.n == 1 && !strcmp(res.beside.v[0], "Dockerfile.byoc"));
    byoc_init_result_clear(&res);
    byoc_project p;
    CHECK_INT(byoc_project_load(&p, dir, NULL, &err), 0);
    CHECK_STR(p.dockerfile, "Dockerfile.byoc");
    byoc_project_clear(&p);

    /* kept (the default): byoc.json names the user's Dockerfile, the one that will be built */
    snprintf(path, sizeof path, "%s/byoc.json", dir);
    unlink(path);
    o.choices = NULL;
    o.n_choices = 0;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    byoc_init_result_clear(&res);
    CHECK_INT(byoc_project_load(&p, dir, NULL, &err), 0);
    CHECK_STR(p.dockerfile, "Dockerfile");
    byoc_project_clear(&p);
}

static void test_symlinked_parent(const char *tmp)
{
    char dir[4096], victim[4096], link[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/linked", tmp);
    snprintf(victim, sizeof victim, "%s/victim", tmp);
    mkdir(dir, 0755);
    mkdir(victim, 0755);
    snprintf(link, sizeof link, "%s/algorithm", dir);
    CHECK_INT(symlink(victim, link), 0);
    for (int force = 0; force < 2; force++) {
        byoc_init_options o = options(dir, BYOC_RECIPE_CUSTOM_BASE, BYOC_LANG_PYTHON, BYOC_ARCH_AMD64, false);
        o.base_image = "byoc-test/python:3";
        o.force = force;
        o.git = false;
        byoc_init_result res;
        byoc_err err;
        CHECK_INT(byoc_init_project(&o, &res, &err), -1);
        CHECK(strstr(err.what, "/linked/algorithm") != NULL);
        CHECK(strstr(err.message, "symbolic link") && strstr(err.message, "nothing was written"));
        byoc_init_result_clear(&res);
        snprintf(path, sizeof path, "%s/algo.py", victim);
        CHECK(access(path, F_OK) != 0);
        snprintf(path, sizeof path, "%s/Dockerfile", dir);
        CHECK(access(path, F_OK) != 0);
    }
    /* the writer itself refuses too, whatever was checked before */
    byoc_err err;
    CHECK_INT(byoc_file_write_below(dir, "algorithm/x.py", "x", 1, 0644, 0755, &err), -1);
    CHECK(strstr(err.message, "symbolic link") != NULL);
    snprintf(path, sizeof path, "%s/x.py", victim);
    CHECK(access(path, F_OK) != 0);
    unlink(link);
    /* a link at the file's name: replaced by the file, its target untouched */
    snprintf(path, sizeof path, "%s/target.txt", victim);
    FILE *f = fopen(path, "w");
    fputs("keep\n", f);
    fclose(f);
    snprintf(link, sizeof link, "%s/name.txt", dir);
    CHECK_INT(symlink(path, link), 0);
    CHECK_INT(byoc_file_write_below(dir, "name.txt", "new\n", 4, 0644, 0755, &err), 0);
    char *text = check_read_file(path, NULL);
    CHECK_STR(text, "keep\n");
    free(text);
    struct stat st;
    CHECK(lstat(link, &st) == 0 && S_ISREG(st.st_mode));
    CHECK_INT(byoc_file_write_below(dir, "a/b/c.txt", "c", 1, 0600, 0755, &err), 0);
    snprintf(path, sizeof path, "%s/a/b/c.txt", dir);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
}

int main(void)
{
    snprintf(assets, sizeof assets, "%s/assets", check_source_dir());
    char *tmp = check_tmpdir();
    char home[4200];
    snprintf(home, sizeof home, "%s/home", tmp);
    mkdir(home, 0700);
    setenv("HOME", home, 1);
    setenv("XDG_CONFIG_HOME", home, 1);
    git_libgit2_init();
    test_all_combinations(tmp);
    test_invalid(tmp);
    test_overwrite(tmp);
    test_symlinked_parent(tmp);
    test_beside_dockerfile(tmp);
    git_libgit2_shutdown();
    rm_rf(tmp);
    free(tmp);
    return check_done();
}
