/* status_feed: puts what is true into the status bar, rather than what the
 * environment suggests. At start a background task asks the Docker engine
 * for its version (or learns why there is none; over a plain socket,
 * byoc_engine_probe, so libcurl is not loaded for it) and resolves the AWS
 * profile and region from the config files and the environment the way
 * every AWS call will (no network). The results replace the status bar's
 * first guesses (statusbar.h) when the task ends: no region, or a profile in
 * neither AWS file, becomes a problem with its fix on the status line (and,
 * for the profile, a message naming the two files). */
#ifndef BYOC_TUI_STATUS_FEED_H
#define BYOC_TUI_STATUS_FEED_H

#include <stddef.h>

#include "core/err.h"
#include "docker/engine.h"
#include "shell.h"

void tui_status_feed_start(tui_app *a);

/* The engine value the status bar shows for a probe (pure):
 *   rc 0                        "20.10.24"
 *   no engine answered          "none (start dockerd)"
 *   DOCKER_HOST unusable        "unusable DOCKER_HOST"
 *   the engine answered badly   "error (HTTP 500)" / "error"
 * new_failed: no engine could be made (byoc_engines_get: the DOCKER_HOST itself). */
void tui_status_engine_text(int rc, bool new_failed, const byoc_engine_info *info, const byoc_err *err, char *buf,
                            size_t size);

#endif
