/* pull: `docker pull` of one image through the engine (POST /images/create
 * with fromImage and tag, and the platform), for the bases byoc needs and the
 * user's credentials can reach (the prebuilt Braket jobs image in ECR).
 *
 * The engine does the registry work; byoc hands it the credentials in
 * X-Registry-Auth (registry_auth.h) and reads its JSON message stream
 * (jsonmsg.h): per layer (id = 12 hex) "Pulling fs layer", "Waiting",
 * "Downloading" + progressDetail, "Verifying Checksum", "Download complete",
 * "Extracting", "Pull complete", "Already exists"; then "Digest: sha256:..."
 * and "Status: Downloaded newer image for <ref>" (or "Image is up to date").
 * Errors arrive as {"errorDetail":{"message"}} inside an HTTP 200, or as an
 * HTTP 404/500 before the stream. Task events: BYOC_EV_PROGRESS per layer
 * (key = its id, current/total = bytes while downloading), BYOC_EV_STATUS
 * for the rest. */
#ifndef BYOC_DOCKER_PULL_H
#define BYOC_DOCKER_PULL_H

#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"

/* Pull ref (a tag is required: a bare repository would pull every tag).
 * platform: "linux/amd64" or NULL for the engine's own. registry_auth: the
 * X-Registry-Auth value (NULL: anonymous). Fails with BYOC_E_FAILED and
 * pullerr.h's explanation (offline, credentials, not found) when the engine
 * could not pull it, BYOC_E_CANCELLED when t was cancelled. */
int byoc_docker_pull(byoc_engine *e, byoc_task *t, const char *ref, const char *platform, const char *registry_auth,
                     byoc_err *err);

#endif
