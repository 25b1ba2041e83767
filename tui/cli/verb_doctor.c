/* doctor: is everything byoc needs in place, and if not, what is the fix.
 * The engine probe runs on a task while the AWS checks run on this thread, so
 * the whole check costs the slower of the two, not their sum. */
#include <getopt.h>
#include <jansson.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <curses.h>
#include <term.h>
#include <unistd.h>

#include "aws/client.h"
#include "aws/sts_client.h"
#include "core/task.h"
#include "core/utf8.h"
#include "docker/engine.h"
#include "doctor_platforms.h"
#include "verbs.h"

typedef struct engine_probe {
    byoc_engine_info info;
    byoc_err err;
    int rc;
} engine_probe;

static int probe_engine(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    engine_probe *p = arg;
    p->rc = byoc_docker_ping(t, &p->info, &p->err);
    return 0;
}

typedef struct terminal_info {
    char term[64];
    bool tty;
    int colors;
    bool cursor_addressing;
    bool utf8;
    bool no_color;
    int cols, rows;
} terminal_info;

static void probe_terminal(const byoc_globals *g, terminal_info *ti)
{
    const char *term = getenv("TERM");
    snprintf(ti->term, sizeof ti->term, "%s", term ? term : "");
    ti->tty = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
    ti->no_color = g->no_color;
    const char *cs = nl_langinfo(CODESET);
    ti->utf8 = cs && strcmp(cs, "UTF-8") == 0;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col) {
        ti->cols = ws.ws_col;
        ti->rows = ws.ws_row;
    }
    int terr = 0;
    /* setupterm only reads terminfo; fd -1 so it never touches the tty. */
    if (term && *term && setupterm(term, -1, &terr) == OK) {
        ti->colors = tigetnum("colors");
        if (ti->colors < 0)
            ti->colors = 0;
        char *cup = tigetstr("cup");
        ti->cursor_addressing = cup && cup != (char *)-1;
        del_curterm(cur_term);
    }
}

static json_t *terminal_json(const terminal_info *ti)
{
    json_t *o = json_object();
    json_object_set_new(o, "term", json_string(ti->term));
    json_object_set_new(o, "tty", json_boolean(ti->tty));
    json_object_set_new(o, "colors", json_integer(ti->colors));
    json_object_set_new(o, "no_color", json_boolean(ti->no_color));
    json_object_set_new(o, "utf8", json_boolean(ti->utf8));
    json_object_set_new(o, "tui", json_boolean(ti->cursor_addressing));
    if (ti->cols) {
        char size[32];
        snprintf(size, sizeof size, "%dx%d", ti->cols, ti->rows);
        json_object_set_new(o, "size", json_string(size));
    }
    return o;
}

/* A row of the text report. An AWS part that fails under --local is not needed: "--", not "FAIL". */
static bool local_only;

static void print_row(const char *name, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void print_row(const char *name, bool ok, const char *fmt, ...)
{
    va_list ap;
    bool optional = local_only && strcmp(name, "engine") != 0;
    printf("%-12s %-4s ", name, ok ? "ok" : optional ? "--" : "FAIL");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* The fix under a FAIL row whose error does not carry one, on a line of its own. A part --local
 * does not need gets none. */
static void print_fix(const char *name, const char *fix)
{
    if (!(local_only && strcmp(name, "engine") != 0))
        printf("%17sfix: %s\n", "", fix);
}

/* The fix when the AWS configuration did not load. The usual cause is a profile that does not
 * exist: config.c names that failure by where the profile came from (--profile, AWS_PROFILE,
 * AWS_DEFAULT_PROFILE); anything else is a file it could not read. */
static void config_fix(const byoc_globals *g, const byoc_err *e, char *buf, size_t size)
{
    bool flag = strcmp(e->what, "--profile") == 0;
    if (flag || strcmp(e->what, "AWS_PROFILE") == 0 || strcmp(e->what, "AWS_DEFAULT_PROFILE") == 0) {
        const char *v = flag ? g->profile : getenv(e->what);
        char name[128];
        snprintf(name, sizeof name, "%s", v && *v ? v : "NAME");
        byoc_printable_inplace(name);
        if (flag)
            snprintf(buf, size, "name a profile the config file has, or create this one: aws configure --profile %s",
                     name);
        else
            snprintf(buf, size, "unset %s to use the default profile, or create this one: aws configure --profile %s",
                     e->what, name);
        return;
    }
    snprintf(buf, size, "correct the file named above, or point AWS_CONFIG_FILE/AWS_SHARED_CREDENTIALS_FILE at "
                        "good ones");
}

/* Without a region the regional endpoints cannot be resolved: that is the region's failure,
 * reported once as such, so they say "skipped" instead of repeating it. */
static void skip_regional(json_t *endpoints)
{
    const char *name;
    json_t *e;
    json_object_foreach(endpoints, name, e)
    {
        if (json_is_string(json_object_get(e, "url")))
            continue;
        json_object_del(e, "error");
        json_object_set_new(e, "skipped", json_string("no region"));
    }
}

int verb_doctor(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    local_only = false;
    static const struct option opts[] = {{"local", no_argument, NULL, 'l'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'l')
            local_only = true;
        else
            return byoc_cli_usage(err, "doctor", "unknown flag '%s' (see byoc doctor --help)", argv[optind - 1]);
    }
    if (optind < argc)
        return byoc_cli_usage(err, "doctor", "takes no arguments (got '%s')", argv[optind]);

    byoc_evq *q = byoc_evq_new();
    engine_probe probe = {0};
    byoc_task *engine_task = byoc_task_start(q, "engine ping", probe_engine, &probe, NULL);

    /* AWS: config, credentials, region, endpoints, then who we are. */
    byoc_aws_client *client = NULL;
    byoc_err aws_err;
    byoc_err_clear(&aws_err);
    byoc_aws_description desc;
    memset(&desc, 0, sizeof desc);
    byoc_sts_identity id;
    memset(&id, 0, sizeof id);
    bool aws_loaded = false, identity_ok = false;
    byoc_err id_err;
    byoc_err_clear(&id_err);
    byoc_aws_config_opts copts = {.profile = g->profile, .region = g->region};
    if (byoc_aws_client_new(&copts, &client, &aws_err) == 0) {
        aws_loaded = true;
        byoc_aws_client_describe(client, NULL, &desc);
        if (desc.credentials_ok && desc.region[0])
            identity_ok = byoc_sts_get_caller_identity(client, NULL, &id, &id_err) == 0;
    }

    terminal_info ti = {0};
    probe_terminal(g, &ti);

    byoc_task_join(engine_task);
    bool engine_ok = probe.rc == 0;

    bool creds_ok = aws_loaded && desc.credentials_ok;
    bool region_ok = aws_loaded && desc.region[0];
    bool ready = engine_ok && (local_only || (creds_ok && region_ok && identity_ok));

    char line[1024];
    const char *engine_fix = "start dockerd, or point DOCKER_HOST at a running engine";
    const char *creds_fix = "set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with keys in ~/.aws/credentials "
                            "(`aws configure`)";
    const char *region_fix = "pass --region, set AWS_REGION, or add `region = ...` to the profile";
    const char *identity_fix = "check that the keys are current and the STS endpoint is reachable";
    char aws_fix[512] = "";
    if (!aws_loaded)
        config_fix(g, &aws_err, aws_fix, sizeof aws_fix);

    if (g->json) {
        json_t *doc = json_object();
        json_t *engine = json_object();
        json_object_set_new(engine, "ok", json_boolean(engine_ok));
        if (engine_ok) {
            json_object_set_new(engine, "host", json_string(probe.info.host));
            json_object_set_new(engine, "api_version", json_string(probe.info.api_version));
            json_object_set_new(engine, "server_version", json_string(probe.info.server_version));
            json_object_set_new(engine, "os", json_string(probe.info.os));
            json_object_set_new(engine, "arch", json_string(probe.info.arch));
            json_object_set_new(engine, "platforms", doctor_platforms_json(&probe.info, getenv("BYOC_BINFMT_DIR")));
        } else {
            json_object_set_new(engine, "error", json_string(byoc_err_format(&probe.err, line, sizeof line)));
            json_object_set_new(engine, "fix", json_string(engine_fix));
        }
        json_object_set_new(doc, "engine", engine);
        if (aws_loaded) {
            json_t *d = byoc_aws_description_json(&desc);
            json_t *creds = json_object_get(d, "credentials");
            if (!creds_ok)
                json_object_set_new(creds, "fix", json_string(creds_fix));
            json_object_set(doc, "credentials", creds);
            json_object_set(doc, "region", json_object_get(d, "region"));
            if (!region_ok)
                json_object_set_new(doc, "region_fix", json_string(region_fix));
            json_object_set_new(doc, "account", identity_ok ? json_string(id.account) : json_null());
            json_object_set_new(doc, "arn", identity_ok ? json_string(id.arn) : json_null());
            if (!identity_ok && creds_ok && region_ok) {
                json_object_set_new(doc, "identity_error", json_string(byoc_err_format(&id_err, line, sizeof line)));
                json_object_set_new(doc, "identity_fix", json_string(identity_fix));
            }
            json_t *endpoints = json_object_get(d, "endpoints");
            if (!region_ok)
                skip_regional(endpoints);
            json_object_set(doc, "endpoints", endpoints);
            json_object_set(doc, "retry", json_object_get(d, "retry"));
            json_object_set(doc, "config_file", json_object_get(d, "config_file"));
            json_object_set(doc, "credentials_file", json_object_get(d, "credentials_file"));
            json_decref(d);
        } else {
            json_t *creds = json_object();
            json_object_set_new(creds, "source", json_null());
            json_object_set_new(creds, "error", json_string(byoc_err_format(&aws_err, line, sizeof line)));
            json_object_set_new(creds, "fix", json_string(aws_fix));
            json_object_set_new(doc, "credentials", creds);
            json_object_set_new(doc, "region", json_null());
            json_object_set_new(doc, "account", json_null());
            json_object_set_new(doc, "arn", json_null());
            json_object_set_new(doc, "endpoints", json_object());
        }
        json_object_set_new(doc, "terminal", terminal_json(&ti));
        json_object_set_new(doc, "ready", json_boolean(ready));
        byoc_cli_print_json(doc);
    } else {
        /* what the engine and STS said, made printable before any row shows it */
        char *outside[] = {probe.info.host, probe.info.server_version, probe.info.api_version, probe.info.os,
                           probe.info.arch, id.arn, id.account};
        for (size_t i = 0; i < sizeof outside / sizeof *outside; i++)
            byoc_printable_inplace(outside[i]);
        if (engine_ok)
            print_row("engine", true, "%s: Docker %s, API %s, %s/%s", probe.info.host, probe.info.server_version,
                      probe.info.api_version, probe.info.os, probe.info.arch);
        if (engine_ok)
            doctor_platforms_print(&probe.info, getenv("BYOC_BINFMT_DIR"));
        else    /* the engine's and the credentials' errors end with their fix already */
            print_row("engine", false, "%s", byoc_err_format(&probe.err, line, sizeof line));
        /* Each cause is reported once, on its own row with its fix; what depends on it is skipped. */
        if (!aws_loaded) {
            print_row("aws config", false, "%s", byoc_err_format(&aws_err, line, sizeof line));
            print_fix("aws config", aws_fix);
        } else {
            if (creds_ok) {
                char origin[256];
                byoc_aws_creds_info_origin(&desc.creds, origin, sizeof origin);
                if (strcmp(desc.creds.source, "env") == 0)
                    print_row("credentials", true, "environment variables (AWS_ACCESS_KEY_ID)");
                else
                    print_row("credentials", true, "%s (profile %s, chosen by %s)", origin, desc.profile,
                              desc.profile_origin);
            } else {
                print_row("credentials", false, "%s", desc.credentials_error);
            }
            if (region_ok) {
                print_row("region", true, "%s (from %s)", desc.region, desc.region_origin);
            } else {
                print_row("region", false, "none configured");
                print_fix("region", region_fix);
            }
            if (identity_ok) {
                print_row("identity", true, "%s (account %s)", id.arn, id.account);
            } else if (creds_ok && region_ok) {
                print_row("identity", false, "%s", byoc_err_format(&id_err, line, sizeof line));
                print_fix("identity", identity_fix);
            } else
                printf("%-12s %-4s skipped: no %s\n", "identity", "--", creds_ok ? "region" : "credentials");
            printf("endpoints\n");
            for (int s = 0; s < BYOC_AWS_SERVICE_COUNT; s++) {
                const byoc_aws_endpoint_desc *e = &desc.endpoints[s];
                const char *where = e->url[0] ? e->url : region_ok ? e->error : "skipped: no region";
                printf("  %-16s %s%s%s%s\n", e->service, where, e->overridden ? " (" : "",
                       e->overridden ? e->origin : "", e->overridden ? ")" : "");
            }
        }
        printf("terminal     %s%s, %d colours%s, %s%s", ti.term[0] ? ti.term : "(TERM unset)",
               ti.cursor_addressing ? "" : " (no cursor addressing: commands only)", ti.colors,
               ti.no_color ? " (NO_COLOR)" : "", ti.utf8 ? "UTF-8" : "ASCII", ti.tty ? "" : ", not a tty");
        if (ti.cols)
            printf(", %dx%d%s", ti.cols, ti.rows, ti.cols < 80 || ti.rows < 24 ? " (the TUI needs 80x24)" : "");
        putchar('\n');
    }

    byoc_task_release(engine_task);
    byoc_evq_free(q);
    byoc_aws_client_free(client);
    if (!ready) {
        /* The report on stdout says each cause once, with its fix; the one line on stderr only
         * names the parts that are not ready, so no cause is printed twice. */
        char parts[128] = "";
        const struct { bool failed; const char *name; } part[] = {
            {!engine_ok, "engine"},
            {!local_only && !aws_loaded, "aws config"},
            {!local_only && aws_loaded && !creds_ok, "credentials"},
            {!local_only && aws_loaded && !region_ok, "region"},
            {!local_only && creds_ok && region_ok && !identity_ok, "identity"},
        };
        for (size_t i = 0; i < sizeof part / sizeof *part; i++)
            if (part[i].failed)
                snprintf(parts + strlen(parts), sizeof parts - strlen(parts), "%s%s", parts[0] ? ", " : "",
                         part[i].name);
        byoc_err_set(err, BYOC_E_ENV, "doctor", "not ready%s: %s (%s)", local_only ? " for the local target" : "",
                     parts, g->json ? "the report's error and fix fields say why" : "each FAIL line says why, with its fix");
        return 3;
    }
    return 0;
}
