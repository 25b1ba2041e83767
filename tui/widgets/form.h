/* form: fields the user fills in (text, choice, number, toggle) with
 * per-field validation shown inline under the field.
 *
 * The model (form.c) is pure: fields, focus, editing through editline.h,
 * validation (required, number range, a per-field callback) and the focus
 * order. Drawing (form_draw.c): a label column, the values, the message of
 * an invalid field wrapped on the lines below it (at most TUI_FORM_MSG_ROWS:
 * a longer one is cut and noted for the `whole` key, whole.h, as is the
 * focused field's message), vertical scrolling to the focus.
 *
 * Usage from a screen:
 *     tui_form_init(&s->form);
 *     tui_form_add_text(&s->form, "job_name", "Job name", "", true, check_job_name, NULL);
 *     tui_form_add_choice(&s->form, "arch", "Architecture", (const char *[]){"amd64", "arm64"}, 2, 0);
 *     tui_form_add_number(&s->form, "count", "Instance count", 1, 1, 100, true);
 *     tui_form_add_toggle(&s->form, "local", "Run locally", false);
 *     in key():  switch (tui_form_handle(&s->form, ev->key, ev->action)) {
 *                case TUI_FORM_SUBMIT: ...values via tui_form_value(&s->form, "job_name")...
 *     focus contexts: tui_form_contexts(&s->form, chain);
 *     in draw(): h = tui_form_lines_at(&s->form, rect.w); ... tui_form_draw(&s->form, win, rect, focused); */
#ifndef BYOC_TUI_FORM_H
#define BYOC_TUI_FORM_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "draw.h"
#include "editline.h"

typedef enum { TUI_FIELD_TEXT, TUI_FIELD_CHOICE, TUI_FIELD_NUMBER, TUI_FIELD_TOGGLE } tui_field_kind;

typedef struct tui_form tui_form;
typedef struct tui_field tui_field;

/* Return true if value is fine; else write a short reason into msg. Called
 * after the built-in checks (required, number syntax and range) pass. */
typedef bool (*tui_validate_fn)(const tui_form *f, const tui_field *field, const char *value, char *msg,
                                size_t msgsize, void *ud);

struct tui_field {
    tui_field_kind kind;
    char *key;           /* the caller's name for the value */
    char *label;
    char *help;          /* shown dim beside an empty focused field, or NULL */
    char *origin;        /* where the value came from ("byoc.json"), shown dim after it while it is unchanged */
    char *origin_value;  /* the value as it came */
    bool required;
    tui_edit edit;       /* TEXT and NUMBER */
    char **choices;      /* CHOICE */
    size_t nchoices;
    size_t choice;
    bool on;             /* TOGGLE */
    long long min, max;  /* NUMBER */
    tui_validate_fn validate;
    void *validate_ud;
    char msg[512];       /* the validation message, "" when valid (a pattern and the value can be long) */
    bool touched;        /* validated at least once (left or submitted) */
};

struct tui_form {
    tui_field *fields;
    size_t count, cap;
    size_t focus;
    int top;             /* first screen line shown (vertical scroll) */
    int label_width;     /* computed from the labels, capped */
    int width;           /* columns of the last layout (tui_form_lines, draw): messages wrap to it;
                            0 before any (one line per message) */
    void *ud;            /* for the caller */
};

typedef enum {
    TUI_FORM_IGNORED,    /* not a form key: the screen/app may use it */
    TUI_FORM_HANDLED,
    TUI_FORM_SUBMIT,     /* submitted and every field is valid */
    TUI_FORM_INVALID,    /* submit refused: the focus moved to the first invalid field */
} tui_form_result;

void tui_form_init(tui_form *f);
void tui_form_clear(tui_form *f);
size_t tui_form_add_text(tui_form *f, const char *key, const char *label, const char *value, bool required,
                         tui_validate_fn validate, void *ud);
size_t tui_form_add_choice(tui_form *f, const char *key, const char *label, const char *const *choices,
                           size_t n, size_t initial);
size_t tui_form_add_number(tui_form *f, const char *key, const char *label, long long value, long long min,
                           long long max, bool required);
size_t tui_form_add_toggle(tui_form *f, const char *key, const char *label, bool on);
void tui_form_set_help(tui_form *f, size_t index, const char *help);
/* Set a text field's value from a source the user did not type ("byoc.json"): the form shows
 * "(from <origin>)" after it until the value changes. */
bool tui_form_set_from(tui_form *f, const char *key, const char *value, const char *origin);
/* The origin while the value is still the one it brought, else NULL. */
const char *tui_form_origin(const tui_form *f, const tui_field *fl);
/* Every field still holding a value from elsewhere, a line per origin, for beside the form (the
 * inline mark does not fit after a long value such as an ARN): "From byoc.json: Repository,
 * Execution role\nFrom last push: image URI". A label's group ("Code: ") is left out; "" when
 * there is none. */
void tui_form_origins_text(const tui_form *f, char *buf, size_t size);

tui_field *tui_form_field(tui_form *f, const char *key);
/* The value as text: TEXT/NUMBER the text, CHOICE the choice, TOGGLE "true"/"false". */
const char *tui_form_value(const tui_form *f, const char *key);
/* Set a value from text (CHOICE: one of the choices; TOGGLE: true/false/on/off/yes/no/1/0). */
bool tui_form_set_value(tui_form *f, const char *key, const char *value);
/* Validate one field (stores its message); true if valid. */
bool tui_form_validate_field(tui_form *f, size_t index);
/* Validate all; returns the number of invalid fields and focuses the first. */
size_t tui_form_validate(tui_form *f);

void tui_form_focus(tui_form *f, size_t index);
/* Keys: text keys edit the focused TEXT/NUMBER field (NUMBER: digits and a
 * leading '-' only); next/prev-field move (validating the field left);
 * accept moves on, or submits on the last field; submit validates all;
 * choice-prev/next change a CHOICE or flip a TOGGLE; editing actions edit. */
tui_form_result tui_form_handle(tui_form *f, int key, tui_action_id act);
/* Focus contexts for action lookup (room for 3): EDIT or CHOICE, then FORM. */
size_t tui_form_contexts(const tui_form *f, tui_ctx *out);

#define TUI_FORM_MSG_ROWS 6
/* Screen lines the form needs drawn `width` columns wide (a field is 1 line,
 * + its message's wrapped lines); the form keeps the width for the next calls. */
int tui_form_lines_at(tui_form *f, int width);
/* The same at the kept width (the last layout's or draw's). */
int tui_form_lines(const tui_form *f);
/* Lines of field i at the kept width (1, + its message's). */
int tui_form_field_lines(const tui_form *f, size_t i);
/* The columns of the label (with its marks), for a width. */
int tui_form_label_columns(const tui_form *f, int width);
/* Where field i's message goes for a width: under the value (*dx columns in) when "! msg" fits
 * there on one row, else wrapped across the whole width under the label; *w its columns.
 * Returns its rows (0 without a message; at most TUI_FORM_MSG_ROWS). */
int tui_form_msg_box(const tui_form *f, size_t i, int width, int *dx, int *w);
/* Keep the focused field (and its message) inside `height` lines. */
void tui_form_scroll(tui_form *f, int height);

/* Drawing (form_draw.c). */
void tui_form_draw(tui_form *f, WINDOW *win, tui_rect rect, bool focused);

#endif
