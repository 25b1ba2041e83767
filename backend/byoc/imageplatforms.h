/* imageplatforms: which platforms an image in ECR holds, read from the
 * registry (an ECR token and GET /v2/<repository>/manifests/<digest>), for
 * the image browsers. An OCI index or Docker manifest list names its entries'
 * platforms; BuildKit's attestation entries are counted apart
 * (docker/manifest.h). A single-platform manifest says nothing of its
 * platform without a second read (its config), so only indexes are read. */
#ifndef BYOC_BYOC_IMAGEPLATFORMS_H
#define BYOC_BYOC_IMAGEPLATFORMS_H

#include <jansson.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/task.h"

/* For each image of doc (byoc_ecr_images_json's {"images": [...]}) whose
 * media_type is an index, add "platforms": ["linux/amd64", ...] and
 * "attestations": N, read from the registry of its "repository" URI (one
 * token, one GET per index; at most max_reads, 0: 100). An index that could
 * not be read gets "platforms_error" with why, never a guess. Returns the
 * number of indexes read; -1 with err when no registry login was possible
 * (each index then has "platforms_error" saying so). */
int byoc_ecr_images_add_platforms(byoc_aws_client *ecr, byoc_task *t, json_t *doc, int max_reads, byoc_err *err);

/* Give each index of doc that has neither "platforms" nor "platforms_error"
 * the error why: for a reader that could not even start. */
void byoc_ecr_images_platforms_unread(json_t *doc, const char *why);

/* What the image browsers say of an image's platforms, from what
 * byoc_ecr_images_add_platforms added to it: "linux/amd64, linux/arm64 +1
 * attestation", "no image platform, 2 attestations", or "unknown (why)";
 * NULL when it added nothing (not an index). As the registry wrote it:
 * callers draw or print it through the printable pass. malloc'd. */
char *byoc_image_platforms_text(const json_t *im);

#endif
