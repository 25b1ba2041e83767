/* clients: a pool of AWS clients, one per (profile, region, files), made once
 * and shared by every task that asks: the config is read and the credential
 * chain run once per pool entry rather than once per call (aws/client.h: a
 * client is thread-safe, and refreshes expiring credentials itself).
 *
 * Refresh: each get compares what the entry was made from (the config and
 * credentials files' inode, size and mtime, and every AWS_* variable and
 * HOME) with now; when that changed the next get makes a fresh client. A
 * client handed out earlier stays valid until its holder frees it.
 *
 *   byoc_aws_clients *pool = byoc_aws_clients_new();          (the app, at start)
 *   ...in a task, on any thread:
 *   byoc_aws_client *c;
 *   byoc_aws_config_opts o = {.profile = profile, .region = region};
 *   if (byoc_aws_clients_get(pool, &o, &c, err) != 0) return -1;
 *   ... byoc_ecr_describe_repositories(c, t, ...) ...
 *   byoc_aws_client_free(c);                                  (drops this reference)
 *   ...
 *   byoc_aws_clients_free(pool);                              (the app, at exit)
 *
 * Thread-safe. A NULL pool makes a new client each time (byoc_aws_client_new):
 * for one-shot verbs and tests. */
#ifndef BYOC_AWS_CLIENTS_H
#define BYOC_AWS_CLIENTS_H

#include "aws/client.h"

typedef struct byoc_aws_clients byoc_aws_clients;

byoc_aws_clients *byoc_aws_clients_new(void);
/* Drops the pool's references; clients still held elsewhere live on. NULL is a no-op. */
void byoc_aws_clients_free(byoc_aws_clients *p);

/* A reference (free it with byoc_aws_client_free) to the pool's client for
 * opts (may be NULL; NULL fields mean "as configured"), made now when there is
 * none yet or its files or environment changed. Errors as byoc_aws_client_new's
 * (a failure is not kept: the next get tries again). */
int byoc_aws_clients_get(byoc_aws_clients *p, const byoc_aws_config_opts *opts, byoc_aws_client **out,
                         byoc_err *err);

/* How many clients the pool has made since it was created: what the tests count to tell that
 * tasks share their clients. */
size_t byoc_aws_clients_made(byoc_aws_clients *p);

#endif
