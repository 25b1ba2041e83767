#include "filter.h"

bool tui_filter_key(tui_edit *edit, bool *typing, int key, tui_action_id act)
{
    if (act == TUI_ACT_ACCEPT) {
        *typing = false;
        return true;
    }
    if (act == TUI_ACT_CANCEL) {
        *typing = false;
        tui_edit_set(edit, "");
        return true;
    }
    return tui_edit_key(edit, key, act);
}
