/* docker/container_files: the list of what is put into a container (a
 * directory is listed once, a file's directory chain, the items kept as
 * given). The tar it becomes and the reads out of a container need an
 * engine: integration/test_local_run.py and test_local_hostile.py. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "docker/container_files.h"

static size_t count_path(const byoc_put_list *l, const char *path)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += strcmp(l->items[i].path, path) == 0;
    return n;
}

int main(void)
{
    byoc_put_list l = {0};
    byoc_put_list_add_dir(&l, "opt/ml/input");
    byoc_put_list_add_dir(&l, "opt/ml/input");
    CHECK_INT(l.n, 1);
    CHECK_STR(l.items[0].path, "opt/ml/input/");
    CHECK_INT(l.items[0].kind, BYOC_PUT_DIR);

    byoc_put_list_add_dir_chain(&l, "opt/ml/input/data/train", "a/b/c.csv");
    CHECK_INT(count_path(&l, "opt/ml/input/data/train/"), 1);
    CHECK_INT(count_path(&l, "opt/ml/input/data/train/a/"), 1);
    CHECK_INT(count_path(&l, "opt/ml/input/data/train/a/b/"), 1);
    CHECK_INT(count_path(&l, "opt/ml/input/data/train/a/b/c.csv/"), 0);
    size_t before = l.n;
    byoc_put_list_add_dir_chain(&l, "opt/ml/input/data/train", "a/d.csv");
    CHECK_INT(l.n, before); /* every directory was there already */

    byoc_put_list_add(&l, BYOC_PUT_FILE, "opt/ml/input/data/train/a/d.csv", "/host/d.csv", NULL, 0);
    byoc_put_list_add(&l, BYOC_PUT_FILE, "opt/ml/input/data/train/a/d.csv", "/host/d.csv", NULL, 0);
    CHECK_INT(count_path(&l, "opt/ml/input/data/train/a/d.csv"), 2); /* only directories are folded */
    byoc_put_list_add(&l, BYOC_PUT_MEM, "opt/ml/input/config/x.json", NULL, "{}xyz", 2);
    const byoc_put_item *m = &l.items[l.n - 1];
    CHECK_INT(m->kind, BYOC_PUT_MEM);
    CHECK_INT(m->len, 2);
    CHECK_STR(m->data, "{}");
    CHECK(m->host == NULL);
    CHECK_STR(l.items[l.n - 2].host, "/host/d.csv");

    byoc_put_list_clear(&l);
    CHECK(l.items == NULL && l.n == 0);
    byoc_put_list_clear(&l);
    return check_done();
}
