/* core/strmap: the string-keyed hash table behind the Dockerfile parser's
 * variables and stage names. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/str.h"
#include "core/strmap.h"

int main(void)
{
    byoc_strmap m = BYOC_STRMAP_INIT;
    size_t v = 99;
    CHECK(!byoc_strmap_get_str(&m, "absent", &v)); /* an empty map answers */
    CHECK_INT(v, 99);

    byoc_strmap_put_str(&m, "a", 1);
    byoc_strmap_put_str(&m, "", 2); /* the empty key is a key */
    CHECK(byoc_strmap_get_str(&m, "a", &v) && v == 1);
    CHECK(byoc_strmap_get_str(&m, "", &v) && v == 2);
    byoc_strmap_put_str(&m, "a", 3); /* put again: the value changes, the count does not */
    CHECK(byoc_strmap_get_str(&m, "a", &v) && v == 3);
    CHECK_INT(m.len, 2);
    CHECK(byoc_strmap_get_str(&m, "a", NULL));

    /* growth keeps every key */
    char key[32];
    for (size_t i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "k%zu", i);
        byoc_strmap_put_str(&m, key, i);
    }
    CHECK_INT(m.len, 20002);
    size_t wrong = 0;
    for (size_t i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "k%zu", i);
        if (!byoc_strmap_get_str(&m, key, &v) || v != i)
            wrong++;
    }
    CHECK_INT(wrong, 0);
    CHECK(!byoc_strmap_get_str(&m, "k20000", NULL));

    /* a prefix looked up in place, its hash carried forward part by part */
    const char *path = "dir/sub/file";
    uint64_t h = byoc_fnv1a(BYOC_FNV1A_SEED, path, 3);
    byoc_strmap_put(&m, path, 3, h, 7);
    CHECK(byoc_strmap_get_str(&m, "dir", &v) && v == 7);
    h = byoc_fnv1a(h, path + 3, 4);
    CHECK_INT(h, byoc_fnv1a(BYOC_FNV1A_SEED, "dir/sub", 7));
    CHECK(!byoc_strmap_get(&m, path, 7, h, NULL));
    byoc_strmap_put(&m, path, 7, h, 8);
    CHECK(byoc_strmap_get_str(&m, "dir/sub", &v) && v == 8);
    CHECK(!byoc_strmap_get_str(&m, "dir/", NULL)); /* lengths differ, so keys differ */

    byoc_strmap_clear(&m); /* leaves it empty and usable */
    CHECK_INT(m.len, 0);
    CHECK(!byoc_strmap_get_str(&m, "a", NULL));
    byoc_strmap_put_str(&m, "again", 1);
    CHECK(byoc_strmap_get_str(&m, "again", &v) && v == 1);
    byoc_strmap_clear(&m);
    return check_done();
}
