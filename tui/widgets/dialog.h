/* dialog: modal dialogs drawn over everything: a message, a yes/no
 * confirmation whose default answer is No, and a one-line text input with
 * an optional validation callback.
 *
 * A dialog never hides what it asks about (issue 19 point 4): the asker says
 * what that is (tui_about) and tui_dialog_place_for() puts the box beside
 * it: below or above a marked region (a selected row), docked under the
 * content box when it is about the whole content (a diff: the content box
 * gives up the rows, so all of it stays visible and scrollable), centred
 * when it is about nothing on screen, and as a two-line question on the
 * message lines when no box fits.
 *
 * Pure (dialog.c): the state, what each key does and the placement.
 * Drawing: dialog_draw.c.
 * Screens normally open dialogs through the app (shell.h: tui_app_confirm,
 * tui_app_message, tui_app_input), which routes keys and calls back. */
#ifndef BYOC_TUI_DIALOG_H
#define BYOC_TUI_DIALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "draw.h"
#include "editline.h"

typedef enum { TUI_DIALOG_MESSAGE, TUI_DIALOG_CONFIRM, TUI_DIALOG_INPUT } tui_dialog_kind;
typedef enum { TUI_DIALOG_OPEN, TUI_DIALOG_YES, TUI_DIALOG_NO } tui_dialog_result;

typedef bool (*tui_input_check_fn)(const char *value, char *msg, size_t msgsize, void *ud);

typedef struct tui_dialog {
    tui_dialog_kind kind;
    char *title, *text;
    char *yes_label, *no_label;
    int button;          /* CONFIRM: 0 = the No button (the default), 1 = Yes */
    tui_edit input;      /* INPUT */
    tui_input_check_fn check;
    void *check_ud;
    char msg[160];       /* INPUT: why the value was refused */
} tui_dialog;

void tui_dialog_message(tui_dialog *d, const char *title, const char *text);
/* yes_label/no_label may be NULL ("Yes"/"No"). The No button starts selected. */
void tui_dialog_confirm(tui_dialog *d, const char *title, const char *text, const char *yes_label,
                        const char *no_label);
void tui_dialog_input(tui_dialog *d, const char *title, const char *text, const char *initial,
                      tui_input_check_fn check, void *ud);
void tui_dialog_clear(tui_dialog *d);
/* MESSAGE: any of accept/cancel/yes/no closes (YES). CONFIRM: yes -> YES,
 * no/cancel -> NO, switch moves between buttons, accept presses the
 * selected one. INPUT: text keys edit, accept validates (YES or stays open
 * with a message), cancel -> NO. */
tui_dialog_result tui_dialog_handle(tui_dialog *d, int key, tui_action_id act);
size_t tui_dialog_contexts(const tui_dialog *d, tui_ctx *out);

/* What a dialog asks about, which it must not cover. */
typedef enum {
    TUI_ABOUT_NOTHING,  /* nothing on screen (quit, a file named in the text): centred */
    TUI_ABOUT_MARK,     /* the region the asking screen marked while drawing (tui_screen.about):
                           the box goes below it, else above it */
    TUI_ABOUT_PANE,     /* the asking screen's whole content (a diff, a list of checks): the box
                           docks under the content box, which shrinks to make room */
} tui_about;

typedef enum {
    TUI_PLACE_CENTRED,
    TUI_PLACE_BESIDE,   /* below or above the mark */
    TUI_PLACE_DOCKED,   /* the bottom rows of the content box */
    TUI_PLACE_LINES,    /* the two message lines at the bottom of the screen */
} tui_place_form;

typedef struct tui_dialog_place {
    tui_place_form form;
    tui_rect box;       /* LINES: the two lines */
    bool compact;       /* no blank row above and below the text */
    int cut;            /* DOCKED: the rows taken from the bottom of the content box */
} tui_dialog_place;

/* The fewest rows a docked dialog leaves inside the content box; with fewer
 * the screens have no room to show what is asked about. */
#define TUI_DIALOG_MIN_CONTENT 10

/* Where d goes on a w x h screen whose content box (with its border) is
 * `content`; `mark` is the marked region for TUI_ABOUT_MARK (h 0: nothing
 * marked, so centred). BESIDE stays within rows 1 to h-2 (the top bar and
 * the hint line stay), full size if it fits, else compact; DOCKED needs
 * TUI_DIALOG_MIN_CONTENT rows left inside the box; otherwise LINES. */
tui_dialog_place tui_dialog_place_for(const tui_dialog *d, tui_about about, int w, int h, tui_rect content,
                                      tui_rect mark);

void tui_dialog_draw(tui_dialog *d, WINDOW *win, const tui_dialog_place *at);

#endif
