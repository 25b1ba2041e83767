/* decide: the BYOC-necessity rules of the Braket BYOC guide as a pure
 * function from a set of answers to a verdict, a recipe and the reasons.
 *
 * The wizard (TUI Decide screen or `byoc decide`) holds a byoc_answers, fills
 * it from a project scan (scan.h; source SCANNED), lets the user override any
 * answer (source USER), and calls byoc_decide() after every change: it is
 * cheap and has no side effects. Each reason names the rule that fired. */
#ifndef BYOC_BYOC_DECIDE_H
#define BYOC_BYOC_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "byoc/recipe.h"
#include "core/err.h"

typedef struct json_t json_t;

typedef enum {
    BYOC_Q_LANGUAGES,        /* list of python,cpp,rust,julia,other */
    BYOC_Q_PYTHON_VERSION,   /* a version specifier, "" = any */
    BYOC_Q_MISSING_PACKAGES, /* count of public PyPI packages the prebuilt image lacks */
    BYOC_Q_PRIVATE_DEPS,     /* bool: private repositories / indexes */
    BYOC_Q_LICENSE_SERVER,   /* bool: licensed software checked against a license server */
    BYOC_Q_LARGE_STACK,      /* bool: a large software stack not in the prebuilt images */
    BYOC_Q_DISTRIBUTE,       /* bool: ship an SDK/algorithms to customers as an image */
    BYOC_Q_ARCH,             /* amd64 | arm64 */
    BYOC_Q_GPU,              /* bool */
    BYOC_Q_COUNT
} byoc_question_id;

typedef enum {
    BYOC_QT_BOOL,    /* "true" / "false" (also yes/no, 1/0 on input) */
    BYOC_QT_COUNT,   /* a non-negative integer */
    BYOC_QT_CHOICE,  /* one of choices */
    BYOC_QT_LIST,    /* comma-separated subset of choices */
    BYOC_QT_PYSPEC,  /* a Python version specifier (pyspec.h), "" for any */
} byoc_question_type;

typedef struct byoc_question {
    byoc_question_id id;
    const char *key;             /* the --answer KEY */
    byoc_question_type type;
    const char *prompt;          /* the question as the wizard asks it */
    const char *help;            /* why it matters, one or two sentences */
    const char *const *choices;  /* CHOICE/LIST values, NULL-terminated; NULL otherwise */
    const char *default_value;
} byoc_question;

/* All questions, in the wizard's order (BYOC_Q_COUNT entries, indexed by id). */
const byoc_question *byoc_questions(void);
/* NULL if no question has this key. */
const byoc_question *byoc_question_find(const char *key);

typedef enum { BYOC_SRC_DEFAULT, BYOC_SRC_SCANNED, BYOC_SRC_USER } byoc_answer_source;
const char *byoc_answer_source_name(byoc_answer_source s); /* "default", "scanned", "user" */

typedef struct byoc_answer {
    char *value;                 /* canonical form (bools "true"/"false", lists sorted) */
    byoc_answer_source source;
    char *evidence;              /* where a scanned answer came from ("requirements.txt:4"), or NULL */
} byoc_answer;

/* Seconds of installing requirements at job start from which the measured
 * figure recommends BYOC (byoc.json "decide": {"install_threshold_seconds"}). */
#define BYOC_INSTALL_THRESHOLD_DEFAULT 30L

/* A measured start-up cost (measure.h) the rules quote instead of the package count. */
typedef struct byoc_startup {
    bool measured;
    double install_seconds;      /* one `pip install -r requirements.txt` */
    long packages;               /* requirement entries installed */
    long instance_count;         /* from byoc.json; 0 when unknown */
    long threshold_seconds;      /* 0: BYOC_INSTALL_THRESHOLD_DEFAULT */
    char *failed;                /* "a, b" that failed to install, or NULL */
} byoc_startup;

typedef struct byoc_answers {
    byoc_answer a[BYOC_Q_COUNT];
    byoc_startup startup;        /* all zero: not measured, the count rules apply */
} byoc_answers;

/* Store a copy of s as the answers' measured start-up cost. */
void byoc_answers_set_startup(byoc_answers *a, const byoc_startup *s);

void byoc_answers_init(byoc_answers *a);      /* every answer at its default */
void byoc_answers_clear(byoc_answers *a);
void byoc_answers_copy(byoc_answers *dst, const byoc_answers *src); /* dst uninitialised */

/* Validate and store an answer. A bad value fails with kind USAGE, what =
 * the key, and a message listing the valid values. evidence may be NULL. */
int byoc_answer_set(byoc_answers *a, const char *key, const char *value, byoc_answer_source src,
                    const char *evidence, byoc_err *err);
/* "KEY=VALUE" from the user. Unknown keys fail naming the key and listing the valid ones. */
int byoc_answer_assign(byoc_answers *a, const char *key_eq_value, byoc_err *err);

/* Undo an override: copy answer q (value, source, evidence) back from base, e.g. the
 * answers as the scan left them. */
void byoc_answer_revert(byoc_answers *a, const byoc_answers *base, byoc_question_id q);

const char *byoc_answer_str(const byoc_answers *a, byoc_question_id q);

typedef enum { BYOC_VERDICT_NOT_NEEDED, BYOC_VERDICT_RECOMMENDED, BYOC_VERDICT_REQUIRED } byoc_verdict;
const char *byoc_verdict_name(byoc_verdict v); /* "not-needed", "recommended", "required" */

typedef struct byoc_reason {
    const char *rule;            /* stable rule id: "non-python", "python-version", ... */
    byoc_verdict effect;         /* what the rule alone asks for (NOT_NEEDED = a note) */
    bool needs_custom_base;      /* the rule rules out extending a prebuilt image */
    byoc_question_id question;   /* the answer it read */
    char *text;
} byoc_reason;

typedef struct byoc_decision {
    byoc_verdict verdict;
    byoc_recipe recipe;
    byoc_reason *reasons;        /* the rules that fired, strongest first */
    size_t n_reasons;
    /* What `byoc init` should be given for this decision. */
    byoc_language language;
    byoc_arch arch;
    bool gpu;
    char python[8];              /* the Python series the base needs ("3.13"); "" = the prebuilt's */
    bool private_deps;
} byoc_decision;

/* The rules engine: pure, instant, never fails. */
void byoc_decide(const byoc_answers *a, byoc_decision *out);
void byoc_decision_clear(byoc_decision *d);

/* The `byoc init` command line that scaffolds what d concluded for dir: recipe (a prebuilt
 * decision scaffolds extend-prebuilt), language, arch, --gpu, --python for a Python the
 * prebuilt images lack, and --answer private_deps=true (init has no flag for it), so that
 * copying it reaches the same files as the answers did. malloc'd. */
char *byoc_decision_init_command(const byoc_decision *d, const char *dir);

/* {"verdict", "recipe", "reasons": [{"rule", "text", "effect"}], "answers": {key: {"value",
 * "source", "evidence"?}}, "init": {"recipe", "language", "arch", "gpu", "python", "private_deps"}}. Caller decrefs. */
json_t *byoc_decision_to_json(const byoc_decision *d, const byoc_answers *a);

#endif
