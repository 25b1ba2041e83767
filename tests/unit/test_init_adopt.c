/* byoc init around a user's code (byoc/adopt.h, byoc/scaffold.h): projects written the way
 * users write them (several files, the manifest at the top or one directory down) get a
 * byoc.json whose job points at their code, a Dockerfile that reads their manifests, no
 * sample, and their files unchanged; the Python a project needs reaches the base image. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/adopt.h"
#include "byoc/decide.h"
#include "byoc/lint.h"
#include "byoc/scaffold.h"
#include "check.h"

static char assets[4096];
static char *tmp;

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

/* Write root/rel (parents made) with text. */
static void put(const char *root, const char *rel, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static char *project(const char *name)
{
    char *dir = NULL;
    if (asprintf(&dir, "%s/%s", tmp, name) < 0)
        abort();
    mkdir(dir, 0755);
    return dir;
}

static const byoc_init_file *plan_file(const byoc_init_plan *p, const char *path)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->files[i].path, path))
            return &p->files[i];
    return NULL;
}

static bool plan_has_prefix(const byoc_init_plan *p, const char *prefix)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strncmp(p->files[i].path, prefix, strlen(prefix)))
            return true;
    return false;
}

static void check_adopt(const char *dir, byoc_language l, const char *module, const char *entry,
                        const char *manifest)
{
    byoc_adopt a;
    byoc_adopt_find(dir, l, &a);
    CHECK(a.found);
    CHECK_STR(a.source_module, module);
    CHECK_STR(a.entry_point, entry);
    CHECK_STR(a.manifest, manifest);
    byoc_adopt_clear(&a);
}

static void render(const char *dir, byoc_language l, const char *python, byoc_init_plan *plan)
{
    byoc_init_options o = {.dir = dir, .recipe = BYOC_RECIPE_CUSTOM_BASE, .language = l, .python = python,
                           .assets_dir = assets};
    byoc_err err;
    CHECK_INT(byoc_init_render(&o, plan, &err), 0);
}

static void test_cpp(void)
{
    char *dir = project("qsim");
    put(dir, "CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(qsim CXX)\n"
                               "add_executable(qsim src/main.cpp src/circuit.cpp)\n");
    put(dir, "src/main.cpp", "#include \"circuit.hpp\"\nint main() { return run(); }\n");
    put(dir, "src/circuit.cpp", "int run() { return 0; }\n");
    put(dir, "src/circuit.hpp", "int run();\n");
    check_adopt(dir, BYOC_LANG_CPP, ".", "qsim/CMakeLists.txt", "CMakeLists.txt");
    byoc_init_plan plan;
    render(dir, BYOC_LANG_CPP, NULL, &plan);
    CHECK(plan.adopted);
    CHECK(!plan_has_prefix(&plan, "algorithm"));
    CHECK(plan_file(&plan, "CMakeLists.txt") == NULL);
    const byoc_init_file *pf = plan_file(&plan, "byoc.json");
    CHECK(pf && strstr(pf->content, "\"source_module\": \".\"") && strstr(pf->content, "\"qsim/CMakeLists.txt\""));
    byoc_init_plan_clear(&plan);

    /* init writes around the code and leaves it as it was */
    byoc_init_options o = {.dir = dir, .recipe = BYOC_RECIPE_CUSTOM_BASE, .language = BYOC_LANG_CPP,
                           .assets_dir = assets};
    byoc_init_result res;
    byoc_err err;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    CHECK(res.adopted && res.kept.n == 0);
    CHECK_STR(res.entry_point, "qsim/CMakeLists.txt");
    byoc_init_result_clear(&res);
    char path[4200];
    snprintf(path, sizeof path, "%s/src/main.cpp", dir);
    char *text = check_read_file(path, NULL);
    CHECK_STR(text, "#include \"circuit.hpp\"\nint main() { return run(); }\n");
    free(text);
    byoc_lint_options lo = {.dir = dir};
    byoc_lint_result lr = {0};
    CHECK_INT(byoc_lint_project(&lo, &lr, &err), 0);
    CHECK_INT(lr.n_errors, 0);
    byoc_lint_result_clear(&lr);
    free(dir);

    /* the manifest one directory down: that directory is the source module */
    dir = project("cpp-nested");
    put(dir, "README.md", "nested\n");
    put(dir, "engine/CMakeLists.txt", "project(e CXX)\nadd_executable(e main.cpp)\n");
    put(dir, "engine/main.cpp", "int main() { return 0; }\n");
    check_adopt(dir, BYOC_LANG_CPP, "engine", "engine/CMakeLists.txt", "engine/CMakeLists.txt");
    free(dir);
}

static void test_rust(void)
{
    char *dir = project("qopt");
    put(dir, "Cargo.toml", "[package]\nname = \"qopt\"\nversion = \"0.1.0\"\nedition = \"2021\"\n");
    put(dir, "Cargo.lock", "version = 3\n");
    put(dir, "src/main.rs", "mod opt;\nfn main() { opt::run(); }\n");
    put(dir, "src/opt.rs", "pub fn run() {}\n");
    check_adopt(dir, BYOC_LANG_RUST, ".", "qopt/Cargo.toml", "Cargo.toml");
    byoc_init_plan plan;
    render(dir, BYOC_LANG_RUST, NULL, &plan);
    const byoc_init_file *df = plan_file(&plan, "Dockerfile");
    CHECK(df && strstr(df->content, "COPY Cargo.toml /opt/byoc/rust/Cargo.toml\n"));
    CHECK(df && strstr(df->content, "COPY Cargo.lock /opt/byoc/rust/Cargo.lock\n"));
    CHECK(df && !strstr(df->content, "algorithm/"));
    CHECK(!plan_has_prefix(&plan, "algorithm"));
    byoc_init_plan_clear(&plan);
    free(dir);
}

static void test_julia(void)
{
    char *dir = project("qjl");
    put(dir, "Project.toml", "name = \"QJl\"\n[deps]\n");
    put(dir, "main.jl", "include(\"src/model.jl\")\n");
    put(dir, "src/model.jl", "f() = 1\n");
    check_adopt(dir, BYOC_LANG_JULIA, ".", "qjl/main.jl", "Project.toml");
    byoc_init_plan plan;
    render(dir, BYOC_LANG_JULIA, NULL, &plan);
    const byoc_init_file *df = plan_file(&plan, "Dockerfile");
    CHECK(df && strstr(df->content, "COPY Project.toml /opt/byoc/julia/Project.toml\n"));
    CHECK(df && !strstr(df->content, "Manifest.toml")); /* none to copy */
    CHECK(!plan_has_prefix(&plan, "algorithm"));
    byoc_init_plan_clear(&plan);

    /* the pinned versions come with the project (JuliaManifest.toml first, as Pkg reads them) */
    put(dir, "Manifest.toml", "julia_version = \"1.11.5\"\nmanifest_format = \"2.0\"\n");
    render(dir, BYOC_LANG_JULIA, NULL, &plan);
    df = plan_file(&plan, "Dockerfile");
    CHECK(df && strstr(df->content, "COPY Project.toml /opt/byoc/julia/Project.toml\n"
                                     "# The versions the project pinned: instantiate installs exactly these.\n"
                                     "COPY Manifest.toml /opt/byoc/julia/Manifest.toml\n"
                                     "RUN julia --project=/opt/byoc/julia"));
    byoc_init_plan_clear(&plan);
    put(dir, "JuliaManifest.toml", "julia_version = \"1.11.5\"\n");
    render(dir, BYOC_LANG_JULIA, NULL, &plan);
    df = plan_file(&plan, "Dockerfile");
    CHECK(df && strstr(df->content, "COPY JuliaManifest.toml /opt/byoc/julia/Manifest.toml\n"));
    byoc_init_plan_clear(&plan);
    free(dir);

    /* one directory down: the manifest beside that Project.toml */
    dir = project("qjl-down");
    put(dir, "qjl/Project.toml", "name = \"QJl\"\n");
    put(dir, "qjl/Manifest.toml", "manifest_format = \"2.0\"\n");
    put(dir, "qjl/run.jl", "println(1)\n");
    render(dir, BYOC_LANG_JULIA, NULL, &plan);
    df = plan_file(&plan, "Dockerfile");
    CHECK(df && strstr(df->content, "COPY qjl/Manifest.toml /opt/byoc/julia/Manifest.toml\n"));
    byoc_init_plan_clear(&plan);
    free(dir);
}

static void test_python(void)
{
    /* a package under src/, requirements.txt and pyproject.toml at the top, Python 3.13 */
    char *dir = project("qalgo-project");
    put(dir, "pyproject.toml", "[project]\nname = \"qalgo\"\nrequires-python = \">=3.13\"\n");
    put(dir, "requirements.txt", "numpy\n");
    put(dir, "src/qalgo/__init__.py", "");
    put(dir, "src/qalgo/main.py", "from qalgo import util\n\n\ndef main():\n    util.go()\n");
    put(dir, "src/qalgo/util.py", "def go():\n    pass\n");
    put(dir, "tests/test_util.py", "def test_go():\n    pass\n");
    check_adopt(dir, BYOC_LANG_PYTHON, "src/qalgo", "qalgo.main:main", "src/qalgo/__init__.py");

    byoc_answers a;
    byoc_answers_init(&a);
    byoc_err err;
    CHECK_INT(byoc_answer_assign(&a, "python_version=>=3.13", &err), 0);
    byoc_decision d;
    byoc_decide(&a, &d);
    CHECK_INT(d.recipe, BYOC_RECIPE_CUSTOM_BASE);
    CHECK_STR(d.python, "3.13"); /* the oldest series newer than the prebuilt's */
    byoc_decision_clear(&d);
    CHECK_INT(byoc_answer_assign(&a, "python_version=<3.10", &err), 0);
    byoc_decide(&a, &d);
    CHECK_STR(d.python, "3.9");
    byoc_decision_clear(&d);
    CHECK_INT(byoc_answer_assign(&a, "python_version=3.12", &err), 0);
    byoc_decide(&a, &d);
    CHECK_STR(d.python, "");
    byoc_decision_clear(&d);
    byoc_answers_clear(&a);

    byoc_init_plan plan;
    render(dir, BYOC_LANG_PYTHON, "3.13", &plan);
    const byoc_init_file *df = plan_file(&plan, "Dockerfile");
    CHECK(df && strstr(df->content, "FROM --platform=linux/amd64 public.ecr.aws/docker/library/python:3.13-slim-bookworm\n"));
    CHECK(df && strstr(df->content, "COPY requirements.txt /opt/byoc/requirements.txt\n"));
    CHECK(plan_file(&plan, "requirements.txt") == NULL);
    CHECK(!plan_has_prefix(&plan, "algorithm"));
    byoc_init_plan_clear(&plan);

    /* the base the Python does not fit: lint says so */
    byoc_init_options o = {.dir = dir, .recipe = BYOC_RECIPE_CUSTOM_BASE, .language = BYOC_LANG_PYTHON,
                           .python = "3.12", .assets_dir = assets};
    byoc_init_result res;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    byoc_init_result_clear(&res);
    byoc_lint_options lo = {.dir = dir};
    byoc_lint_result lr = {0};
    CHECK_INT(byoc_lint_project(&lo, &lr, &err), 0);
    bool flagged = false;
    for (size_t i = 0; i < lr.n; i++)
        flagged = flagged || (!strcmp(lr.items[i].rule, "python-base") && strstr(lr.items[i].message, ">=3.13"));
    CHECK(flagged);
    byoc_lint_result_clear(&lr);
    /* overwrite with the right Python: clean */
    o.python = "3.13";
    o.existing = BYOC_EXISTING_OVERWRITE;
    CHECK_INT(byoc_init_project(&o, &res, &err), 0);
    byoc_init_result_clear(&res);
    lr = (byoc_lint_result){0};
    CHECK_INT(byoc_lint_project(&lo, &lr, &err), 0);
    for (size_t i = 0; i < lr.n; i++)
        CHECK(strcmp(lr.items[i].rule, "python-base") != 0);
    byoc_lint_result_clear(&lr);
    free(dir);

    /* scripts at the top of a directory whose name is no Python identifier: the script is the module */
    dir = project("my-job");
    put(dir, "train.py", "import helpers\nprint('hi')\n");
    put(dir, "helpers.py", "X = 1\n");
    check_adopt(dir, BYOC_LANG_PYTHON, "train.py", "train", "train.py");
    free(dir);
    dir = project("myjob");
    put(dir, "main.py", "def main():\n    pass\n");
    check_adopt(dir, BYOC_LANG_PYTHON, ".", "myjob.main:main", "main.py");
    free(dir);

    /* nothing to adopt: the sample */
    dir = project("nothing");
    put(dir, "notes.txt", "ideas\n");
    byoc_adopt ad;
    byoc_adopt_find(dir, BYOC_LANG_PYTHON, &ad);
    CHECK(!ad.found);
    byoc_adopt_clear(&ad);
    render(dir, BYOC_LANG_PYTHON, NULL, &plan);
    CHECK(!plan.adopted && plan_file(&plan, "algorithm/algo.py") && plan_file(&plan, "requirements.txt"));
    byoc_init_plan_clear(&plan);
    free(dir);
}

/* pyproject.toml's [project] dependencies (no requirements.txt) are installed by the image, in both
 * recipes; the Dockerfile reads them when it is built, so a later edit of the list is not missed. */
static void test_pyproject_dependencies(void)
{
    char *dir = project("qdeps");
    put(dir, "pyproject.toml", "[project]\nname = \"qdeps\"\nversion = \"0.1\"\ndependencies = [\"numpy>=2\"]\n");
    put(dir, "qdeps/__init__.py", "");
    put(dir, "qdeps/main.py", "import numpy\n\n\ndef main():\n    pass\n");
    const byoc_recipe recipes[] = {BYOC_RECIPE_CUSTOM_BASE, BYOC_RECIPE_EXTEND_PREBUILT};
    for (size_t i = 0; i < 2; i++) {
        byoc_init_options o = {.dir = dir, .recipe = recipes[i], .language = BYOC_LANG_PYTHON, .assets_dir = assets,
                               .existing = BYOC_EXISTING_OVERWRITE};
        byoc_init_plan plan;
        byoc_err err;
        CHECK_INT(byoc_init_render(&o, &plan, &err), 0);
        const byoc_init_file *df = plan_file(&plan, "Dockerfile");
        CHECK(df && strstr(df->content, "COPY pyproject.toml /tmp/byoc-pyproject/pyproject.toml\n"));
        CHECK(df && strstr(df->content, ".get('project', {}); \\\n"));
        CHECK(df && strstr(df->content, "print('\\n'.join(project.get('dependencies', [])))\" >requirements.txt"));
        CHECK(df && strstr(df->content, "python3 -m pip install --no-cache-dir -r requirements.txt;"));
        CHECK(df && !strstr(df->content, "e.g. with the project itself")); /* no longer left to the user */
        CHECK(plan_file(&plan, "requirements.txt") == NULL);
        byoc_init_plan_clear(&plan);
        byoc_init_result res;
        CHECK_INT(byoc_init_project(&o, &res, &err), 0);
        byoc_init_result_clear(&res);
        byoc_lint_options lo = {.dir = dir};
        byoc_lint_result lr = {0};
        CHECK_INT(byoc_lint_project(&lo, &lr, &err), 0);
        CHECK_INT(lr.n_errors, 0);
        byoc_lint_result_clear(&lr);
    }
    free(dir);
}

int main(void)
{
    snprintf(assets, sizeof assets, "%s/assets", check_source_dir());
    tmp = check_tmpdir();
    test_cpp();
    test_rust();
    test_julia();
    test_python();
    test_pyproject_dependencies();
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(tmp);
    return check_done();
}
