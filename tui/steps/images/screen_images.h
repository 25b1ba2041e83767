/* screen_images: the image browser, shown over any step (key i, :images).
 *
 * The local images on the Docker engine as a sortable, filterable table
 * (images_model.h); below it, the selected image's details and layers (size,
 * command), fetched a moment after the selection rests. Actions: Enter
 * moves into the layers (Enter on a layer shows its whole command; Esc comes
 * back), t tags the image, d deletes the tag or the image (asks first, No is
 * the default; offers a forced delete when the engine refuses), r lists
 * again, p hands the image to Push (flow.h) and goes there, e switches to the
 * ECR side (screen_ecr.h). The ECR column says "pushed" for an image that ECR
 * lists under one of its RepoDigests (asked after every listing, quietly:
 * without AWS access nothing is marked). Every engine call is a task; the
 * list, the layers and the ECR check are background tasks (quitting does not
 * ask about them), tag and delete are not. */
#ifndef BYOC_TUI_SCREEN_IMAGES_H
#define BYOC_TUI_SCREEN_IMAGES_H

#include "shell.h"

tui_screen *tui_screen_images_new(tui_app *app);

#endif
