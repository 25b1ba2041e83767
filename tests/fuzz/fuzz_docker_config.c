/* fuzz_docker_config: the user's docker config.json as `byoc push
 * --docker-config` rewrites it (docker/registry_auth.h): whatever was there,
 * the result is JSON holding the new auths entry, mode 0600, and every other
 * top-level member kept; a file byoc cannot understand is refused untouched.
 * Also the X-Registry-Auth encoding of arbitrary credentials.
 * Input: the existing config.json. */
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "docker/registry_auth.h"
#include "fuzz.h"

static char dir[256], path[300];

static void cleanup(void)
{
    unlink(path);
    char tmp[320];
    snprintf(tmp, sizeof tmp, "%s/config.json.tmp", dir);
    unlink(tmp);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    fuzz_scratch_dir(dir, sizeof dir, "dockercfg");
    snprintf(path, sizeof path, "%s/config.json", dir);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_ASSERT(f != NULL);
    if (size)
        FUZZ_ASSERT(fwrite(data, 1, size, f) == size);
    fclose(f);
    json_t *before = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);

    char note[256];
    byoc_err err;
    byoc_err_clear(&err);
    int rc = byoc_docker_config_store_auth(path, "registry.example:5000", "AWS", "pw-0123456789", note, sizeof note,
                                           &err);
    json_t *after = json_load_file(path, 0, NULL);
    if (rc == 0) {
        FUZZ_ASSERT(json_is_object(after));
        json_t *entry = json_object_get(json_object_get(after, "auths"), "registry.example:5000");
        FUZZ_ASSERT(json_is_string(json_object_get(entry, "auth")));
        struct stat st;
        FUZZ_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
        if (json_is_object(before)) {
            const char *k;
            json_t *v;
            json_object_foreach(before, k, v) {
                if (strcmp(k, "auths") != 0)
                    FUZZ_ASSERT(json_equal(v, json_object_get(after, k)));
            }
        }
    } else {
        FUZZ_ASSERT(err.kind != BYOC_OK);
        /* refused: the file is as it was */
        size_t len = 0;
        FILE *g = fopen(path, "rb");
        FUZZ_ASSERT(g != NULL);
        char *back = byoc_xmalloc(size + 2);
        len = fread(back, 1, size + 1, g);
        fclose(g);
        FUZZ_ASSERT(len == size && (size == 0 || memcmp(back, data, size) == 0));
        free(back);
    }
    json_decref(before);
    json_decref(after);

    char *user = fuzz_cstr(data, size < 64 ? size : 64);
    char *hdr = byoc_registry_auth_header(user, "pw", "host:5000");
    FUZZ_ASSERT(hdr != NULL);
    for (const char *c = hdr; *c; c++)
        FUZZ_ASSERT(*c != '+' && *c != '/');
    free(hdr);
    free(user);
    /* Each input registers its own header as a secret; a real byoc registers a
     * handful per process. Without this the list grows by one per execution and
     * redaction (a scan of every secret on every error) slows the run to a crawl. */
    byoc_secret_clear_all();
    return 0;
}
