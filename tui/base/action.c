#include "action.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

#define G TUI_CTX_GLOBAL
#define ROW(ctx, id, name, keys, label, arg, hint, hint_label, help) \
    {ctx, TUI_ACT_##id, name, keys, label, arg, hint, hint_label, help}

static const tui_action table[] = {
    ROW(G, HELP, "help", "? F1", NULL, NULL, 1, NULL, "Show every key and command, by context"),
    ROW(G, BACK, "back", "q Esc", NULL, NULL, 7, NULL, "Go back; on the top level q quits"),
    ROW(G, COMMAND, "command", ":", NULL, NULL, 8, "cmd", "Open the command prompt (:goto build, :quit, ...)"),
    ROW(G, GOTO, "goto", "1 2 3 4 5 6", "1-6", "STEP", 9, "steps",
        "Go to a step: 1 Decide, 2 Build, 3 Push, 4 Permit, 5 Run, 6 Monitor"),
    ROW(G, NEXT_STEP, "next-step", "]", NULL, NULL, 0, NULL, "Go to the next step"),
    ROW(G, PREV_STEP, "prev-step", "[", NULL, NULL, 0, NULL, "Go to the previous step"),
    ROW(G, QUIT, "quit", "C-c", NULL, NULL, 0, NULL, "Quit byoc (asks first while a task runs)"),
    ROW(G, REDRAW, "redraw", "C-l", NULL, NULL, 0, NULL, "Redraw the whole screen"),
    /* Hinted only while something on screen is cut (hintbar.h); C-o also works in text fields. */
    ROW(G, WHOLE, "whole", "v C-o", NULL, NULL, 0, NULL,
        "Show whole what the screen cut: the message, a form error, a failure, a finding (scrolls, wraps)"),
    ROW(G, SUSPEND, "suspend", "C-z", NULL, NULL, 0, NULL, "Suspend byoc; resume it with fg"),

    ROW(TUI_CTX_STEP, SIDEBAR, "sidebar", "Tab Left", NULL, NULL, 6, NULL, "Move the focus to the step list"),

    ROW(TUI_CTX_SIDEBAR, UP, "up", "Up k", NULL, NULL, 1, "move", "Select the previous step"),
    ROW(TUI_CTX_SIDEBAR, DOWN, "down", "Down j", NULL, NULL, 0, NULL, "Select the next step"),
    ROW(TUI_CTX_SIDEBAR, TOP, "top", "Home g", NULL, NULL, 0, NULL, "Select the first step"),
    ROW(TUI_CTX_SIDEBAR, BOTTOM, "bottom", "End G", NULL, NULL, 0, NULL, "Select the last step"),
    ROW(TUI_CTX_SIDEBAR, OPEN, "open", "Enter Right Tab l", NULL, NULL, 2, NULL,
        "Move the focus into the selected step"),

    ROW(TUI_CTX_LIST, UP, "up", "Up k", NULL, NULL, 0, NULL, "Select the previous row"),
    ROW(TUI_CTX_LIST, DOWN, "down", "Down j", NULL, NULL, 0, NULL, "Select the next row"),
    ROW(TUI_CTX_LIST, PAGE_UP, "page-up", "PgUp C-b", NULL, NULL, 0, NULL, "One page up"),
    ROW(TUI_CTX_LIST, PAGE_DOWN, "page-down", "PgDn C-f Space", NULL, NULL, 0, NULL, "One page down"),
    ROW(TUI_CTX_LIST, TOP, "top", "Home g", NULL, NULL, 0, NULL, "Select the first row"),
    ROW(TUI_CTX_LIST, BOTTOM, "bottom", "End G", NULL, NULL, 0, NULL, "Select the last row"),
    ROW(TUI_CTX_LIST, OPEN, "open", "Enter", NULL, NULL, 1, NULL, "Open the selected row"),
    ROW(TUI_CTX_LIST, FILTER, "filter", "/", NULL, NULL, 2, NULL,
        "Filter the rows (case-insensitive substring; Esc clears)"),
    ROW(TUI_CTX_LIST, SORT, "sort", "s", NULL, NULL, 3, NULL, "Sort by the next column"),
    ROW(TUI_CTX_LIST, REVERSE, "reverse", "S", NULL, NULL, 0, NULL, "Reverse the sort order"),

    ROW(TUI_CTX_FORM, NEXT_FIELD, "next-field", "Tab Down", NULL, NULL, 1, "next", "Go to the next field"),
    ROW(TUI_CTX_FORM, PREV_FIELD, "prev-field", "S-Tab Up", NULL, NULL, 2, "prev", "Go to the previous field"),
    ROW(TUI_CTX_FORM, ACCEPT, "accept", "Enter", NULL, NULL, 0, NULL,
        "Next field; on the last field, submit"),
    ROW(TUI_CTX_FORM, SUBMIT, "submit", "C-s", NULL, NULL, 3, NULL, "Validate every field and submit the form"),

    ROW(TUI_CTX_CHOICE, CHOICE_PREV, "choice-prev", "Left h", NULL, NULL, 1, "change", "Previous choice (toggle: flip)"),
    ROW(TUI_CTX_CHOICE, CHOICE_NEXT, "choice-next", "Right l Space", NULL, NULL, 0, NULL, "Next choice (toggle: flip)"),

    ROW(TUI_CTX_EDIT, CURSOR_LEFT, "cursor-left", "Left", NULL, NULL, 0, NULL, "Move the cursor left"),
    ROW(TUI_CTX_EDIT, CURSOR_RIGHT, "cursor-right", "Right", NULL, NULL, 0, NULL, "Move the cursor right"),
    ROW(TUI_CTX_EDIT, LINE_START, "line-start", "Home C-a", NULL, NULL, 0, NULL, "Move to the start of the text"),
    ROW(TUI_CTX_EDIT, LINE_END, "line-end", "End C-e", NULL, NULL, 0, NULL, "Move to the end of the text"),
    ROW(TUI_CTX_EDIT, DELETE_BACK, "delete-back", "Backspace", NULL, NULL, 0, NULL, "Delete the character before the cursor"),
    ROW(TUI_CTX_EDIT, DELETE, "delete", "Del C-d", NULL, NULL, 0, NULL, "Delete the character under the cursor"),
    ROW(TUI_CTX_EDIT, KILL_LINE, "kill-line", "C-u", NULL, NULL, 3, "clear", "Delete from the start of the text to the cursor"),
    ROW(TUI_CTX_EDIT, KILL_WORD, "kill-word", "C-w", NULL, NULL, 0, NULL, "Delete the word before the cursor"),
    ROW(TUI_CTX_EDIT, ACCEPT, "accept", "Enter", NULL, NULL, 1, NULL, "Accept the text"),
    ROW(TUI_CTX_EDIT, CANCEL, "cancel", "Esc", NULL, NULL, 2, NULL, "Cancel"),

    ROW(TUI_CTX_PROMPT, COMPLETE, "complete", "Tab", NULL, NULL, 1, NULL, "Complete the command name"),
    ROW(TUI_CTX_PROMPT, HISTORY_PREV, "history-prev", "Up", NULL, NULL, 0, NULL, "Previous command"),
    ROW(TUI_CTX_PROMPT, HISTORY_NEXT, "history-next", "Down", NULL, NULL, 0, NULL, "Next command"),

    ROW(TUI_CTX_LOG, UP, "up", "Up k", NULL, NULL, 0, NULL, "Scroll up one line (stops following)"),
    ROW(TUI_CTX_LOG, DOWN, "down", "Down j", NULL, NULL, 0, NULL, "Scroll down one line"),
    ROW(TUI_CTX_LOG, PAGE_UP, "page-up", "PgUp C-b", NULL, NULL, 0, NULL, "One page up (stops following)"),
    ROW(TUI_CTX_LOG, PAGE_DOWN, "page-down", "PgDn C-f Space", NULL, NULL, 0, NULL, "One page down"),
    ROW(TUI_CTX_LOG, TOP, "top", "Home g", NULL, NULL, 0, NULL, "Go to the oldest line (stops following)"),
    ROW(TUI_CTX_LOG, BOTTOM, "bottom", "End G", NULL, NULL, 0, NULL, "Go to the newest line"),
    ROW(TUI_CTX_LOG, FOLLOW, "follow", "F", NULL, NULL, 1, NULL, "Follow new lines (resume auto-scroll)"),
    ROW(TUI_CTX_LOG, WRAP, "wrap", "w", NULL, NULL, 2, NULL, "Wrap long lines on/off"),
    ROW(TUI_CTX_LOG, TIMESTAMPS, "timestamps", "t", NULL, NULL, 4, "time", "Show timestamps on/off"),
    ROW(TUI_CTX_LOG, SEARCH, "search", "/", NULL, NULL, 3, NULL, "Search the log (case-insensitive)"),
    ROW(TUI_CTX_LOG, NEXT_MATCH, "next-match", "n", NULL, NULL, 0, NULL, "Next match"),
    ROW(TUI_CTX_LOG, PREV_MATCH, "prev-match", "N", NULL, NULL, 0, NULL, "Previous match"),

    ROW(TUI_CTX_PAGE, UP, "up", "Up k", NULL, NULL, 0, NULL, "Scroll up"),
    ROW(TUI_CTX_PAGE, DOWN, "down", "Down j", NULL, NULL, 1, "scroll", "Scroll down"),
    ROW(TUI_CTX_PAGE, PAGE_UP, "page-up", "PgUp C-b", NULL, NULL, 0, NULL, "One page up"),
    ROW(TUI_CTX_PAGE, PAGE_DOWN, "page-down", "PgDn C-f Space", NULL, NULL, 2, "page", "One page down"),
    ROW(TUI_CTX_PAGE, TOP, "top", "Home g", NULL, NULL, 0, NULL, "Go to the top"),
    ROW(TUI_CTX_PAGE, BOTTOM, "bottom", "End G", NULL, NULL, 0, NULL, "Go to the end"),

    ROW(TUI_CTX_HELP, FILTER, "filter", "/", NULL, NULL, 1, NULL,
        "Filter the keys by key, command or description (case-insensitive; Enter keeps, Esc clears)"),

    ROW(TUI_CTX_DIALOG, YES, "yes", "y Y", NULL, NULL, 1, NULL, "Answer yes"),
    ROW(TUI_CTX_DIALOG, NO, "no", "n N", NULL, NULL, 2, NULL, "Answer no"),
    ROW(TUI_CTX_DIALOG, SWITCH, "switch", "Tab S-Tab Left Right h l", "Tab,S-Tab,Left,Right,h,l", NULL, 0, NULL, "Move between the buttons"),
    ROW(TUI_CTX_DIALOG, ACCEPT, "accept", "Enter", NULL, NULL, 3, NULL, "Press the selected button"),
    ROW(TUI_CTX_DIALOG, CANCEL, "cancel", "Esc q", NULL, NULL, 4, NULL, "Close the dialog (answers no)"),

    ROW(G, IMAGES, "images", "i", NULL, NULL, 0, NULL, "Open the image browser: local images, layers, tag, delete, push; ECR (e)"),

    ROW(TUI_CTX_DECIDE, OPEN, "open", "Enter", NULL, NULL, 1, "answers",
        "Change the answers (Esc, or Enter on the last one, comes back to the verdict)"),
    ROW(TUI_CTX_DECIDE, SCAFFOLD, "scaffold", "s", NULL, NULL, 2, NULL,
        "Scaffold this: write the recipe's Dockerfile and files into a directory (byoc init)"),
    ROW(TUI_CTX_DECIDE, REFRESH, "refresh", "r", NULL, NULL, 3, "rescan", "Scan the project again (your answers stay)"),
    ROW(TUI_CTX_DECIDE, MEASURE, "measure", "m", NULL, NULL, 4, NULL,
        "Measure what installing requirements.txt costs at every job start (pip in a throwaway container; "
        "m again cancels)"),
    ROW(TUI_CTX_DECIDE, RESET, "reset", "C-r", NULL, NULL, 0, NULL,
        "Reset the focused answer to its scanned or default value"),

    ROW(TUI_CTX_BUILD, BUILD, "build", "b", NULL, NULL, 1, NULL,
        "Lint, then build the image with these settings (saves them to byoc.json)"),
    ROW(TUI_CTX_BUILD, STOP, "stop", "c", NULL, NULL, 2, "cancel", "Cancel the running lint or build"),
    ROW(TUI_CTX_BUILD, OPEN, "open", "Enter e", NULL, NULL, 3, "settings", "Change the build settings (Esc comes back)"),
    ROW(TUI_CTX_BUILD, PUSH_THIS, "push-this", "p", NULL, NULL, 4, "push", "Go to Push with the image just built"),
    ROW(TUI_CTX_BUILD, IMAGES, "images", "i", NULL, NULL, 5, NULL, "Open the image browser"),
    ROW(TUI_CTX_BUILD, LINT, "lint", "l", NULL, NULL, 6, NULL, "Lint the project now, without building"),
    ROW(TUI_CTX_BUILD, FINDINGS, "findings", "f", NULL, NULL, 7, NULL,
        "Show the lint findings or the build log in the lower pane"),

    ROW(TUI_CTX_IMAGES, PUSH_THIS, "push-this", "p", NULL, NULL, 1, "push", "Go to Push with the selected image"),
    ROW(TUI_CTX_IMAGES, TAG, "tag", "t", NULL, NULL, 2, NULL, "Tag the selected image with a new repository:tag"),
    ROW(TUI_CTX_IMAGES, REMOVE, "remove", "d Del", NULL, NULL, 3, "delete",
        "Delete the selected tag, or the image when it is the last (asks first; No is the default)"),
    ROW(TUI_CTX_IMAGES, REFRESH, "refresh", "r", NULL, NULL, 4, NULL, "List the images again"),
    ROW(TUI_CTX_IMAGES, IMAGE_SOURCE, "source", "e", NULL, NULL, 5, "ECR",
        "Switch to ECR: the repositories, then a repository's images (e again: back to the local images)"),

    ROW(TUI_CTX_ECR, OPEN, "open", "Enter", NULL, NULL, 1, NULL,
        "Open the selected repository's images; on an image, show its URI, digest and scan findings"),
    ROW(TUI_CTX_ECR, REMOVE, "remove", "d Del", NULL, NULL, 2, "delete",
        "Delete the selected image from ECR, with all its tags (asks first; No is the default)"),
    ROW(TUI_CTX_ECR, USE_IN_JOB, "use-in-job", "u", NULL, NULL, 5, "use in job",
        "Put the selected image's URI into the job form and go to Run"),
    ROW(TUI_CTX_ECR, REFRESH, "refresh", "r", NULL, NULL, 4, NULL, "List the repositories or the images again"),
    ROW(TUI_CTX_ECR, IMAGE_SOURCE, "source", "e", NULL, NULL, 3, "local", "Back to the local images"),

    ROW(TUI_CTX_RUN, OPEN, "open", "Enter e", NULL, NULL, 1, "form", "Edit the job form (Esc comes back)"),
    ROW(TUI_CTX_RUN, SUBMIT, "submit", "s", NULL, NULL, 2, "review",
        "Validate the form and show the exact request before sending it"),
    ROW(TUI_CTX_RUN, SHOW_JOB, "show-job", "m", NULL, NULL, 3, "monitor", "Open the job just created in Monitor"),
    ROW(TUI_CTX_RUN, STOP, "stop", "c", NULL, NULL, 4, "cancel", "Cancel the running submit or local run"),

    ROW(TUI_CTX_MONITOR, OPEN, "open", "Enter", NULL, NULL, 1, "detail",
        "Open the selected job: status timeline, config, logs, metrics"),
    ROW(TUI_CTX_MONITOR, STATUS_FILTER, "status-filter", "f", NULL, NULL, 2, "status",
        "Show only one status: all, active, completed, failed, cancelled (cycles)"),
    ROW(TUI_CTX_MONITOR, REFRESH, "refresh", "r", NULL, NULL, 3, NULL, "List the jobs now (the list also refreshes itself)"),
    ROW(TUI_CTX_MONITOR, CANCEL_JOB, "cancel-job", "c", NULL, NULL, 4, "cancel",
        "Cancel the selected job (asks first; No is the default)"),

    ROW(TUI_CTX_JOB, NEXT_TAB, "next-tab", "Tab", NULL, NULL, 1, "tab", "Next tab: overview, logs, metrics"),
    ROW(TUI_CTX_JOB, CANCEL_JOB, "cancel-job", "c", NULL, NULL, 2, "cancel",
        "Cancel this job (asks first; No is the default)"),
    ROW(TUI_CTX_JOB, RESULTS, "results", "d", NULL, NULL, 3, "download",
        "Download the job's results (model.tar.gz) into <project>/results/<job>"),
    ROW(TUI_CTX_JOB, REFRESH, "refresh", "r", NULL, NULL, 0, NULL, "Ask the service now"),

    ROW(TUI_CTX_METRICS, METRIC_NEXT, "metric-next", "] Right l", NULL, NULL, 1, "next metric",
        "Chart the job's next metric (the names are listed above the chart)"),
    ROW(TUI_CTX_METRICS, METRIC_PREV, "metric-prev", "[ Left h", NULL, NULL, 2, "prev metric",
        "Chart the job's previous metric"),
    ROW(TUI_CTX_METRICS, X_AXIS, "x-axis", "x", NULL, NULL, 3, NULL,
        "Chart by time (since the first point) or by iteration number"),

    ROW(TUI_CTX_PUSH, PUSH_THIS, "push-this", "p", NULL, NULL, 1, "push", "Push the image to the repository"),
    ROW(TUI_CTX_PUSH, OPEN, "open", "e", NULL, NULL, 2, "form", "Edit the source, repository and tag (Esc comes back)"),
    ROW(TUI_CTX_PUSH, USE_IN_JOB, "use-in-job", "u", NULL, NULL, 3, "use in job",
        "Put the pushed image URI into the job form and go to Run"),
    ROW(TUI_CTX_PUSH, BRAKET_PREFIX, "braket-prefix", "a", NULL, NULL, 4, "amazon-braket-",
        "Prefix the repository name with amazon-braket- (the default job role pulls only from those)"),
    ROW(TUI_CTX_PUSH, REFRESH, "refresh", "r", NULL, NULL, 0, NULL, "List the repositories again"),

    ROW(TUI_CTX_PERMIT, OPEN, "open", "Enter e", NULL, NULL, 1, "form", "Edit the repository, principals and role (Esc comes back)"),
    ROW(TUI_CTX_PERMIT, ALLOW, "allow", "a", NULL, NULL, 2, NULL,
        "Grant pull to the principals: shows the diff, asks before applying (* needs a second, explicit yes)"),
    ROW(TUI_CTX_PERMIT, REVOKE, "revoke", "x", NULL, NULL, 3, NULL, "Revoke the principals' pull: shows the diff, asks first"),
    ROW(TUI_CTX_PERMIT, CHECK_PULL, "check-pull", "k", NULL, NULL, 4, "can pull?",
        "Check whether the execution role can pull from the repository"),
    ROW(TUI_CTX_PERMIT, REFRESH, "refresh", "r", NULL, NULL, 5, "policy", "Show the repository's current policy"),

    ROW(TUI_CTX_WELCOME, START_HERE, "start-here", "h", NULL, NULL, 2, "here",
        "Start a project in this directory: Decide, pre-answered by a scan of it"),
    ROW(TUI_CTX_WELCOME, OPEN_DIR, "open-dir", "o", NULL, NULL, 3, "other dir",
        "Work in another directory (it must exist): byoc moves there and scans it"),
    ROW(TUI_CTX_WELCOME, SAMPLE, "sample", "s", NULL, NULL, 4, NULL,
        "Make a small sample project in a new directory (as byoc init does) and open it in Decide"),
    ROW(TUI_CTX_WELCOME, OPEN, "open", "Enter", NULL, NULL, 1, "choose", "Do the selected choice"),
    ROW(TUI_CTX_WELCOME, UP, "up", "Up k", NULL, NULL, 5, "move", "Select the previous choice"),
    ROW(TUI_CTX_WELCOME, DOWN, "down", "Down j", NULL, NULL, 0, NULL, "Select the next choice"),

    ROW(TUI_CTX_REVIEW, SEND, "send", "y Enter", NULL, NULL, 1, NULL,
        "Send this request; asks first while a preflight check failed (q or Esc: back to the form)"),
    ROW(TUI_CTX_REVIEW, PREFLIGHT, "preflight", "p", NULL, NULL, 2, NULL,
        "Run the preflight checks again (they start by themselves when the page opens)"),
    ROW(TUI_CTX_REVIEW, PREFLIGHT_SMOKE, "preflight-smoke", "P", NULL, NULL, 0, NULL,
        "Run the checks and a smoke run: the job in local mode on the engine for up to 60 s, timing its first output"),
    ROW(TUI_CTX_REVIEW, NEXT_TAB, "next-tab", "Tab", NULL, NULL, 3, "checks",
        "Move the focus between the request and the preflight checks (the focused one scrolls)"),
};

#define NROWS (sizeof table / sizeof table[0])

static int parsed[NROWS][TUI_ACTION_MAX_KEYS + 1];
static int parse_state;   /* 0 not yet, 1 ok, -1 a key name did not parse */
static char parse_error[160];

static void parse_keys(void)
{
    if (parse_state)
        return;
    parse_state = 1;
    for (size_t i = 0; i < NROWS; i++) {
        char copy[128];
        snprintf(copy, sizeof copy, "%s", table[i].keys);
        size_t n = 0;
        for (char *save = NULL, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            int k = tui_key_parse(tok);
            if (k < 0 || n >= TUI_ACTION_MAX_KEYS) {
                parse_state = -1;
                snprintf(parse_error, sizeof parse_error, "action %s (%s): bad or too many keys at \"%s\"",
                         table[i].name, tui_ctx_title(table[i].ctx), tok);
                continue;
            }
            parsed[i][n++] = k;
        }
        parsed[i][n] = 0;
    }
}

const tui_action *tui_actions(size_t *count)
{
    if (count)
        *count = NROWS;
    return table;
}

const int *tui_action_keys(size_t row)
{
    parse_keys();
    return row < NROWS ? parsed[row] : parsed[0] + TUI_ACTION_MAX_KEYS;
}

const char *tui_ctx_title(tui_ctx ctx)
{
    static const char *titles[TUI_CTX_COUNT] = {
        [TUI_CTX_GLOBAL] = "Everywhere",
        [TUI_CTX_STEP] = "Step screens",
        [TUI_CTX_SIDEBAR] = "Step list (sidebar)",
        [TUI_CTX_LIST] = "Lists and tables",
        [TUI_CTX_FORM] = "Forms",
        [TUI_CTX_CHOICE] = "Choice and toggle fields",
        [TUI_CTX_EDIT] = "Text entry",
        [TUI_CTX_PROMPT] = "Command prompt",
        [TUI_CTX_LOG] = "Log views",
        [TUI_CTX_PAGE] = "Pages (step information, help)",
        [TUI_CTX_DIALOG] = "Dialogs",
        [TUI_CTX_DECIDE] = "Decide step",
        [TUI_CTX_BUILD] = "Build step",
        [TUI_CTX_IMAGES] = "Image browser",
        [TUI_CTX_RUN] = "Run step",
        [TUI_CTX_REVIEW] = "Request review",
        [TUI_CTX_MONITOR] = "Monitor step (jobs)",
        [TUI_CTX_JOB] = "Job detail",
        [TUI_CTX_METRICS] = "Job detail: Metrics tab",
        [TUI_CTX_PUSH] = "Push step",
        [TUI_CTX_PERMIT] = "Permit step",
        [TUI_CTX_ECR] = "Image browser: ECR",
        [TUI_CTX_WELCOME] = "Welcome page",
        [TUI_CTX_HELP] = "Help screen",
    };
    return (unsigned)ctx < TUI_CTX_COUNT ? titles[ctx] : "?";
}

/* Whether printable keys are text in this context (EDIT, PROMPT). */
static bool tui_ctx_is_text(tui_ctx ctx)
{
    return ctx == TUI_CTX_EDIT || ctx == TUI_CTX_PROMPT;
}

const tui_action *tui_action_lookup(const tui_ctx *chain, size_t n, int key)
{
    parse_keys();
    if (n > 0 && tui_ctx_is_text(chain[0]) && tui_key_is_text(key))
        return NULL;
    for (size_t c = 0; c < n; c++)
        for (size_t i = 0; i < NROWS; i++) {
            if (table[i].ctx != chain[c])
                continue;
            for (const int *k = parsed[i]; *k; k++)
                if (*k == key)
                    return &table[i];
        }
    return NULL;
}

const tui_action *tui_action_get(tui_action_id id)
{
    for (size_t i = 0; i < NROWS; i++)
        if (table[i].id == id)
            return &table[i];
    return NULL;
}

const char *tui_action_key(tui_ctx ctx, tui_action_id id, char *buf, size_t size)
{
    size_t any = NROWS;
    for (size_t i = 0; i < NROWS; i++) {
        if (table[i].id != id)
            continue;
        if (table[i].ctx == ctx) {
            any = i;
            break;
        }
        if (any == NROWS)
            any = i;
    }
    const int *keys = any < NROWS ? tui_action_keys(any) : NULL;
    if (!keys || !keys[0]) {
        snprintf(buf, size, "?");
        return buf;
    }
    for (size_t k = 0; keys[k]; k++)
        if (tui_key_name(keys[k], buf, size)[0] && !buf[1])
            return buf;
    return tui_key_name(keys[0], buf, size);
}

const char *tui_action_step_key(int step, char *buf, size_t size)
{
    const tui_action *row = tui_action_get(TUI_ACT_GOTO);
    const int *keys = row ? tui_action_keys((size_t)(row - table)) : NULL;
    int n = 0;
    while (keys && keys[n] && n <= step)
        n++;
    if (step < 0 || !keys || n <= step) {
        snprintf(buf, size, "?");
        return buf;
    }
    return tui_key_name(keys[step], buf, size);
}

const tui_action *tui_action_by_name(const char *name, bool *ambiguous)
{
    if (ambiguous)
        *ambiguous = false;
    if (!name || !*name)
        return NULL;
    for (size_t i = 0; i < NROWS; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    const tui_action *found = NULL;
    size_t len = strlen(name);
    for (size_t i = 0; i < NROWS; i++) {
        if (strncmp(table[i].name, name, len) != 0)
            continue;
        if (found && found->id != table[i].id) {
            if (ambiguous)
                *ambiguous = true;
            return NULL;
        }
        if (!found)
            found = &table[i];
    }
    return found;
}

char *tui_action_keys_text(const tui_action *a, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    buf[0] = '\0';
    if (a->keys_label) {
        snprintf(buf, size, "%s", a->keys_label);
        return buf;
    }
    size_t row = (size_t)(a - table);
    size_t len = 0;
    for (const int *k = tui_action_keys(row); *k; k++) {
        char name[24];
        tui_key_name(*k, name, sizeof name);
        int w = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
    }
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t tui_action_complete(const char *prefix, void (*fn)(const char *name, void *ud), void *ud)
{
    const char *names[NROWS];
    size_t n = 0, len = strlen(prefix ? prefix : "");
    for (size_t i = 0; i < NROWS; i++) {
        if (len && strncmp(table[i].name, prefix, len) != 0)
            continue;
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = strcmp(names[j], table[i].name) == 0;
        if (!seen)
            names[n++] = table[i].name;
    }
    qsort(names, n, sizeof names[0], cmp_str);
    for (size_t i = 0; fn && i < n; i++)
        fn(names[i], ud);
    return n;
}

int tui_actions_check(char *msg, size_t size)
{
    parse_keys();
    if (parse_state < 0) {
        snprintf(msg, size, "%s", parse_error);
        return -1;
    }
    for (size_t i = 0; i < NROWS; i++) {
        for (size_t j = i + 1; j < NROWS; j++) {
            if (table[i].id == table[j].id && strcmp(table[i].name, table[j].name) != 0) {
                snprintf(msg, size, "action id of %s is also named %s", table[i].name, table[j].name);
                return -1;
            }
            if (table[i].id != table[j].id && strcmp(table[i].name, table[j].name) == 0) {
                snprintf(msg, size, "name %s is used by two different actions", table[i].name);
                return -1;
            }
            if (table[i].ctx != table[j].ctx)
                continue;
            if (table[i].id == table[j].id) {
                snprintf(msg, size, "action %s appears twice in %s", table[i].name, tui_ctx_title(table[i].ctx));
                return -1;
            }
            for (const int *a = parsed[i]; *a; a++)
                for (const int *b = parsed[j]; *b; b++)
                    if (*a == *b) {
                        char kn[24];
                        snprintf(msg, size, "%s: key %s is bound to both %s and %s", tui_ctx_title(table[i].ctx),
                                 tui_key_name(*a, kn, sizeof kn), table[i].name, table[j].name);
                        return -1;
                    }
        }
    }
    return 0;
}
