/* image_text: how the image browsers and the Build screen write an image's
 * id and time, shared by the local (images_model) and ECR (ecr_model) lists. */
#ifndef BYOC_TUI_IMAGE_TEXT_H
#define BYOC_TUI_IMAGE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* "3f2a9c1b0d4e" from "sha256:3f2a9c1b0d4e..." (at most 12 characters). */
void tui_image_short_id(const char *id, char *buf, size_t size);
/* "2024-05-01 14:03" in local time, "-" for 0. */
void tui_image_time(int64_t t, char *buf, size_t size);

#endif
