/* What the image browsers (images --repository, the TUI's ECR list) say of
 * an image's platforms (byoc/imageplatforms.h): the platforms as the index
 * lists them with attestations counted apart, "unknown (why)" for an index
 * that could not be read, nothing for an image that is not an index; and a
 * reader that could not start marks every unread index with why, never
 * leaving one to look single-platform. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/imageplatforms.h"

static json_t *doc_of(const char *text)
{
    json_error_t e;
    json_t *doc = json_loads(text, 0, &e);
    CHECK(doc != NULL);
    return doc;
}

static void check_text(const char *im_json, const char *want)
{
    json_t *im = doc_of(im_json);
    char *got = byoc_image_platforms_text(im);
    if (want)
        CHECK_STR(got ? got : "(null)", want);
    else
        CHECK(got == NULL);
    free(got);
    json_decref(im);
}

static void test_text(void)
{
    check_text("{\"platforms\": [\"linux/amd64\", \"linux/arm64/v8\"], \"attestations\": 1}",
               "linux/amd64, linux/arm64/v8 +1 attestation");
    check_text("{\"platforms\": [\"linux/amd64\"], \"attestations\": 2}", "linux/amd64 +2 attestations");
    check_text("{\"platforms\": [\"linux/arm64/v8\"], \"attestations\": 0}", "linux/arm64/v8");
    check_text("{\"platforms\": [], \"attestations\": 3}", "no image platform, 3 attestations");
    check_text("{\"platforms\": []}", "no image platform");
    check_text("{\"platforms\": [\"linux/amd64\", 7]}", "linux/amd64, ?");
    check_text("{\"platforms_error\": \"MANIFEST_UNKNOWN: manifest unknown\"}",
               "unknown (MANIFEST_UNKNOWN: manifest unknown)");
    check_text("{\"media_type\": \"application/vnd.docker.distribution.manifest.v2+json\"}", NULL);
    check_text("{\"platforms\": \"linux/amd64\"}", NULL);
}

static void test_unread(void)
{
    json_t *doc = doc_of("{\"images\": ["
                         "{\"digest\": \"sha256:1\", \"media_type\": \"application/vnd.oci.image.index.v1+json\"},"
                         "{\"digest\": \"sha256:2\", \"media_type\": "
                         "\"application/vnd.docker.distribution.manifest.list.v2+json\", \"platforms\": [\"linux/amd64\"]},"
                         "{\"digest\": \"sha256:3\", \"media_type\": "
                         "\"application/vnd.docker.distribution.manifest.v2+json\"},"
                         "{\"digest\": \"sha256:4\", \"media_type\": \"application/vnd.oci.image.index.v1+json\","
                         " \"platforms_error\": \"earlier\"}]}");
    byoc_ecr_images_platforms_unread(doc, "no registry login: denied");
    const json_t *images = json_object_get(doc, "images");
    char *t0 = byoc_image_platforms_text(json_array_get(images, 0));
    char *t1 = byoc_image_platforms_text(json_array_get(images, 1));
    char *t2 = byoc_image_platforms_text(json_array_get(images, 2));
    char *t3 = byoc_image_platforms_text(json_array_get(images, 3));
    CHECK_STR(t0 ? t0 : "(null)", "unknown (no registry login: denied)");
    CHECK_STR(t1 ? t1 : "(null)", "linux/amd64");          /* read already: kept */
    CHECK(t2 == NULL);                                     /* not an index: nothing to read */
    CHECK_STR(t3 ? t3 : "(null)", "unknown (earlier)");
    free(t0);
    free(t1);
    free(t2);
    free(t3);
    byoc_ecr_images_platforms_unread(doc, NULL);           /* no reason given: still says so */
    json_decref(doc);
    doc = doc_of("{\"images\": [{\"digest\": \"sha256:1\", \"media_type\": \"application/vnd.oci.image.index.v1+json\"}]}");
    byoc_ecr_images_platforms_unread(doc, "");
    char *t = byoc_image_platforms_text(json_array_get(json_object_get(doc, "images"), 0));
    CHECK_STR(t ? t : "(null)", "unknown (not read)");
    free(t);
    json_decref(doc);
    byoc_ecr_images_platforms_unread(NULL, "x");           /* nothing to mark */
}

int main(void)
{
    test_text();
    test_unread();
    return check_done();
}
