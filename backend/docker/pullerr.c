#include "docker/pullerr.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"

static bool has_any(const char *s, const char *const *needles)
{
    for (; *needles; needles++)
        if (strcasestr(s, *needles))
            return true;
    return false;
}

byoc_pull_cause byoc_pull_classify(const char *m)
{
    static const char *const offline[] = {
        "dial tcp", "no such host", "i/o timeout", "network is unreachable", "connection refused",
        "tls handshake timeout", "server misbehaving", "client.timeout", "connection reset",
        "temporary failure in name resolution", NULL,
    };
    /* Docker Hub answers an unknown repository with "pull access denied ... may require
     * 'docker login'": it is a not-found as often as an auth problem, so it is read as
     * not found, whose advice names both. */
    static const char *const not_found[] = {
        "manifest unknown", "name unknown", "not found", "repository does not exist", "pull access denied", NULL,
    };
    static const char *const auth[] = {
        "unauthorized", "authentication required", "no basic auth credentials", "denied", "forbidden",
        "authorization token has expired", NULL,
    };
    if (!m)
        return BYOC_PULL_OTHER;
    if (has_any(m, offline))
        return BYOC_PULL_OFFLINE;
    if (has_any(m, not_found))
        return BYOC_PULL_NOT_FOUND;
    if (has_any(m, auth))
        return BYOC_PULL_AUTH;
    return BYOC_PULL_OTHER;
}

/* The registry part of a reference: what `docker login` takes. */
static void registry_of(const char *image, byoc_buf *b)
{
    const char *slash = strchr(image, '/');
    size_t n = slash ? (size_t)(slash - image) : 0;
    if (slash && (memchr(image, '.', n) || memchr(image, ':', n) || (n == 9 && !strncmp(image, "localhost", 9))))
        byoc_buf_append(b, image, (size_t)(slash - image));
    else
        byoc_buf_puts(b, "docker.io");
}

char *byoc_pull_explain(const char *image, const char *engine_msg)
{
    byoc_pull_cause c = byoc_pull_classify(engine_msg);
    byoc_buf reg = BYOC_BUF_INIT;
    registry_of(image, &reg);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "the base image %s cannot be pulled", image);
    switch (c) {
    case BYOC_PULL_OFFLINE:
        byoc_buf_printf(&b, " (offline: the engine cannot reach %s): build where the registry is reachable, or "
                            "put the image on this engine first (docker pull on a connected host, then docker save "
                            "| docker load here), or use a base the engine already has (docker images; the "
                            "Dockerfile's FROM, or byoc init --base)", byoc_buf_str(&reg));
        break;
    case BYOC_PULL_AUTH:
        byoc_buf_printf(&b, " (auth: %s refused the engine's credentials): log the engine in (docker login %s; "
                            "for ECR: aws ecr get-login-password | docker login --username AWS --password-stdin "
                            "%s) and build again", byoc_buf_str(&reg), byoc_buf_str(&reg), byoc_buf_str(&reg));
        break;
    case BYOC_PULL_NOT_FOUND:
        byoc_buf_printf(&b, " (not found on %s): check the name and tag in the Dockerfile's FROM (a private "
                            "repository also answers so until you docker login %s)", byoc_buf_str(&reg),
                        byoc_buf_str(&reg));
        break;
    default:
        byoc_buf_puts(&b, ": check the Dockerfile's FROM and that the engine can reach the registry");
        break;
    }
    byoc_buf_printf(&b, " (engine: %s)", engine_msg ? engine_msg : "no message");
    byoc_buf_clear(&reg);
    return byoc_buf_steal(&b);
}
