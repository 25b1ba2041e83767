/* fuzz_ecr_images: an ECR DescribeImages reply (aws/ecr.h) as byoc images
 * --repository and the image browser list it. Input: the reply body. Only
 * object entries become images; tags stay NULL-terminated; the listing has one
 * object per image with each field of its type or null; its printable copy
 * holds no control character; an index whose platforms were not read says so,
 * whatever fields are missing or of the wrong type. */
#include <jansson.h>

#include "aws/ecr.h"
#include "byoc/imageplatforms.h"
#include "core/jsonprint.h"
#include "docker/manifest.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

static bool string_or_null(const json_t *v)
{
    return !v || json_is_string(v) || json_is_null(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (!j)
        return 0;
    byoc_ecr_image_list l;
    memset(&l, 0, sizeof l);
    byoc_ecr_images_from_reply(j, &l);
    byoc_ecr_images_from_reply(j, &l); /* a second page appends */
    size_t objects = 0, i;
    json_t *d;
    json_array_foreach(json_object_get(j, "imageDetails"), i, d) objects += json_is_object(d);
    FUZZ_ASSERT(l.n == 2 * objects);
    for (i = 0; i < l.n; i++) {
        FUZZ_ASSERT(l.items[i].tags != NULL && l.items[i].tags[l.items[i].n_tags] == NULL);
        for (size_t k = 0; k < l.items[i].n_tags; k++)
            FUZZ_ASSERT(l.items[i].tags[k] != NULL);
    }
    json_t *doc = byoc_ecr_images_json("123456789012.dkr.ecr.us-east-1.amazonaws.com/r", &l);
    json_t *images = json_object_get(doc, "images");
    FUZZ_ASSERT(json_array_size(images) == l.n);
    json_t *im;
    json_array_foreach(images, i, im)
    {
        FUZZ_ASSERT(json_is_array(json_object_get(im, "tags")));
        FUZZ_ASSERT(json_is_string(json_object_get(im, "image_uri")));
        FUZZ_ASSERT(string_or_null(json_object_get(im, "digest")) && string_or_null(json_object_get(im, "created")) &&
                    string_or_null(json_object_get(im, "media_type")));
        const json_t *sz = json_object_get(im, "size");
        FUZZ_ASSERT(json_is_integer(sz) || json_is_null(sz));
    }
    byoc_ecr_images_platforms_unread(doc, "not read");
    json_array_foreach(images, i, im)
        if (byoc_manifest_is_index(json_string_value(json_object_get(im, "media_type"))))
            FUZZ_ASSERT(json_is_string(json_object_get(im, "platforms_error")));
    json_t *shown = byoc_json_printable_copy(doc);
    fuzz_assert_printable_json(shown);
    json_array_foreach(json_object_get(shown, "images"), i, im)
    {
        char *text = byoc_image_platforms_text(im);
        if (text)
            fuzz_assert_printable(text);
        free(text);
    }
    json_decref(shown);
    json_decref(doc);
    byoc_ecr_image_list_clear(&l);
    json_decref(j);
    return 0;
}
