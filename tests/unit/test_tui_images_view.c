/* The image browser's tables: one row per repository:tag from the engine's
 * listing (via the real byoc_image_rows), what each row acts on, how many
 * tags an image has, the selection kept across a refresh, sorting by size
 * in bytes, and the layers with the command that made each. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/buf.h"
#include "images_model.h"

static char **strs(const char *a, const char *b)
{
    char **v = byoc_xcalloc(3, sizeof *v);
    size_t n = 0;
    if (a)
        v[n++] = byoc_xstrdup(a);
    if (b)
        v[n++] = byoc_xstrdup(b);
    return v;
}

static void listing(byoc_image_list *l)
{
    l->n = 3;
    l->items = byoc_xcalloc(3, sizeof *l->items);
    l->items[0] = (byoc_image_summary){byoc_xstrdup("sha256:aaaa1111bbbb2222cccc"), strs("app:1", "app:latest"), 2,
                                       strs("app@sha256:dddd", NULL), 1, 1700000000, 3 * 1048576};
    l->items[1] = (byoc_image_summary){byoc_xstrdup("sha256:eeee3333ffff4444"), strs(NULL, NULL), 0, strs(NULL, NULL), 0,
                                       1600000000, 512};
    l->items[2] = (byoc_image_summary){byoc_xstrdup("sha256:9999888877776666"), strs("base/img:2", NULL), 1,
                                       strs(NULL, NULL), 0, 1650000000, 2 * 1073741824LL};
}

static long find_ref(tui_list *l, const char *ref)
{
    for (size_t i = 0; i < l->nrows; i++)
        if (strcmp(((tui_image_entry *)l->rows[i].data)->ref, ref) == 0)
            return (long)i;
    return -1;
}

int main(void)
{
    char buf[64];
    tui_image_short_id("sha256:0123456789abcdef0123", buf, sizeof buf);
    CHECK_STR(buf, "0123456789ab");
    tui_image_short_id("abc", buf, sizeof buf);
    CHECK_STR(buf, "abc");
    tui_image_time(0, buf, sizeof buf);
    CHECK_STR(buf, "-");
    tui_image_time(1700000000, buf, sizeof buf);
    CHECK_INT(strlen(buf), 16);                         /* "YYYY-MM-DD HH:MM": sorts as text */

    tui_layer_command("/bin/sh -c #(nop)  CMD [\"sh\"]", buf, sizeof buf);
    CHECK_STR(buf, "CMD [\"sh\"]");
    tui_layer_command("/bin/sh -c apt-get update", buf, sizeof buf);
    CHECK_STR(buf, "RUN apt-get update");
    tui_layer_command("|2 A=1 B=two /bin/sh -c echo \"$A\"", buf, sizeof buf);
    CHECK_STR(buf, "RUN echo \"$A\"");
    tui_layer_command("/bin/sh -c #(nop) COPY file:abc in /app.txt ", buf, sizeof buf);
    CHECK_STR(buf, "COPY file:abc in /app.txt ");
    tui_layer_command("", buf, sizeof buf);
    CHECK_STR(buf, "-");
    tui_layer_command(NULL, buf, sizeof buf);
    CHECK_STR(buf, "-");

    byoc_image_list il;
    listing(&il);
    tui_list l;
    tui_list_init(&l, tui_images_columns, sizeof tui_images_columns / sizeof tui_images_columns[0]);
    tui_images_fill(&l, &il);
    CHECK_INT(l.nrows, 4);                              /* app:1, app:latest, base/img:2, <none> */
    long a1 = find_ref(&l, "app:1"), al = find_ref(&l, "app:latest"), b2 = find_ref(&l, "base/img:2");
    long none = find_ref(&l, "sha256:eeee3333ffff4444");
    CHECK(a1 >= 0 && al >= 0 && b2 >= 0 && none >= 0);
    tui_image_entry *e = l.rows[a1].data;
    CHECK_STR(e->repository, "app");
    CHECK_STR(e->tag, "1");
    CHECK_INT(e->image_refs, 2);                        /* deleting app:1 only untags */
    CHECK_STR(e->digest, "sha256:dddd");
    CHECK_STR(l.rows[a1].cells[2], "aaaa1111bbbb");
    CHECK_STR(l.rows[a1].cells[3], "3.0 MiB");
    e = l.rows[none].data;
    CHECK_STR(e->repository, "<none>");
    CHECK_STR(e->tag, "<none>");
    CHECK_INT(e->image_refs, 1);                        /* an untagged image is deleted by its id */
    CHECK_INT(((tui_image_entry *)l.rows[b2].data)->image_refs, 1);

    /* filter, then sort by size (bytes, not text) */
    tui_list_set_filter(&l, "app");
    CHECK_INT(tui_list_visible(&l), 2);
    tui_list_set_filter(&l, "");
    tui_list_sort_by(&l, 3, false);
    CHECK_INT(tui_list_view_row(&l, 0), none);          /* 512 B */
    CHECK_INT(tui_list_view_row(&l, 3), b2);            /* 2.0 GiB */

    /* the selection stays on its ref across a refresh */
    CHECK(tui_images_select_ref(&l, "base/img:2"));
    byoc_image_list_clear(&il);
    listing(&il);
    tui_images_fill(&l, &il);
    CHECK_STR(((tui_image_entry *)tui_list_selected_data(&l))->ref, "base/img:2");
    CHECK_INT(l.sort_col, 3);                           /* and so does the sort */
    CHECK(!tui_images_select_ref(&l, "nope:1"));

    /* layers */
    byoc_image_history h = {0};
    h.n = 2;
    h.items = byoc_xcalloc(2, sizeof *h.items);
    h.items[0] = (byoc_image_layer){byoc_xstrdup("sha256:1"), 1700000000, byoc_xstrdup("|1 W=x /bin/sh -c make"),
                                    NULL, 0, 2048, NULL};
    h.items[1] = (byoc_image_layer){byoc_xstrdup("<missing>"), 1600000000, byoc_xstrdup(""), NULL, 0, 0, NULL};
    tui_list ly;
    tui_list_init(&ly, tui_layers_columns, 3);
    tui_layers_fill(&ly, &h);
    CHECK_INT(ly.nrows, 2);
    CHECK_STR(ly.rows[0].cells[0], "2.0 KiB");
    CHECK_STR(ly.rows[0].cells[2], "RUN make");
    CHECK_STR(ly.rows[0].data, "|1 W=x /bin/sh -c make");   /* the detail shows it whole */
    CHECK_STR(ly.rows[1].cells[2], "-");
    tui_layers_fill(&ly, NULL);
    CHECK_INT(ly.nrows, 0);

    byoc_image_history_clear(&h);
    tui_list_clear(&ly);
    tui_list_clear(&l);
    byoc_image_list_clear(&il);
    return check_done();
}
