/* screen_ecr: the image browser's ECR side, pushed over the local images
 * (key e there; e, i, or q/Esc on the repositories comes back).
 *
 * First the repositories of the account and region (ecr_model.h: name, URI,
 * image count, created, tag mutability, scan on push); Enter opens one: its
 * images over every DescribeImages page (tags, short digest, size, pushed
 * at, scan status, and "local" when an engine image has that digest in its
 * RepoDigests); an image that is an OCI index or Docker manifest list gets
 * its platforms in the detail line once they are read from the registry, in
 * the background after the listing ("platforms: linux/amd64 +1 attestation",
 * or "unknown (why)"); Enter on an image shows its URI, digest, scan findings
 * and those platforms; q/Esc goes back to the repositories. `/` filters and
 * s/S sort both lists.
 * d deletes the selected image (BatchDeleteImage by digest; asks first, No is
 * the default) and shows the result or the service's error; u hands the
 * image URI to Run. Every call is a task (ecr_tasks.h): the listings are
 * background tasks, the delete a normal one. */
#ifndef BYOC_TUI_SCREEN_ECR_H
#define BYOC_TUI_SCREEN_ECR_H

#include "shell.h"

tui_screen *tui_screen_ecr_new(tui_app *app);

#endif
