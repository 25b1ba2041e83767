/* engines: the one Docker engine a long-lived process shares between its
 * tasks (docker/engine.h: an engine is thread-safe and negotiates its API
 * version once), made on the first get and kept while what it was made from
 * stays the same.
 *
 * Refresh: each get compares what the engine was made from (DOCKER_HOST,
 * DOCKER_TLS_VERIFY, DOCKER_TLS, DOCKER_CERT_PATH, DOCKER_API_VERSION, HOME,
 * and with TLS the identity of ca.pem/cert.pem/key.pem) with now; when that
 * changed the get makes a fresh engine. An engine handed out earlier stays
 * valid until its holder frees it. A failure (an unusable DOCKER_HOST, an
 * unreadable CA) is returned and not kept: every get tries again and reports it.
 *
 *   byoc_engines *h = byoc_engines_new();                     (the app, at start)
 *   ...in a task, on any thread:
 *   byoc_engine *e;
 *   if (byoc_engines_get(h, &e, err) != 0) return -1;
 *   ... byoc_images_list(e, t, ...) ...
 *   byoc_engine_free(e);                                      (drops this reference)
 *   ...
 *   byoc_engines_free(h);                                     (the app, at exit)
 *
 * Thread-safe. A NULL holder makes a new engine each time (byoc_engine_new):
 * for one-shot verbs and tests. */
#ifndef BYOC_DOCKER_ENGINES_H
#define BYOC_DOCKER_ENGINES_H

#include "docker/engine.h"

typedef struct byoc_engines byoc_engines;

byoc_engines *byoc_engines_new(void);
/* Drops the holder's reference; engines still held elsewhere live on. NULL is a no-op. */
void byoc_engines_free(byoc_engines *h);

/* A reference (free it with byoc_engine_free) to the shared engine, made now when there is none
 * yet or its environment changed. Errors as byoc_engine_new's. */
int byoc_engines_get(byoc_engines *h, byoc_engine **out, byoc_err *err);

/* How many engines the holder has made since it was created: what the tests count to tell that
 * tasks share their engine. */
size_t byoc_engines_made(byoc_engines *h);

#endif
