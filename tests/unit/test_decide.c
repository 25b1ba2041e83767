/* The BYOC-necessity rules (byoc/decide.h): each rule firing and not firing,
 * the verdict and recipe they lead to, answer validation and sources. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/decide.h"
#include "check.h"

static bool has_rule(const byoc_decision *d, const char *rule)
{
    for (size_t i = 0; i < d->n_reasons; i++)
        if (!strcmp(d->reasons[i].rule, rule))
            return true;
    return false;
}

/* Decide from defaults plus "k=v" assignments; the decision is left in *d. */
static void decide_with(byoc_decision *d, const char *const *assignments)
{
    byoc_answers a;
    byoc_answers_init(&a);
    byoc_err err;
    for (const char *const *p = assignments; p && *p; p++)
        if (byoc_answer_assign(&a, *p, &err) != 0)
            check_fail(__FILE__, __LINE__, "assign %s: %s", *p, err.message);
    byoc_decide(&a, d);
    byoc_answers_clear(&a);
}

#define DECIDE(d, ...)                                         \
    do {                                                       \
        static const char *const as_[] = {__VA_ARGS__, NULL};  \
        decide_with(d, as_);                                   \
    } while (0)

static void test_defaults(void)
{
    byoc_decision d;
    decide_with(&d, NULL);
    CHECK_STR(byoc_verdict_name(d.verdict), "not-needed");
    CHECK_STR(byoc_recipe_name(d.recipe), "prebuilt");
    CHECK(has_rule(&d, "prebuilt-fits"));
    CHECK_INT(d.n_reasons, 1);
    byoc_decision_clear(&d);
}

static void test_packages(void)
{
    byoc_decision d;
    DECIDE(&d, "missing_packages=9");
    CHECK_STR(byoc_verdict_name(d.verdict), "not-needed");
    CHECK(has_rule(&d, "few-packages"));
    CHECK(!has_rule(&d, "many-packages"));
    CHECK(strstr(d.reasons[0].text, "9 public packages") != NULL);
    byoc_decision_clear(&d);

    DECIDE(&d, "missing_packages=1");
    CHECK(strstr(d.reasons[0].text, "1 public package is missing") != NULL);
    byoc_decision_clear(&d);

    DECIDE(&d, "missing_packages=10");
    CHECK_STR(byoc_verdict_name(d.verdict), "recommended");
    CHECK_STR(byoc_recipe_name(d.recipe), "extend-prebuilt");
    CHECK(has_rule(&d, "many-packages"));
    CHECK(!has_rule(&d, "few-packages"));
    byoc_decision_clear(&d);
}

static void test_languages(void)
{
    byoc_decision d;
    DECIDE(&d, "languages=python");
    CHECK(!has_rule(&d, "non-python"));
    byoc_decision_clear(&d);

    DECIDE(&d, "languages=python,rust");
    CHECK_STR(byoc_verdict_name(d.verdict), "required");
    CHECK_STR(byoc_recipe_name(d.recipe), "custom-base");
    CHECK(has_rule(&d, "non-python"));
    CHECK(strstr(d.reasons[0].text, "Rust") != NULL);
    CHECK_INT(d.language, BYOC_LANG_RUST);
    byoc_decision_clear(&d);

    DECIDE(&d, "languages=julia,cpp");
    CHECK(strstr(d.reasons[0].text, "C++ and Julia") != NULL);
    CHECK_INT(d.language, BYOC_LANG_CPP);
    byoc_decision_clear(&d);

    DECIDE(&d, "languages=other");
    CHECK(has_rule(&d, "non-python"));
    CHECK_INT(d.language, BYOC_LANG_PYTHON); /* nothing to scaffold for "other": a Python base */
    byoc_decision_clear(&d);
}

static void test_python_version(void)
{
    byoc_decision d;
    const char *fits[] = {"3.12", ">=3.9", "~=3.10", "^3.10", ">=3.12,<3.13", "==3.12.*", "3.12.4", ""};
    for (size_t i = 0; i < sizeof fits / sizeof *fits; i++) {
        byoc_answers a;
        byoc_answers_init(&a);
        byoc_err err;
        CHECK_INT(byoc_answer_set(&a, "python_version", fits[i], BYOC_SRC_USER, NULL, &err), 0);
        byoc_decide(&a, &d);
        if (has_rule(&d, "python-version"))
            check_fail(__FILE__, __LINE__, "python_version=%s fired", fits[i]);
        byoc_decision_clear(&d);
        byoc_answers_clear(&a);
    }
    const char *misfits[] = {"3.11", "<3.12", "~3.10", "==3.10.*", ">=3.13", "3.9.18", "!=3.12.*"};
    for (size_t i = 0; i < sizeof misfits / sizeof *misfits; i++) {
        byoc_answers a;
        byoc_answers_init(&a);
        byoc_err err;
        CHECK_INT(byoc_answer_set(&a, "python_version", misfits[i], BYOC_SRC_USER, NULL, &err), 0);
        byoc_decide(&a, &d);
        if (!has_rule(&d, "python-version"))
            check_fail(__FILE__, __LINE__, "python_version=%s did not fire", misfits[i]);
        CHECK_STR(byoc_recipe_name(d.recipe), "custom-base");
        CHECK_STR(byoc_verdict_name(d.verdict), "required");
        byoc_decision_clear(&d);
        byoc_answers_clear(&a);
    }
}

static void test_recommendations(void)
{
    static const struct { const char *answer, *rule; } cases[] = {
        {"license_server=true", "license-server"},
        {"private_deps=yes", "private-deps"},
        {"large_stack=1", "large-stack"},
        {"distribute=true", "distribute"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        byoc_decision d;
        const char *as[] = {cases[i].answer, NULL};
        decide_with(&d, as);
        CHECK(has_rule(&d, cases[i].rule));
        CHECK_STR(byoc_verdict_name(d.verdict), "recommended");
        CHECK_STR(byoc_recipe_name(d.recipe), "extend-prebuilt");
        CHECK_INT(d.n_reasons, 1);
        byoc_decision_clear(&d);
    }
    byoc_decision d;
    DECIDE(&d, "license_server=false", "private_deps=no", "large_stack=0", "distribute=off");
    CHECK_STR(byoc_verdict_name(d.verdict), "not-needed");
    byoc_decision_clear(&d);
}

static void test_arch_and_gpu(void)
{
    byoc_decision d;
    DECIDE(&d, "arch=arm64");
    CHECK(has_rule(&d, "arch-arm64"));
    for (size_t i = 0; i < d.n_reasons; i++) /* the seed's words: arm64 for local runs, amd64 for jobs */
        if (strcmp(d.reasons[i].rule, "arch-arm64") == 0)
            CHECK(strstr(d.reasons[i].text, "cannot run on Braket's job instances") &&
                  strstr(d.reasons[i].text, "--platform linux/amd64") && strstr(d.reasons[i].text, "local runs"));
    CHECK_STR(byoc_recipe_name(d.recipe), "custom-base");
    CHECK_STR(byoc_verdict_name(d.verdict), "required");
    CHECK_INT(d.arch, BYOC_ARCH_ARM64);
    byoc_decision_clear(&d);

    DECIDE(&d, "arch=aarch64"); /* an alias, stored canonically */
    CHECK(has_rule(&d, "arch-arm64"));
    byoc_decision_clear(&d);

    DECIDE(&d, "gpu=true");
    CHECK(has_rule(&d, "gpu"));
    CHECK_STR(byoc_verdict_name(d.verdict), "not-needed"); /* GPU alone: the prebuilt CUDA images */
    CHECK(strstr(d.reasons[d.n_reasons - 1].text, "PyTorch") != NULL);
    CHECK(d.gpu);
    byoc_decision_clear(&d);

    DECIDE(&d, "gpu=true", "languages=cpp");
    CHECK(has_rule(&d, "gpu"));
    CHECK(strstr(d.reasons[d.n_reasons - 1].text, "CUDA base") != NULL);
    CHECK_STR(d.reasons[0].rule, "non-python"); /* strongest first */
    byoc_decision_clear(&d);
}

static void test_combined_order(void)
{
    byoc_decision d;
    DECIDE(&d, "private_deps=true", "languages=python,julia", "missing_packages=20");
    CHECK_STR(byoc_verdict_name(d.verdict), "required");
    CHECK_STR(byoc_recipe_name(d.recipe), "custom-base");
    CHECK_STR(d.reasons[0].rule, "non-python");
    CHECK_INT(d.reasons[0].effect, BYOC_VERDICT_REQUIRED);
    CHECK(has_rule(&d, "private-deps"));
    CHECK(has_rule(&d, "many-packages"));
    byoc_decision_clear(&d);
}

static void test_validation(void)
{
    byoc_answers a;
    byoc_answers_init(&a);
    byoc_err err;
    CHECK_INT(byoc_answer_assign(&a, "colour=blue", &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "colour");
    CHECK(strstr(err.message, "python_version") && strstr(err.message, "gpu"));

    CHECK_INT(byoc_answer_assign(&a, "gpu=maybe", &err), -1);
    CHECK_STR(err.what, "gpu");
    CHECK(strstr(err.message, "'maybe'") && strstr(err.message, "true, false"));

    CHECK_INT(byoc_answer_assign(&a, "arch=sparc", &err), -1);
    CHECK(strstr(err.message, "amd64, arm64") != NULL);

    CHECK_INT(byoc_answer_assign(&a, "missing_packages=-3", &err), -1);
    CHECK_INT(byoc_answer_assign(&a, "missing_packages=lots", &err), -1);
    CHECK_INT(byoc_answer_assign(&a, "languages=cobol", &err), -1);
    CHECK(strstr(err.message, "'cobol'") && strstr(err.message, "julia"));
    CHECK_INT(byoc_answer_assign(&a, "languages=", &err), -1);
    CHECK_INT(byoc_answer_assign(&a, "python_version=banana", &err), -1);
    CHECK_INT(byoc_answer_assign(&a, "no-equals-sign", &err), -1);
    CHECK_STR(err.what, "--answer");

    /* canonical forms and the dash spelling of keys */
    CHECK_INT(byoc_answer_assign(&a, "Languages= Rust , python,rust", &err), 0);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_LANGUAGES), "python,rust");
    CHECK_INT(byoc_answer_assign(&a, "missing-packages=007", &err), 0);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_MISSING_PACKAGES), "7");
    CHECK_INT(byoc_answer_assign(&a, "gpu=YES", &err), 0);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_GPU), "true");
    CHECK_INT(a.a[BYOC_Q_GPU].source, BYOC_SRC_USER);
    CHECK_INT(a.a[BYOC_Q_ARCH].source, BYOC_SRC_DEFAULT);

    /* revert an override to what the scan said */
    byoc_answers scanned;
    byoc_answers_init(&scanned);
    CHECK_INT(byoc_answer_set(&scanned, "gpu", "false", BYOC_SRC_SCANNED, "no CUDA found", &err), 0);
    byoc_answer_revert(&a, &scanned, BYOC_Q_GPU);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_GPU), "false");
    CHECK_INT(a.a[BYOC_Q_GPU].source, BYOC_SRC_SCANNED);
    CHECK_STR(a.a[BYOC_Q_GPU].evidence, "no CUDA found");
    byoc_answers_clear(&scanned);
    byoc_answers_clear(&a);
}

static void test_questions_and_json(void)
{
    const byoc_question *q = byoc_questions();
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        CHECK_INT(q[i].id, i);
        CHECK(byoc_question_find(q[i].key) == &q[i]);
        CHECK(q[i].prompt && *q[i].prompt && q[i].help && *q[i].help);
    }
    CHECK(byoc_question_find("nope") == NULL);

    byoc_answers a, copy;
    byoc_answers_init(&a);
    byoc_err err;
    CHECK_INT(byoc_answer_set(&a, "languages", "python,rust", BYOC_SRC_SCANNED, "rust: Cargo.toml", &err), 0);
    byoc_answers_copy(&copy, &a);
    byoc_decision d;
    byoc_decide(&copy, &d);
    json_t *doc = byoc_decision_to_json(&d, &copy);
    CHECK_STR(json_string_value(json_object_get(doc, "verdict")), "required");
    CHECK_STR(json_string_value(json_object_get(doc, "recipe")), "custom-base");
    json_t *r0 = json_array_get(json_object_get(doc, "reasons"), 0);
    CHECK_STR(json_string_value(json_object_get(r0, "rule")), "non-python");
    CHECK(json_string_value(json_object_get(r0, "text")) != NULL);
    json_t *langs = json_object_get(json_object_get(doc, "answers"), "languages");
    CHECK_STR(json_string_value(json_object_get(langs, "source")), "scanned");
    CHECK_STR(json_string_value(json_object_get(langs, "evidence")), "rust: Cargo.toml");
    json_t *init = json_object_get(doc, "init");
    CHECK_STR(json_string_value(json_object_get(init, "language")), "rust");
    CHECK_STR(json_string_value(json_object_get(init, "recipe")), "custom-base");
    json_decref(doc);
    byoc_decision_clear(&d);
    byoc_answers_clear(&copy);
    byoc_answers_clear(&a);
}

/* A measured install time replaces the package count: the figure is quoted,
 * the threshold decides, failures are named, copies carry it. */
static void test_measured_startup(void)
{
    byoc_answers a, copy;
    byoc_answers_init(&a);
    byoc_err err;
    CHECK_INT(byoc_answer_assign(&a, "missing_packages=16", &err), 0);
    byoc_startup st = {.measured = true, .install_seconds = 41.2, .packages = 16, .instance_count = 4};
    byoc_answers_set_startup(&a, &st);
    byoc_decision d;
    byoc_decide(&a, &d);
    CHECK_STR(byoc_verdict_name(d.verdict), "recommended");
    CHECK(has_rule(&d, "slow-install"));
    CHECK(!has_rule(&d, "many-packages"));
    CHECK(strstr(d.reasons[0].text, "these 16 packages took 41 s here") != NULL);
    CHECK(strstr(d.reasons[0].text, "4 instances: 165 s") != NULL);
    byoc_decision_clear(&d);

    /* under the threshold: not needed, with the figure, even though 16 > 10 */
    st.threshold_seconds = 120;
    st.failed = "nosuchpkg";
    byoc_answers_set_startup(&a, &st);
    byoc_answers_copy(&copy, &a);
    byoc_decide(&copy, &d);
    CHECK_STR(byoc_verdict_name(d.verdict), "not-needed");
    CHECK(has_rule(&d, "fast-install"));
    CHECK(has_rule(&d, "install-failed"));
    CHECK(!has_rule(&d, "few-packages") && !has_rule(&d, "many-packages"));
    for (size_t i = 0; i < d.n_reasons; i++)
        if (!strcmp(d.reasons[i].rule, "install-failed"))
            CHECK(strstr(d.reasons[i].text, "nosuchpkg") != NULL);
    byoc_decision_clear(&d);
    byoc_answers_clear(&copy);

    /* not measured: the count rule is the fallback */
    byoc_startup none = {0};
    byoc_answers_set_startup(&a, &none);
    byoc_decide(&a, &d);
    CHECK(has_rule(&d, "many-packages"));
    byoc_decision_clear(&d);
    byoc_answers_clear(&a);
}

/* decide's "Next:" line carries every answer init needs to reach the same files. */
static void test_init_command(void)
{
    byoc_decision d;
    DECIDE(&d, "languages=python", "python_version=3.13");
    char *cmd = byoc_decision_init_command(&d, "proj");
    CHECK_STR(cmd, "byoc init proj --recipe custom-base --language python --arch amd64 --python 3.13");
    free(cmd);
    byoc_decision_clear(&d);

    DECIDE(&d, "languages=cpp", "arch=arm64", "gpu=true", "private_deps=true");
    cmd = byoc_decision_init_command(&d, ".");
    CHECK_STR(cmd, "byoc init . --recipe custom-base --language cpp --arch arm64 --gpu --answer private_deps=true");
    free(cmd);
    byoc_decision_clear(&d);

    DECIDE(&d, "missing_packages=12");
    cmd = byoc_decision_init_command(&d, "p");
    CHECK_STR(cmd, "byoc init p --recipe extend-prebuilt --language python --arch amd64");
    free(cmd);
    byoc_decision_clear(&d);
}

int main(void)
{
    test_init_command();
    test_measured_startup();
    test_defaults();
    test_packages();
    test_languages();
    test_python_version();
    test_recommendations();
    test_arch_and_gpu();
    test_combined_order();
    test_validation();
    test_questions_and_json();
    return check_done();
}
