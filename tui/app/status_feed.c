#include "status_feed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/clients.h"
#include "background.h"
#include "core/buf.h"
#include "net/deadline.h"

typedef struct feed_result {
    char engine[128];
    char *profile;       /* NULL: keep the first guess */
    char *region;        /* NULL with aws_ok: none is set */
    bool aws_ok;         /* the config loaded */
    char *missing_profile, *missing_origin;   /* a named profile in neither file, and who named it */
    char *aws_why;       /* the config error, or NULL */
} feed_result;

typedef struct feed_args {
    byoc_aws_clients *clients;   /* the app's (outlives the task), or NULL */
    byoc_engines *engines;       /* the app's (outlives the task), or NULL */
    char *profile, *region;      /* --profile / --region */
} feed_args;

static void feed_args_free(void *p)
{
    feed_args *fa = p;
    free(fa->profile);
    free(fa->region);
    free(fa);
}

static void feed_result_free(void *p)
{
    feed_result *r = p;
    free(r->profile);
    free(r->region);
    free(r->missing_profile);
    free(r->missing_origin);
    free(r->aws_why);
    free(r);
}

void tui_status_engine_text(int rc, bool new_failed, const byoc_engine_info *info, const byoc_err *err, char *buf,
                            size_t size)
{
    if (rc == 0) {
        snprintf(buf, size, "%s", info->server_version[0] ? info->server_version : "(unknown version)");
    } else if (new_failed) {
        snprintf(buf, size, "unusable DOCKER_HOST");
    } else if (err->kind == BYOC_E_ENV || err->kind == BYOC_E_NET) {
        snprintf(buf, size, "none (start dockerd)");
    } else if (err->http_status) {
        snprintf(buf, size, "error (HTTP %d)", err->http_status);
    } else {
        snprintf(buf, size, "error");
    }
}

/* aws/config names the origin of a profile that exists in neither file as the
 * error's `what` (config.h): then the status line can say how to fix it. */
static bool profile_missing(const feed_args *fa, const byoc_err *err, feed_result *r)
{
    static const char *const origins[] = {"--profile", "AWS_DEFAULT_PROFILE", "AWS_PROFILE"};
    for (size_t i = 0; i < sizeof origins / sizeof origins[0]; i++) {
        if (strcmp(err->what, origins[i]) != 0)
            continue;
        const char *name = i == 0 ? fa->profile : getenv(origins[i]);
        if (!name || !*name)
            return false;
        r->missing_profile = byoc_xstrdup(name);
        r->missing_origin = byoc_xstrdup(origins[i]);
        return true;
    }
    return false;
}

/* "~/.aws/config" for $HOME/.aws/config: the message has 80 columns. */
static char *home_short(const char *path)
{
    const char *home = getenv("HOME");
    size_t n = home ? strlen(home) : 0;
    while (n > 1 && home[n - 1] == '/')
        n--;
    if (n > 1 && strncmp(path, home, n) == 0 && path[n] == '/')
        return byoc_xasprintf("~%s", path + n);
    return byoc_xstrdup(path);
}

static int feed_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)err;
    feed_args *fa = arg;
    feed_result *r = byoc_xcalloc(1, sizeof *r);

    byoc_engine *e = NULL;
    byoc_engine_info info;
    memset(&info, 0, sizeof info);
    byoc_err eerr;
    byoc_err_clear(&eerr);
    bool new_failed = byoc_engines_get(fa->engines, &e, &eerr) != 0;
    /* A plain socket rather than libcurl, whose loading would cost more than the exchange
     * and hold the loader's lock while the UI thread starts its first tasks. */
    int rc = new_failed ? -1 : byoc_engine_probe(e, t, (int)byoc_net_api_deadline_ms(), &info, &eerr);
    if (rc > 0)   /* TLS: only the full client speaks it */
        rc = byoc_engine_ping(e, t, &info, &eerr);
    byoc_engine_free(e);
    tui_status_engine_text(rc, new_failed, &info, &eerr, r->engine, sizeof r->engine);

    byoc_aws_client *c = NULL;
    byoc_err aerr;
    byoc_err_clear(&aerr);
    byoc_aws_config_opts opts = {.profile = fa->profile, .region = fa->region};
    if (byoc_aws_clients_get(fa->clients, &opts, &c, &aerr) == 0) {
        const char *region = byoc_aws_client_region(c);
        r->aws_ok = true;
        r->profile = byoc_xstrdup(byoc_aws_config_profile(byoc_aws_client_config(c)));
        r->region = region && *region ? byoc_xstrdup(region) : NULL;
        byoc_aws_client_free(c);
    } else if (profile_missing(fa, &aerr, r)) {
        char *config, *credentials;
        byoc_aws_config_files(&opts, &config, &credentials);
        char *cfg = home_short(config), *cred = home_short(credentials);
        r->aws_why = byoc_xasprintf("AWS profile %s is in neither %s nor %s", r->missing_profile, cfg, cred);
        free(cfg);
        free(cred);
        free(config);
        free(credentials);
    } else {
        char line[1024];
        r->aws_why = byoc_xasprintf("AWS config: %s", byoc_err_format(&aerr, line, sizeof line));
    }
    *result = r;
    *result_free = feed_result_free;
    return 0;
}

static void feed_event(tui_app *a, const byoc_event *ev)
{
    if (ev->kind != BYOC_EV_DONE || !ev->result)
        return;
    const feed_result *r = ev->result;
    tui_app_set_status(a, TUI_SB_ENGINE, r->engine);
    if (r->profile)
        tui_app_set_status(a, TUI_SB_PROFILE, r->profile);
    if (r->region)
        tui_app_set_status(a, TUI_SB_REGION, r->region);
    else if (r->aws_ok)
        tui_status_region_missing(tui_app_status_edit(a));
    if (r->missing_profile)
        tui_status_profile_missing(tui_app_status_edit(a), r->missing_profile, r->missing_origin);
    tui_app_status_changed(a);
    if (r->aws_why)
        tui_app_error(a, "%s", r->aws_why);
}

void tui_status_feed_start(tui_app *a)
{
    const byoc_globals *g = tui_app_globals(a);
    feed_args *fa = byoc_xcalloc(1, sizeof *fa);
    fa->clients = tui_app_aws(a);
    fa->engines = tui_app_engines(a);
    fa->profile = g && g->profile ? byoc_xstrdup(g->profile) : NULL;
    fa->region = g && g->region ? byoc_xstrdup(g->region) : NULL;
    tui_app_start_background_feed(a, "status", feed_task, fa, feed_args_free, feed_event);
}
