/* Picking an index's entry for a platform (docker/manifest): attestation
 * entries never chosen but counted, the platforms listed as the index says
 * them, and an entry whose digest is no sha256 digest never followed (it
 * would go into a registry URL). */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/buf.h"
#include "docker/manifest.h"

#define D1 "sha256:1111111111111111111111111111111111111111111111111111111111111111"
#define D2 "sha256:2222222222222222222222222222222222222222222222222222222222222222"

static json_t *index_of(const char *text)
{
    json_error_t e;
    json_t *doc = json_loads(text, 0, &e);
    CHECK(doc != NULL);
    return doc;
}

static void test_buildkit_index(void)
{
    json_t *doc = index_of("{\"manifests\": ["
                           "{\"digest\": \"" D1 "\", \"platform\": {\"os\": \"linux\", \"architecture\": \"arm64\", "
                           "\"variant\": \"v8\"}},"
                           "{\"digest\": \"" D2 "\", \"platform\": {\"os\": \"linux\", \"architecture\": \"amd64\"}},"
                           "{\"digest\": \"" D1 "\", \"platform\": {\"os\": \"unknown\", \"architecture\": \"unknown\"}},"
                           "{\"digest\": \"" D1 "\", \"platform\": {\"os\": \"linux\", \"architecture\": \"amd64\"},"
                           " \"annotations\": {\"vnd.docker.reference.type\": \"attestation-manifest\"}}]}");
    byoc_buf present = BYOC_BUF_INIT;
    size_t att = 99;
    const json_t *e = byoc_manifest_index_entry(doc, "linux", "amd64", &present, &att);
    CHECK(e != NULL);
    CHECK_STR(json_string_value(json_object_get(e, "digest")), D2);
    CHECK_INT(att, 2);
    CHECK_STR(present.data, "linux/arm64/v8, linux/amd64");
    byoc_buf_clear(&present);
    size_t att2 = 0;
    json_t *list = byoc_manifest_index_platforms(doc, &att2);
    char *text = json_dumps(list, JSON_COMPACT);
    CHECK_STR(text, "[\"linux/arm64/v8\",\"linux/amd64\"]");
    CHECK_INT(att2, 2);
    free(text);
    json_decref(list);
    json_decref(doc);
}

static void test_no_match(void)
{
    /* The only amd64 entry's digest would put '../' in the URL: never picked, still listed. */
    json_t *doc = index_of("{\"manifests\": ["
                           "{\"digest\": \"sha256:../../v2/other/manifests/x\", \"platform\": "
                           "{\"os\": \"linux\", \"architecture\": \"amd64\"}},"
                           "{\"digest\": \"" D1 "\", \"platform\": {\"architecture\": \"s390x\"}},"
                           "7, null, {\"digest\": 5}]}");
    byoc_buf present = BYOC_BUF_INIT;
    size_t att = 99;
    CHECK(byoc_manifest_index_entry(doc, "linux", "amd64", &present, &att) == NULL);
    CHECK_INT(att, 0);
    CHECK(present.data && strstr(present.data, "linux/amd64") && strstr(present.data, "?/s390x"));
    byoc_buf_clear(&present);
    json_decref(doc);

    /* Not an index at all, or an empty one. */
    doc = index_of("{\"manifests\": 3}");
    CHECK(byoc_manifest_index_entry(doc, "linux", "amd64", NULL, NULL) == NULL);
    json_decref(doc);
    doc = index_of("{\"manifests\": []}");
    att = 5;
    CHECK(byoc_manifest_index_entry(doc, "linux", "amd64", NULL, &att) == NULL);
    CHECK_INT(att, 0);
    json_decref(doc);
}

int main(void)
{
    test_buildkit_index();
    test_no_match();
    return check_done();
}
