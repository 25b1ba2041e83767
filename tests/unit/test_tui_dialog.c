/* Dialogs: a confirmation defaults to No (Enter says no until the user moves
 * to Yes), y/n answer directly, Esc is no; message dialogs close on any
 * answer; input dialogs edit, validate and refuse bad values; the box fits
 * the screen and never covers what it asks about (a marked row, the content
 * it docks under), else it takes the two message lines. */
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

static bool overlaps(tui_rect a, tui_rect b)
{
    return a.y < b.y + b.h && b.y < a.y + a.h && a.x < b.x + b.w && b.x < a.x + a.w;
}

/* About a marked row: below it, or above it near the bottom, never over it,
 * never over the top bar or the hint line; compact when a full box does
 * not fit; nothing marked: centred. */
static void check_beside(const tui_dialog *d, tui_rect content)
{
    for (int y = 2; y <= 21; y++) {
        tui_rect row = {y, content.x, 1, content.w};
        tui_dialog_place at = tui_dialog_place_for(d, TUI_ABOUT_MARK, 80, 24, content, row);
        CHECK_INT(at.form, TUI_PLACE_BESIDE);
        CHECK(!overlaps(at.box, row));
        CHECK(at.box.y >= 1 && at.box.y + at.box.h <= 23);
    }
    tui_rect top = {2, content.x, 1, content.w}, bottom = {21, content.x, 1, content.w};
    CHECK_INT(tui_dialog_place_for(d, TUI_ABOUT_MARK, 80, 24, content, top).box.y, 3);
    tui_dialog_place at = tui_dialog_place_for(d, TUI_ABOUT_MARK, 80, 24, content, bottom);
    CHECK_INT(at.box.y + at.box.h, 21);
    CHECK(!at.compact);
    tui_rect tall = {2, content.x, 16, content.w};          /* 1 row above, 5 below: only compact fits */
    at = tui_dialog_place_for(d, TUI_ABOUT_MARK, 80, 24, content, tall);
    CHECK_INT(at.form, TUI_PLACE_BESIDE);
    CHECK(at.compact);
    CHECK(!overlaps(at.box, tall));
    tui_rect nothing = {0, 0, 0, 0};
    CHECK_INT(tui_dialog_place_for(d, TUI_ABOUT_MARK, 80, 24, content, nothing).form, TUI_PLACE_CENTRED);
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
    const tui_rect content = {1, 18, 21, 62}, none = {0, 0, 0, 0};   /* the content box at 80x24 */
    tui_dialog_place at = tui_dialog_place_for(&d, TUI_ABOUT_NOTHING, 80, 24, content, none);
    tui_rect r = at.box;
    CHECK_INT(at.form, TUI_PLACE_CENTRED);
    CHECK(r.w <= 70 && r.w >= 36);
    CHECK(r.x >= 0 && r.x + r.w <= 80 && r.y >= 0 && r.y + r.h <= 24);
    r = tui_dialog_place_for(&d, TUI_ABOUT_NOTHING, 20, 6, content, none).box;   /* tiny screens: still inside */
    CHECK(r.x >= 0 && r.x + r.w <= 20 && r.y >= 0 && r.y + r.h <= 6);
    check_beside(&d, content);
    tui_dialog_clear(&d);

    /* about the whole content (a diff): docked under the content box, which keeps the rest */
    tui_dialog_confirm(&d, "Apply the policy change?", "The diff above is the whole change; apply it?", "Apply",
                       NULL);
    at = tui_dialog_place_for(&d, TUI_ABOUT_PANE, 80, 24, content, none);
    CHECK_INT(at.form, TUI_PLACE_DOCKED);
    CHECK(at.compact);
    CHECK_INT(at.box.y + at.box.h, content.y + content.h);    /* the box's last rows */
    CHECK_INT(at.box.x, content.x);
    CHECK_INT(at.box.w, content.w);
    CHECK_INT(at.cut, at.box.h);
    CHECK_INT(at.box.h, 2 + 1 + 1);                           /* borders, one line of text, the buttons */
    CHECK(content.h - at.cut - 2 >= TUI_DIALOG_MIN_CONTENT);
    tui_dialog_clear(&d);
    /* a question too long to dock and leave the content room: the two message lines */
    char long_text[2048] = "";
    for (int i = 0; i < 30; i++)
        strcat(long_text, "This sentence makes the question long. ");
    tui_dialog_confirm(&d, "Long", long_text, NULL, NULL);
    at = tui_dialog_place_for(&d, TUI_ABOUT_PANE, 80, 24, content, none);
    CHECK_INT(at.form, TUI_PLACE_LINES);
    CHECK_INT(at.box.y, 22);
    CHECK_INT(at.box.h, 2);
    CHECK_INT(at.cut, 0);
    tui_rect row = {12, 18, 1, 62};
    CHECK_INT(tui_dialog_place_for(&d, TUI_ABOUT_MARK, 80, 24, content, row).form, TUI_PLACE_LINES);
    tui_dialog_clear(&d);

    tui_dialog_message(&d, "Done", "Pushed.");
    CHECK_INT(tui_dialog_handle(&d, 'z', TUI_ACT_NONE), TUI_DIALOG_OPEN);
    CHECK_INT(tui_dialog_handle(&d, TUI_KEY_ESC, TUI_ACT_CANCEL), TUI_DIALOG_YES);
    tui_dialog_clear(&d);

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
    tui_dialog_clear(&d);
    return check_done();
}
