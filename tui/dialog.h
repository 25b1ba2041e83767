/* dialog: modal dialogs drawn over everything: a message, a yes/no
 * confirmation whose default answer is No, and a one-line text input with
 * an optional validation callback.
 *
 * Pure (dialog.c): the state and what each key does; tui_dialog_layout()
 * computes the box for a screen size. Drawing: dialog_draw.c.
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
void tui_dialog_free(tui_dialog *d);
/* MESSAGE: any of accept/cancel/yes/no closes (YES). CONFIRM: yes -> YES,
 * no/cancel -> NO, switch moves between buttons, accept presses the
 * selected one. INPUT: text keys edit, accept validates (YES or stays open
 * with a message), cancel -> NO. */
tui_dialog_result tui_dialog_handle(tui_dialog *d, int key, tui_action_id act);
size_t tui_dialog_contexts(const tui_dialog *d, tui_ctx *out);
/* The box for a screen of w x h: centred, at most 70 columns wide. */
tui_rect tui_dialog_layout(const tui_dialog *d, int w, int h);

void tui_dialog_draw(tui_dialog *d, WINDOW *win, int screen_w, int screen_h);

#endif
