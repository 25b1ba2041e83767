/* pullerr: why the engine could not pull a base image, in words a user can act on.
 * The engine's own text ("Get \"https://public.ecr.aws/v2/\": dial tcp: lookup ...")
 * is classified as offline, auth or not found, and rewritten as one sentence that
 * names the image, the cause and what to do, with the engine's text kept at the end. */
#ifndef BYOC_DOCKER_PULLERR_H
#define BYOC_DOCKER_PULLERR_H

typedef enum {
    BYOC_PULL_OTHER,      /* not recognised: the engine's text as it is */
    BYOC_PULL_OFFLINE,    /* the registry cannot be reached (DNS, connect, timeout, TLS) */
    BYOC_PULL_AUTH,       /* the registry refused the engine's credentials, or needs some */
    BYOC_PULL_NOT_FOUND,  /* no such repository or tag */
} byoc_pull_cause;

byoc_pull_cause byoc_pull_classify(const char *engine_msg);

/* "the base image X cannot be pulled (CAUSE): ...what to do... (engine: TEXT)". Caller frees. */
char *byoc_pull_explain(const char *image, const char *engine_msg);

#endif
