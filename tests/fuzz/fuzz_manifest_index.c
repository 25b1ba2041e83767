/* fuzz_manifest_index: an OCI image index or Docker manifest list from a
 * registry (docker/manifest.h), as images --repository and preflight read it:
 * the platforms it lists, the entry picked for a platform, and the text
 * byoc prints about them (byoc/imageplatforms.h). Input: the manifest body.
 * Platforms and attestations counted never exceed the entries; a picked entry
 * is one of the index's, for that os and architecture, no attestation, with a
 * well-formed sha256 digest; the text, made printable, has no control
 * character, whatever is missing or of the wrong type. */
#include <jansson.h>

#include "byoc/imageplatforms.h"
#include "core/utf8.h"
#include "docker/manifest.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

static bool sha256_digest(const char *d)
{
    if (!d || strncmp(d, "sha256:", 7) != 0 || strlen(d) != 71)
        return false;
    for (const char *p = d + 7; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return false;
    return true;
}

static void check_entry(const json_t *index, const char *os, const char *arch, size_t att)
{
    byoc_buf present = BYOC_BUF_INIT;
    size_t att2 = 0;
    const json_t *e = byoc_manifest_index_entry(index, os, arch, &present, &att2);
    FUZZ_ASSERT(att2 == att);
    if (e) {
        bool listed = false;
        size_t i;
        json_t *m;
        json_array_foreach(json_object_get(index, "manifests"), i, m) listed = listed || m == e;
        FUZZ_ASSERT(listed);
        const json_t *plat = json_object_get(e, "platform");
        FUZZ_ASSERT(strcmp(json_string_value(json_object_get(plat, "os")), os) == 0);
        FUZZ_ASSERT(strcmp(json_string_value(json_object_get(plat, "architecture")), arch) == 0);
        FUZZ_ASSERT(sha256_digest(json_string_value(json_object_get(e, "digest"))));
        FUZZ_ASSERT(!json_object_get(json_object_get(e, "annotations"), "vnd.docker.reference.type"));
    }
    byoc_buf_clear(&present);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (!j)
        return 0;
    (void)byoc_manifest_is_index(json_string_value(json_object_get(j, "mediaType")));
    size_t att = 0;
    json_t *list = byoc_manifest_index_platforms(j, &att);
    FUZZ_ASSERT(json_is_array(list));
    FUZZ_ASSERT(json_array_size(list) + att <= json_array_size(json_object_get(j, "manifests")));
    size_t i;
    json_t *p;
    json_array_foreach(list, i, p) FUZZ_ASSERT(json_is_string(p));
    check_entry(j, "linux", "amd64", att);
    check_entry(j, "linux", "arm64", att);
    check_entry(j, "unknown", "unknown", att);

    /* the row's text, as images --repository and the image browser print it */
    json_t *im = json_object();
    json_object_set_new(im, "platforms", list);
    json_object_set_new(im, "attestations", json_integer((json_int_t)att));
    char *text = byoc_image_platforms_text(im);
    FUZZ_ASSERT(text != NULL);
    byoc_printable_inplace(text);
    fuzz_assert_printable(text);
    free(text);
    json_object_set_new(im, "platforms_error", json_string("not read"));
    text = byoc_image_platforms_text(im);
    FUZZ_ASSERT(text && strstr(text, "not read"));
    free(text);
    json_decref(im);
    json_decref(j);
    return 0;
}
