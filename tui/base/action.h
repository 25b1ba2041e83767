/* action: the one table of user actions. Each row says what an action is
 * called (its name is also its `:` command), which keys trigger it by
 * default, in which context, and one line of help. The key bindings, the
 * help screen, the hint bar and the command prompt's completion are all
 * generated from this table, so they cannot drift apart.
 *
 * Key resolution walks a chain of contexts from the most specific (the
 * focused widget) to TUI_CTX_GLOBAL; the first row binding the key wins.
 * When the chain starts with a text-entry context (EDIT), printable keys are
 * text and never actions. No two rows of one context share a key
 * (tui_actions_check() proves it; a unit test asserts it).
 *
 * Adding an action: add its id to tui_action_id, then one row per context it
 * works in to the table in action.c (name, keys, help, hint rank). The help
 * screen, the hint bar and `:` completion pick it up; the screen that owns
 * the context handles ev->action in its key() (shell.h). byoc refuses to
 * start, and the unit test fails, if a key is bound twice in a context. */
#ifndef BYOC_TUI_ACTION_H
#define BYOC_TUI_ACTION_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    TUI_CTX_GLOBAL,   /* everywhere but text entry and dialogs */
    TUI_CTX_STEP,     /* the content of a step screen */
    TUI_CTX_SIDEBAR,  /* the step list on the left, when it has the focus */
    TUI_CTX_LIST,     /* a list/table widget */
    TUI_CTX_FORM,     /* a form widget */
    TUI_CTX_CHOICE,   /* a choice or toggle field of a form */
    TUI_CTX_EDIT,     /* any one-line text entry (form fields, filters, prompt) */
    TUI_CTX_PROMPT,   /* the `:` command prompt */
    TUI_CTX_LOG,      /* a log view */
    TUI_CTX_PAGE,     /* a scrolling page of text: step information, help */
    TUI_CTX_DECIDE,   /* the Decide step (its answers and verdict) */
    TUI_CTX_BUILD,    /* the Build step (settings, lint, build log) */
    TUI_CTX_IMAGES,   /* the image browser */
    TUI_CTX_RUN,      /* the Run step (job form, submit, local run) */
    TUI_CTX_REVIEW,   /* a request shown before it is sent */
    TUI_CTX_MONITOR,  /* the Monitor step (jobs table) */
    TUI_CTX_JOB,      /* one job's detail view */
    TUI_CTX_METRICS,  /* the job view's Metrics tab (the chart) */
    TUI_CTX_PUSH,     /* the Push step */
    TUI_CTX_PERMIT,   /* the Permit step */
    TUI_CTX_ECR,      /* the image browser's ECR side (repositories, their images) */
    TUI_CTX_WELCOME,  /* the welcome page (a directory without byoc.json) */
    TUI_CTX_HELP,     /* the help screen (its filter) */
    TUI_CTX_DIALOG,   /* a modal dialog (listed last in help) */
    TUI_CTX_COUNT
} tui_ctx;

typedef enum {
    TUI_ACT_NONE = 0,
    /* global */
    TUI_ACT_HELP, TUI_ACT_COMMAND, TUI_ACT_BACK, TUI_ACT_QUIT, TUI_ACT_GOTO,
    TUI_ACT_NEXT_STEP, TUI_ACT_PREV_STEP, TUI_ACT_REDRAW, TUI_ACT_SUSPEND,
    TUI_ACT_WHOLE,    /* show the texts the screen cut, whole (whole.h) */
    /* focus */
    TUI_ACT_SIDEBAR, TUI_ACT_OPEN,
    /* movement, shared by lists, logs, help, the sidebar */
    TUI_ACT_UP, TUI_ACT_DOWN, TUI_ACT_PAGE_UP, TUI_ACT_PAGE_DOWN, TUI_ACT_TOP, TUI_ACT_BOTTOM,
    /* lists */
    TUI_ACT_FILTER, TUI_ACT_SORT, TUI_ACT_REVERSE,
    /* forms */
    TUI_ACT_NEXT_FIELD, TUI_ACT_PREV_FIELD, TUI_ACT_SUBMIT, TUI_ACT_CHOICE_PREV, TUI_ACT_CHOICE_NEXT,
    /* text entry */
    TUI_ACT_CURSOR_LEFT, TUI_ACT_CURSOR_RIGHT, TUI_ACT_LINE_START, TUI_ACT_LINE_END,
    TUI_ACT_DELETE_BACK, TUI_ACT_DELETE, TUI_ACT_KILL_LINE, TUI_ACT_KILL_WORD,
    TUI_ACT_ACCEPT, TUI_ACT_CANCEL,
    /* prompt */
    TUI_ACT_COMPLETE, TUI_ACT_HISTORY_PREV, TUI_ACT_HISTORY_NEXT,
    /* logs */
    TUI_ACT_FOLLOW, TUI_ACT_WRAP, TUI_ACT_TIMESTAMPS, TUI_ACT_SEARCH, TUI_ACT_NEXT_MATCH,
    TUI_ACT_PREV_MATCH,
    /* dialogs */
    TUI_ACT_YES, TUI_ACT_NO, TUI_ACT_SWITCH,
    /* step screens: decide, build, the image browser */
    TUI_ACT_SCAFFOLD, TUI_ACT_REFRESH, TUI_ACT_RESET, TUI_ACT_BUILD, TUI_ACT_STOP, TUI_ACT_LINT,
    TUI_ACT_FINDINGS, TUI_ACT_PUSH_THIS, TUI_ACT_IMAGES, TUI_ACT_TAG, TUI_ACT_REMOVE,
    /* run, monitor, push, permit */
    TUI_ACT_SEND, TUI_ACT_SHOW_JOB, TUI_ACT_CANCEL_JOB, TUI_ACT_RESULTS, TUI_ACT_NEXT_TAB,
    TUI_ACT_X_AXIS, TUI_ACT_STATUS_FILTER, TUI_ACT_USE_IN_JOB, TUI_ACT_ALLOW, TUI_ACT_REVOKE,
    TUI_ACT_CHECK_PULL, TUI_ACT_BRAKET_PREFIX, TUI_ACT_FORCE,
    /* the image browser: local images <-> ECR */
    TUI_ACT_IMAGE_SOURCE,
    TUI_ACT_PREFLIGHT,   /* the review page: run the preflight checks again */
    TUI_ACT_PREFLIGHT_SMOKE, /* ... and a short local run of the job */
    TUI_ACT_MEASURE,     /* the Decide step: time pip install -r requirements.txt (again: cancel) */
    TUI_ACT_METRIC_NEXT, TUI_ACT_METRIC_PREV, /* the Metrics tab: which metric the chart shows */
    /* the welcome page's three choices */
    TUI_ACT_START_HERE, TUI_ACT_OPEN_DIR, TUI_ACT_SAMPLE,
    TUI_ACT_COUNT
} tui_action_id;

typedef struct tui_action {
    tui_ctx ctx;
    tui_action_id id;
    const char *name;      /* lower-case-with-dashes; the `:` command */
    const char *keys;      /* default keys, space-separated key names (keys.h) */
    const char *keys_label;/* how help shows the keys when a list is too long ("1-6"), or NULL */
    const char *arg;       /* the command's argument ("STEP"), or NULL */
    int hint;              /* hint bar priority, 1 first, 0 never shown: when the row is full, the lower
                              rank wins across the whole focus chain, a tie goes to the more specific
                              context (so a screen's 4th action can lose to a log's 2nd: hintbar.h) */
    const char *hint_label;/* short label for the hint bar, or NULL for the name */
    const char *help;      /* one line */
} tui_action;

/* The table and its length. */
const tui_action *tui_actions(size_t *count);
/* The parsed keys of row i (0-terminated, at most TUI_ACTION_MAX_KEYS). */
#define TUI_ACTION_MAX_KEYS 8
const int *tui_action_keys(size_t row);
/* Human name of a context ("Lists"). */
const char *tui_ctx_title(tui_ctx ctx);

/* The row that key triggers along the chain (most specific first), or NULL.
 * If chain[0] is a text context and the key is printable, NULL. */
const tui_action *tui_action_lookup(const tui_ctx *chain, size_t n, int key);
/* The first row for an action id (its name, help) or NULL. */
const tui_action *tui_action_get(tui_action_id id);
/* The key a sentence names for action id in ctx (else in any context): its first one-character
 * key ("e" of "Enter e"), else its first key ("Enter"), as help names it. Messages that tell the
 * user a key ask here, so they follow the table. Returns buf ("?" when no row binds the action). */
const char *tui_action_key(tui_ctx ctx, tui_action_id id, char *buf, size_t size);
/* The key that goes to step `step` (0-based): that place among the goto row's keys ("2"), so a
 * text that names a step by its key follows the table. Returns buf ("?" when none). */
const char *tui_action_step_key(int step, char *buf, size_t size);
/* The row for a `:` command name: the exact name, else the only name that
 * starts with it. NULL (and *ambiguous set when several match) otherwise. */
const tui_action *tui_action_by_name(const char *name, bool *ambiguous);
/* The key label shown in help and hints ("q, Esc" / keys_label). Returns buf. */
char *tui_action_keys_text(const tui_action *a, char *buf, size_t size);
/* Distinct action names starting with prefix, sorted; calls fn for each and
 * returns how many. */
size_t tui_action_complete(const char *prefix, void (*fn)(const char *name, void *ud), void *ud);
/* Check the table: every key name parses, no two rows of one context share a
 * key, one name per id. Returns 0, or -1 with a description in msg. */
int tui_actions_check(char *msg, size_t size);

#endif
