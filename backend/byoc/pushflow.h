/* pushflow: the Push step — a local image into an ECR repository. The one
 * flow behind the Push screen and `byoc push`: a task entry point
 * (byoc_push_task) reporting typed events (byoc_push_event).
 *
 *   1. check the input (repository name against ECR's pattern, tag grammar,
 *      creation options): BYOC_E_USAGE, nothing sent anywhere
 *   2. inspect the local image on the engine (a missing one: BYOC_E_USAGE,
 *      nothing sent to AWS); warn when it is not linux/amd64
 *   3. the region; warn when the repository name does not start with
 *      amazon-braket (the default job role can pull only from amazon-braket*
 *      repositories) and suggest that name
 *   4. the repository: DescribeRepositories; missing -> CreateRepository with
 *      create, else BYOC_E_USAGE naming --create. The account is the
 *      repository's registryId, as ECR reports it for these credentials (STS
 *      would say the same, but its XML reply costs the push ~0.7 MiB of
 *      resident libxml2; the registry host is checked against the token's)
 *   5. a login token for the registry (ecr.h's cache, in memory only); with
 *      write_docker_config an `auths` entry in config.json (0600)
 *   6. tag the image <registry>/<repository>:<tag> and push it through the
 *      engine with X-Registry-Auth, per-layer progress (docker/push.h); a
 *      refused token is refreshed and the push retried once
 *   7. check the pushed digest against DescribeImages (waiting a little: ECR
 *      may list an image a moment after the push ends)
 *   8. with project_dir, record the push in its byoc.json (when it has one),
 *      so Run's default image is the last push whichever face made it
 *
 * Events travel as core/task.h events (the task's owner may be on another
 * thread); byoc_push_event_from turns one back into its typed form, so no
 * consumer reads meaning out of a message's words. */
#ifndef BYOC_BYOC_PUSHFLOW_H
#define BYOC_BYOC_PUSHFLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "aws/client.h"
#include "aws/clients.h"
#include "aws/ecr.h"
#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"
#include "docker/engines.h"
#include "docker/push.h"

#define BYOC_BRAKET_REPOSITORY_PREFIX "amazon-braket"

typedef struct byoc_push_opts {
    const char *source;              /* REF: a local image name[:tag] or id (required) */
    const char *repository;          /* the ECR repository name (required) */
    const char *tag;                 /* NULL: REF's tag, else "latest" */
    bool create;                     /* create the repository when missing */
    byoc_ecr_create_opts create_opts;/* scan on push, tag mutability, encryption, tags (name is ignored) */
    bool write_docker_config;        /* also store the login in config.json */
    const char *docker_config_path;  /* NULL: $DOCKER_CONFIG/config.json or ~/.docker/config.json */
    long verify_timeout_ms;          /* how long to wait for DescribeImages; 0: 20 s */
    const char *project_dir;         /* record the push in its byoc.json; NULL: not recorded */
} byoc_push_opts;

typedef struct byoc_push_result {
    char *image_uri;                 /* <registry>/<repository>:<tag> */
    char *digest;                    /* the manifest digest */
    char *registry;
    char *repository;
    char *tag;
    char *account;
    char *region;
    char *image_id;                  /* the local image's id */
    bool created_repository;
    bool verified;                   /* DescribeImages lists the digest */
    bool login_retried;              /* the registry refused the first token */
    char *docker_config;             /* the config.json written, or NULL */
    byoc_push_report report;         /* layers, as the engine last reported them */
    char **warnings;
    size_t n_warnings;
} byoc_push_result;

void byoc_push_result_clear(byoc_push_result *r);

/* The tag a push gives when none is asked for: the tag the source REF names, else "latest".
 * malloc'd. */
char *byoc_push_default_tag(const char *source);

/* True when a job's default execution role may pull from this repository. */
bool byoc_push_braket_name_ok(const char *repository);
/* "amazon-braket-<name>" when that is a valid repository name, else NULL; malloc'd. */
char *byoc_push_braket_name_suggestion(const char *repository);

/* ---- typed events ---- */

typedef enum {
    BYOC_PUSH_EV_STEP,       /* text: the step that begins ("Checking the repository x") */
    BYOC_PUSH_EV_NOTE,       /* text: a line of the flow's or the engine's own */
    BYOC_PUSH_EV_WARNING,    /* text: a warning, without "warning: " (the result's warnings hold
                                the push's own; a byoc.json not updated is only an event) */
    BYOC_PUSH_EV_REPOSITORY, /* the repository is there: text its URI; created: made now */
    BYOC_PUSH_EV_LOGIN,      /* a login token: text the registry; retried: the first was refused */
    BYOC_PUSH_EV_LAYER,      /* layer: its id; text its status (the engine's words); current/total */
    BYOC_PUSH_EV_DIGEST,     /* the digest checked: text the digest; verified: ECR lists it */
    BYOC_PUSH_EV_DONE,       /* result: the push */
    BYOC_PUSH_EV_FAILED,     /* err: why (kind BYOC_E_CANCELLED when cancelled) */
} byoc_push_ev_kind;

typedef struct byoc_push_event {
    byoc_push_ev_kind kind;
    const char *text;                /* see the kinds; printable, may be NULL */
    const char *layer;               /* LAYER: the layer's id (12 hex, as the engine names it) */
    int64_t current, total;          /* LAYER: bytes; total < 0 when unknown */
    bool created, retried, verified; /* REPOSITORY, LOGIN, DIGEST */
    const byoc_push_result *result;  /* DONE (NULL when the task's result was taken) */
    const byoc_err *err;             /* FAILED */
} byoc_push_event;

/* Post a typed event to the task t (NULL: nothing); DONE and FAILED are the task's own end. */
void byoc_push_post(byoc_task *t, const byoc_push_event *ev);
/* The typed form of a push task's event; false for an event that means nothing to a push.
 * ev->... is borrowed, valid while ev is. */
bool byoc_push_event_from(const byoc_event *ev, byoc_push_event *out);

/* ---- the push ---- */

/* {"image_uri", "digest", "repository", "registry", "tag", "account", "region",
 *  "created_repository", "verified", "login_retried", "docker_config", "layers": [{"id", "state"}], "warnings"}. */
json_t *byoc_push_result_json(const byoc_push_result *r);

/* As a task: a deep copy of the options and the AWS profile and region (NULL:
 * the default chain's). The task takes its AWS client from clients and its
 * engine from engines (an app's, which must outlive the task; NULL: one of its
 * own), each a reference of its own, so nothing it uses can go away while it
 * runs; its events read with byoc_push_event_from. */
typedef struct byoc_push_job byoc_push_job;
byoc_push_job *byoc_push_job_new(byoc_aws_clients *clients, byoc_engines *engines, const char *profile,
                                 const char *region, const byoc_push_opts *o);
void byoc_push_job_free(void *job);
/* byoc_task_fn: arg is a byoc_push_job; the result a byoc_push_result* (freed by the event). */
int byoc_push_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

#endif
