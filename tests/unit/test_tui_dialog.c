/* Dialogs: a confirmation defaults to No (Enter says no until the user moves
 * to Yes), y/n answer directly, Esc is no; message dialogs close on any
 * answer; input dialogs edit, validate and refuse bad values; the box fits
 * the screen. */
#include <string.h>

#include "check.h"
#include "dialog.h"
#include "keys.h"

static bool not_empty(const char *v, char *msg, size_t size, void *ud)
{
    (void)ud;
    if (!*v) {
        snprintf(msg, size, "a name is needed");
        return false;
    }
    return true;
}

int main(void)
{
    tui_dialog d;
    tui_dialog_confirm(&d, "Delete?", "Delete the repository amazon-braket-x?", "Delete", NULL);
    CHECK_INT(d.button, 0);                                   /* No is selected */
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_ENTER, TUI_ACT_ACCEPT), TUI_DIALOG_NO);
    CHECK_INT(tui_dialog_handle(&d, 'x', TUI_ACT_NONE), TUI_DIALOG_OPEN);
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_TAB, TUI_ACT_SWITCH), TUI_DIALOG_OPEN);
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_ENTER, TUI_ACT_ACCEPT), TUI_DIALOG_YES);
    CHECK_INT(tui_dialog_handle(&d, 'n', TUI_ACT_NO), TUI_DIALOG_NO);
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_ESC, TUI_ACT_CANCEL), TUI_DIALOG_NO);
    CHECK_INT(tui_dialog_handle(&d, 'y', TUI_ACT_YES), TUI_DIALOG_YES);
    CHECK_STR(d.yes_label, "Delete");
    CHECK_STR(d.no_label, "No");
    tui_ctx chain[2];
    CHECK_INT(tui_dialog_contexts(&d, chain), 1);
    CHECK_INT(chain[0], TUI_CTX_DIALOG);
    tui_rect r = tui_dialog_layout(&d, 80, 24);
    CHECK(r.w <= 70 && r.w >= 36);
    CHECK(r.x >= 0 && r.x + r.w <= 80 && r.y >= 0 && r.y + r.h <= 24);
    r = tui_dialog_layout(&d, 20, 6);                         /* tiny screens: still inside */
    CHECK(r.x >= 0 && r.x + r.w <= 20 && r.y >= 0 && r.y + r.h <= 6);
    tui_dialog_free(&d);

    tui_dialog_message(&d, "Done", "Pushed.");
    CHECK_INT(tui_dialog_handle(&d, 'z', TUI_ACT_NONE), TUI_DIALOG_OPEN);
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_ESC, TUI_ACT_CANCEL), TUI_DIALOG_YES);
    tui_dialog_free(&d);

    tui_dialog_input(&d, "Tag", "Tag for the image:", "", not_empty, NULL);
    CHECK_INT(tui_dialog_contexts(&d, chain), 2);
    CHECK_INT(chain[0], TUI_CTX_EDIT);
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_ENTER, TUI_ACT_ACCEPT), TUI_DIALOG_OPEN);
    CHECK_STR(d.msg, "a name is needed");
    CHECK_INT(tui_dialog_handle(&d, 'y', TUI_ACT_NONE), TUI_DIALOG_OPEN);   /* y is text here */
    CHECK_STR(d.msg, "");
    tui_dialog_handle(&d, '1', TUI_ACT_NONE);
    CHECK_STR(tui_edit_text(&d.input), "y1");
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_ENTER, TUI_ACT_ACCEPT), TUI_DIALOG_YES);
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_ESC, TUI_ACT_CANCEL), TUI_DIALOG_NO);
    tui_dialog_free(&d);
    return check_done();
}
