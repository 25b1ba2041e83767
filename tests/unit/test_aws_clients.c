/* aws/clients: the pool hands out one client per (profile, region), makes a
 * new one when the config file or the environment changed (the old reference
 * stays usable), and serves several threads at once. */
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "aws/clients.h"

static char config_path[4096], creds_path[4096];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static byoc_aws_client *get(byoc_aws_clients *p, const char *profile, const char *region)
{
    byoc_aws_config_opts o = {.profile = profile, .region = region};
    byoc_aws_client *c = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_aws_clients_get(p, &o, &c, &err) != 0)
        fprintf(stderr, "get(%s, %s): %s\n", profile ? profile : "-", region ? region : "-", err.message);
    return c;
}

static void same_and_different(void)
{
    byoc_aws_clients *p = byoc_aws_clients_new();
    byoc_aws_client *a = get(p, NULL, NULL), *b = get(p, NULL, NULL);
    CHECK(a && a == b);
    CHECK_STR(byoc_aws_client_region(a), "eu-west-1");
    byoc_aws_client *dev = get(p, "dev", NULL), *dev2 = get(p, "dev", NULL);
    CHECK(dev && dev != a && dev == dev2);
    CHECK_STR(byoc_aws_client_region(dev), "us-west-2");
    byoc_aws_client *r = get(p, "dev", "ap-south-1");
    CHECK(r && r != dev);
    CHECK_STR(byoc_aws_client_region(r), "ap-south-1");
    byoc_aws_client *r2 = get(p, NULL, "ap-south-1");
    CHECK(r2 && r2 != r);
    byoc_aws_client_free(r2);

    /* a missing profile is an error, not kept */
    byoc_aws_config_opts o = {.profile = "nosuch"};
    byoc_aws_client *c = (byoc_aws_client *)1;
    byoc_err err;
    byoc_err_clear(&err);
    CHECK(byoc_aws_clients_get(p, &o, &c, &err) == -1 && c == NULL && err.kind != BYOC_OK);
    /* (default), dev, (dev, ap-south-1), (default, ap-south-1): the failure made none */
    CHECK_INT(byoc_aws_clients_made(p), 4);

    /* the pool goes first: what was handed out stays valid */
    byoc_aws_client_free(b);
    byoc_aws_client_free(dev2);
    byoc_aws_clients_free(p);
    CHECK_STR(byoc_aws_client_region(a), "eu-west-1");
    CHECK_STR(byoc_aws_client_region(dev), "us-west-2");
    byoc_aws_client_free(a);
    byoc_aws_client_free(dev);
    byoc_aws_client_free(r);
    /* a NULL pool makes a client each time */
    byoc_aws_client *lone = get(NULL, NULL, NULL), *lone2 = get(NULL, NULL, NULL);
    CHECK(lone && lone2 && lone != lone2);
    byoc_aws_client_free(lone);
    byoc_aws_client_free(lone2);
}

/* Rewrite the config with another mtime (the test runs faster than the clock's grain). */
static void rewrite_config(const char *text, time_t mtime)
{
    write_file(config_path, text);
    struct timeval tv[2] = {{mtime, 0}, {mtime, 0}};
    utimes(config_path, tv);
}

static bool get_again_is(byoc_aws_clients *p, byoc_aws_client *expected)
{
    byoc_aws_client *c = get(p, NULL, NULL);
    byoc_aws_client_free(c);
    return c == expected;
}

static void refresh(void)
{
    byoc_aws_clients *p = byoc_aws_clients_new();
    byoc_aws_client *old = get(p, NULL, NULL);
    CHECK_STR(byoc_aws_client_region(old), "eu-west-1");

    rewrite_config("[default]\nregion = eu-central-1\n", 1000000);
    byoc_aws_client *fresh = get(p, NULL, NULL);
    CHECK(fresh && fresh != old);
    CHECK_STR(byoc_aws_client_region(fresh), "eu-central-1");
    CHECK_STR(byoc_aws_client_region(old), "eu-west-1");   /* the old reference is still good */
    byoc_aws_client *again = get(p, NULL, NULL);
    CHECK(again == fresh);

    /* an AWS_* variable counts too */
    setenv("AWS_REGION", "sa-east-1", 1);
    byoc_aws_client *env = get(p, NULL, NULL);
    CHECK(env && env != fresh);
    CHECK_STR(byoc_aws_client_region(env), "sa-east-1");
    unsetenv("AWS_REGION");
    byoc_aws_client *back = get(p, NULL, NULL);
    CHECK(back != env);
    CHECK_STR(byoc_aws_client_region(back), "eu-central-1");

    /* so does the credentials file (rotated keys) */
    write_file(creds_path, "[default]\naws_access_key_id = AKIDROTATED\naws_secret_access_key = secret2\n");
    struct timeval tv[2] = {{2000000, 0}, {2000000, 0}};
    utimes(creds_path, tv);
    byoc_aws_client *rotated = get(p, NULL, NULL);
    CHECK(rotated && rotated != back);
    CHECK(get_again_is(p, rotated));
    CHECK_INT(byoc_aws_clients_made(p), 5);
    byoc_aws_client_free(rotated);

    byoc_aws_client_free(old);
    byoc_aws_client_free(fresh);
    byoc_aws_client_free(again);
    byoc_aws_client_free(env);
    byoc_aws_client_free(back);
    byoc_aws_clients_free(p);
}

#define THREADS 8
#define ROUNDS 200

typedef struct {
    byoc_aws_clients *p;
    byoc_aws_client *first[2];
    int bad;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *w = arg;
    for (int i = 0; i < ROUNDS; i++) {
        const char *profile = i % 2 ? "dev" : NULL;
        byoc_aws_client *c = get(w->p, profile, NULL);
        if (!c || !byoc_aws_client_region(c)) {
            w->bad++;
        } else if (i < 2) {
            w->first[i] = byoc_aws_client_ref(c);
        }
        byoc_aws_client_free(c);
    }
    return NULL;
}

static void threads(void)
{
    byoc_aws_clients *p = byoc_aws_clients_new();
    pthread_t th[THREADS];
    worker_arg w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker_arg){.p = p};
        pthread_create(&th[i], NULL, worker, &w[i]);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    /* nothing changed meanwhile: every thread got the same two clients */
    for (int i = 0; i < THREADS; i++) {
        CHECK_INT(w[i].bad, 0);
        CHECK(w[i].first[0] == w[0].first[0] && w[i].first[1] == w[0].first[1]);
        CHECK(w[i].first[0] != w[i].first[1]);
    }
    CHECK_INT(byoc_aws_clients_made(p), 2);
    for (int i = 0; i < THREADS; i++) {
        byoc_aws_client_free(w[i].first[0]);
        byoc_aws_client_free(w[i].first[1]);
    }
    byoc_aws_clients_free(p);
}

int main(void)
{
    char *dir = check_tmpdir();
    snprintf(config_path, sizeof config_path, "%s/config", dir);
    snprintf(creds_path, sizeof creds_path, "%s/credentials", dir);
    static const char *const vars[] = {"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
    write_file(config_path, "[default]\nregion = eu-west-1\n\n[profile dev]\nregion = us-west-2\n");
    write_file(creds_path, "[default]\naws_access_key_id = AKIDTEST\naws_secret_access_key = secret\n");
    setenv("AWS_CONFIG_FILE", config_path, 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", creds_path, 1);

    same_and_different();
    threads();
    refresh();

    check_rm_tree(dir);
    free(dir);
    return check_done();
}
