/* The credential chain without network: env vs profiles, credentials file vs
 * config file, credential_process (a real script exec'd without a shell,
 * failing ones too), source_profile validation and cycles, unsupported
 * sources, refresh of expiring credentials, and the CLI-style command split.
 * (AssumeRole itself runs against moto in tests/integration/test_aws_sts.c.) */
#include "check.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aws/credentials.h"
#include "aws/credprocess.h"
#include "aws/shlex.h"
#include "core/log.h"

static char *dir;
static char config_path[4096], creds_path[4096], script[4096], failing[4096], counter[4096], started[4096];

static void write_file(const char *path, const char *text, int mode)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    chmod(path, (mode_t)mode);
}

static void clear_env(void)
{
    static const char *const vars[] = {"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ACCESS_KEY_ID",
                                       "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
                                       "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
                                       "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                                       "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_REGION",
                                       "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
}

static byoc_aws_config *load(const char *profile)
{
    byoc_aws_config_opts o = {.profile = profile, .config_file = config_path, .credentials_file = creds_path};
    byoc_aws_config *c = NULL;
    byoc_err err;
    if (byoc_aws_config_load(&o, &c, &err) != 0)
        fprintf(stderr, "config: %s\n", err.message);
    return c;
}

/* Resolve for a profile; returns rc and fills creds/info/err. */
static int resolve(const char *profile, byoc_aws_creds *creds, byoc_aws_creds_info *info, byoc_err *err)
{
    byoc_aws_config *c = load(profile);
    if (!c)
        return -2;
    int rc = byoc_aws_credentials_resolve(c, NULL, creds, info, err);
    byoc_aws_config_free(c);
    return rc;
}

static void test_shlex(void)
{
    /* Expected values from Python's shlex.split (the AWS CLI's splitter). */
    static const struct {
        const char *in;
        const char *out; /* words joined with '|' */
    } cases[] = {
        {"a b", "a|b"},
        {"a 'b c' d", "a|b c|d"},
        {"a \"b \\\" c\"", "a|b \" c"},
        {"a\\ b", "a b"},
        {"a''b", "ab"},
        {"''", ""},
        {"x \"a\\\\b\" \"a\\nb\"", "x|a\\b|a\\nb"},
        {"a\"b c\"d", "ab cd"},
        {"a #b", "a|#b"},
        {"  lead  trail  ", "lead|trail"},
        {"/bin/tool --flag=$HOME;rm", "/bin/tool|--flag=$HOME;rm"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        byoc_strv argv = BYOC_STRV_INIT;
        byoc_err err;
        CHECK_INT(byoc_shlex_split(cases[i].in, &argv, &err), 0);
        byoc_buf b = BYOC_BUF_INIT;
        for (size_t k = 0; k < argv.n; k++)
            byoc_buf_printf(&b, "%s%s", k ? "|" : "", argv.v[k]);
        CHECK_STR(byoc_buf_str(&b), cases[i].out);
        CHECK(argv.v[argv.n] == NULL);
        byoc_buf_clear(&b);
        byoc_strv_clear(&argv);
    }
    byoc_strv argv = BYOC_STRV_INIT;
    byoc_err err;
    CHECK_INT(byoc_shlex_split("it's", &argv, &err), -1);
    CHECK_STR(err.message, "No closing quotation");
    CHECK_INT(byoc_shlex_split("trail\\", &argv, &err), -1);
    CHECK_STR(err.message, "No escaped character");
    CHECK_INT(byoc_shlex_split("", &argv, &err), 0);
    CHECK_INT(argv.n, 0);
    byoc_strv_clear(&argv);
}

static void test_env_and_files(void)
{
    byoc_aws_creds cr;
    byoc_aws_creds_info info;
    byoc_err err;

    /* Env wins over the default profile... */
    setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "env-secret-value", 1);
    setenv("AWS_SESSION_TOKEN", "env-session-token", 1);
    CHECK_INT(resolve(NULL, &cr, &info, &err), 0);
    CHECK_STR(cr.access_key_id, "AKIDENV");
    CHECK_STR(cr.session_token, "env-session-token");
    CHECK_STR(info.source, "env");
    CHECK_STR(info.profile, "");
    char origin[200];
    byoc_aws_creds_info_origin(&info, origin, sizeof origin);
    CHECK_STR(origin, "env");
    byoc_aws_creds_clear(&cr);
    /* ...and over AWS_PROFILE, but not over --profile. */
    setenv("AWS_PROFILE", "filed", 1);
    CHECK_INT(resolve(NULL, &cr, &info, &err), 0);
    CHECK_STR(info.source, "env");
    byoc_aws_creds_clear(&cr);
    unsetenv("AWS_PROFILE");
    CHECK_INT(resolve("filed", &cr, &info, &err), 0);
    CHECK_STR(cr.access_key_id, "AKIDFILED");
    CHECK_STR(info.source, "shared-credentials-file");
    CHECK_STR(info.profile, "filed");
    CHECK(cr.session_token == NULL);
    byoc_aws_creds_info_origin(&info, origin, sizeof origin);
    CHECK_STR(origin, "profile filed (shared-credentials-file)");
    byoc_aws_creds_clear(&cr);
    /* Half the env pair is an error, as in the CLI. */
    unsetenv("AWS_SECRET_ACCESS_KEY");
    CHECK_INT(resolve(NULL, &cr, &info, &err), -1);
    CHECK_INT(err.kind, BYOC_E_ENV);
    CHECK(strstr(err.message, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not") != NULL);
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SESSION_TOKEN");

    /* Default profile from the credentials file. */
    CHECK_INT(resolve(NULL, &cr, &info, &err), 0);
    CHECK_STR(cr.access_key_id, "AKIDDEFAULT");
    CHECK_STR(info.source, "shared-credentials-file");
    CHECK_STR(info.profile, "default");
    byoc_aws_creds_clear(&cr);
    /* Keys only in the config file. */
    CHECK_INT(resolve("configured", &cr, &info, &err), 0);
    CHECK_STR(cr.access_key_id, "AKIDCONFIG");
    CHECK_STR(cr.session_token, "config-session-token");
    CHECK_STR(info.source, "config-file");
    byoc_aws_creds_clear(&cr);
    /* The credentials file comes before credential_process. */
    CHECK_INT(resolve("both", &cr, &info, &err), 0);
    CHECK_STR(info.source, "shared-credentials-file");
    byoc_aws_creds_clear(&cr);
    /* A profile with half a key pair. */
    CHECK_INT(resolve("half", &cr, &info, &err), -1);
    CHECK(strstr(err.message, "has aws_access_key_id but no aws_secret_access_key") != NULL);
    /* Secrets read from the files are redacted everywhere from now on. */
    char *red = byoc_redact_dup("x filed-secret-value y");
    CHECK_STR(red, "x *** y");
    free(red);
    /* No credentials anywhere. */
    CHECK_INT(resolve("empty", &cr, &info, &err), -1);
    CHECK_INT(err.kind, BYOC_E_ENV);
    CHECK(strstr(err.message, "no AWS credentials found") != NULL);
    CHECK(strstr(err.message, "\"empty\"") != NULL);
    setenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/x", 1);
    CHECK_INT(resolve("empty", &cr, &info, &err), -1);
    CHECK(strstr(err.message, "container credentials") != NULL);
    unsetenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
}

static void test_process(void)
{
    byoc_aws_creds cr;
    byoc_aws_creds_info info;
    byoc_err err;
    byoc_err_clear(&err);    /* read below even when resolve succeeds (and leaves it alone) */
    /* Arguments arrive split as the CLI splits them, with no shell in between:
     * quotes group, and $HOME ; | stay literal. */
    CHECK_INT(resolve("proc", &cr, &info, &err), 0);
    if (err.message[0] && cr.access_key_id == NULL)
        fprintf(stderr, "proc: %s\n", err.message);
    CHECK_STR(cr.access_key_id, "AKIDPROC");
    CHECK_STR(cr.secret_access_key, "proc-secret-value");
    CHECK_STR(cr.session_token, "two words|$HOME;|x|");
    CHECK_STR(info.source, "credential-process");
    CHECK_STR(info.profile, "proc");
    CHECK_INT(info.expiration, 4070908800); /* 2099-01-01T00:00:00Z */
    byoc_aws_creds_clear(&cr);
    char *red = byoc_redact_dup("proc-secret-value");
    CHECK_STR(red, "***");
    free(red);

    static const struct {
        const char *profile;
        const char *want;
    } bad[] = {
        {"proc-exit", "failed with exit status 3: token expired, run login"},
        {"proc-badjson", "not a JSON object"},
        {"proc-version", "unsupported Version 2"},
        {"proc-nokey", "lacks SecretAccessKey"},
        {"proc-badexp", "unreadable Expiration"},
        {"proc-missing", "cannot run /nonexistent/credential-helper"},
        {"proc-quote", "cannot split the command line: No closing quotation"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_INT(resolve(bad[i].profile, &cr, &info, &err), -1);
        CHECK_INT(err.kind, BYOC_E_ENV);
        CHECK_STR(err.what, "credential_process");
        if (!strstr(err.message, bad[i].want) || !strstr(err.message, bad[i].profile))
            check_fail(__FILE__, __LINE__, "%s: got [%s], want it to contain [%s]", bad[i].profile, err.message,
                       bad[i].want);
        /* A secret the process printed before failing never shows. */
        CHECK(strstr(err.message, "leaked-secret-value") == NULL);
    }

    /* The JSON parser alone. */
    CHECK_INT(byoc_aws_credential_process_parse("p", "{\"Version\":1,\"AccessKeyId\":\"A\",\"SecretAccessKey\":"
                                                     "\"S-secret\",\"Expiration\":\"2030-05-01T10:00:00.123+02:00\"}",
                                                &cr, &err), 0);
    CHECK_INT(cr.expiration, 1903860000 - 7200);
    CHECK(cr.session_token == NULL);
    byoc_aws_creds_clear(&cr);
    CHECK_INT(byoc_aws_credential_process_parse("p", "{\"Version\":\"1\",\"AccessKeyId\":\"A\"}", &cr, &err), -1);
    CHECK(strstr(err.message, "unsupported Version 1") != NULL);
}

static int count_runs(void)
{
    char *text = check_read_file(counter, NULL);
    int n = 0;
    for (char *p = text; p && *p; p++)
        n += *p == '\n';
    free(text);
    return n;
}

/* A helper that never ends (it waits for a login, say) is waited for until the
 * task is cancelled: then the wait ends and the error says so. The helper's
 * own child (sleep, whose pid it writes) keeps the pipes open, so their
 * closing cannot be what ends the wait; the test kills it at the end. */
static int resolve_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg;
    *result = NULL;
    *result_free = NULL;
    byoc_aws_config *c = load("proc-hang");
    byoc_aws_chain_opts o = {.task = t};
    byoc_aws_creds cr;
    int rc = c ? byoc_aws_credentials_resolve(c, &o, &cr, NULL, err) : -1;
    if (rc == 0)
        byoc_aws_creds_clear(&cr);
    byoc_aws_config_free(c);
    return rc;
}

static void test_process_cancel(void)
{
    byoc_evq *q = byoc_evq_new();
    byoc_task *t = byoc_task_start(q, "credentials", resolve_task, NULL, NULL);
    char *pid_text;
    while (!(pid_text = check_read_file(started, NULL)))
        usleep(10000);                   /* the helper runs: now cancel it */
    byoc_task_cancel(t);
    byoc_event ev;
    bool ended = false;
    while (!ended) {
        byoc_evq_wait(q, -1);
        while (byoc_evq_pop(q, &ev)) {
            if (ev.kind == BYOC_EV_ERROR) {
                ended = true;
                CHECK_INT(ev.err.kind, BYOC_E_CANCELLED);
                CHECK(strstr(ev.err.message, "proc-hang") != NULL);
                CHECK(strstr(ev.err.message, "cancelled") != NULL);
            } else if (ev.kind == BYOC_EV_DONE) {
                ended = true;
                CHECK(!"a helper that never ends gave credentials");
            }
            byoc_event_release(&ev);
        }
    }
    byoc_task_release(t);
    byoc_evq_free(q);
    pid_t sleeper = (pid_t)atoi(pid_text);
    CHECK(sleeper > 1);
    if (sleeper > 1)
        kill(sleeper, SIGKILL);
    free(pid_text);
}

/* Three gets from a fresh provider of profile: each must give want_key from a
 * credential process. Returns how many times the process ran. */
static int three_gets(const char *profile, const char *want_key)
{
    byoc_err err;
    byoc_aws_config *c = load(profile);
    byoc_aws_creds_provider *p = byoc_aws_creds_provider_new(c, NULL);
    unlink(counter);
    for (int i = 0; i < 3; i++) {
        byoc_aws_creds cr;
        byoc_aws_creds_info info;
        CHECK_INT(byoc_aws_creds_provider_get(p, NULL, &cr, &info, &err), 0);
        CHECK_STR(cr.access_key_id, want_key);
        CHECK_STR(info.source, "credential-process");
        byoc_aws_creds_clear(&cr);
    }
    byoc_aws_creds_provider_free(p);
    byoc_aws_config_free(c);
    return count_runs();
}

static void test_provider_refresh(void)
{
    /* Long-lived: resolved once, then served from the cache. */
    CHECK_INT(three_gets("proc-counting", "AKIDCOUNT"), 1);
    /* Expiring within 15 minutes: every get runs the process again. */
    CHECK_INT(three_gets("proc-expiring", "AKIDCOUNT"), 3);
    /* Expiring within 15 minutes and the refresh fails: the current ones serve, and the
     * next try waits a while instead of coming with every request. */
    CHECK_INT(three_gets("proc-flaky", "AKIDFLAKY"), 2);
}

static void test_assume_role_config(void)
{
    byoc_aws_creds cr;
    byoc_aws_creds_info info;
    byoc_err err;
    static const struct {
        const char *profile;
        const char *want;
    } cases[] = {
        {"loop-a", "infinite loop in the source_profile chain: loop-a -> loop-b -> loop-a"},
        {"loop-self", "infinite loop in the source_profile chain: loop-self -> loop-self"},
        {"role-both", "contains both source_profile and credential_source"},
        {"role-neither", "has role_arn but neither source_profile nor credential_source"},
        {"role-missing-source", "the source_profile \"ghost\" referenced in the profile \"role-missing-source\" does not exist"},
        {"role-empty-source", "the source profile \"empty\" must have credentials"},
        {"role-mfa", "mfa_serial"},
        {"role-imds", "credential_source = Ec2InstanceMetadata is not supported"},
        {"role-bogus", "credential_source = Bogus is not valid"},
        {"role-env", "credential_source = Environment, but AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set"},
        {"role-duration", "duration_seconds must be 900..43200"},
        {"sso", "IAM Identity Center (SSO) is not supported"},
        {"sso-legacy", "IAM Identity Center (SSO) is not supported"},
        {"web-missing-token", "web_identity_token_file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CHECK_INT(resolve(cases[i].profile, &cr, &info, &err), -1);
        CHECK_INT(err.kind, BYOC_E_ENV);
        if (!strstr(err.message, cases[i].want))
            check_fail(__FILE__, __LINE__, "%s: got [%s], want [%s]", cases[i].profile, err.message, cases[i].want);
    }
}

int main(void)
{
    clear_env();
    dir = check_tmpdir();
    snprintf(config_path, sizeof config_path, "%s/config", dir);
    snprintf(creds_path, sizeof creds_path, "%s/credentials", dir);
    snprintf(script, sizeof script, "%s/cred helper.sh", dir);
    snprintf(failing, sizeof failing, "%s/failing.sh", dir);
    snprintf(counter, sizeof counter, "%s/runs", dir);
    snprintf(started, sizeof started, "%s/started", dir);

    /* A credential helper; it is exec'd by path (no shell parses our command line). */
    char text[8192];
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "mode=$1; shift\n"
             "case $mode in\n"
             "ok) printf '{\"Version\": 1, \"AccessKeyId\": \"AKIDPROC\", \"SecretAccessKey\": "
             "\"proc-secret-value\", \"SessionToken\": \"%%s|%%s|%%s|%%s\", \"Expiration\": "
             "\"2099-01-01T00:00:00Z\"}' \"$1\" \"$2\" \"$3\" \"$4\" ;;\n"
             "exit) echo leaked-secret-value; echo 'token expired, run login' >&2; exit 3 ;;\n"
             "badjson) echo 'SecretAccessKey=leaked-secret-value' ;;\n"
             "version) echo '{\"Version\": 2, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"leaked-secret-value\"}' ;;\n"
             "nokey) echo '{\"Version\": 1, \"AccessKeyId\": \"A\"}' ;;\n"
             "badexp) echo '{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"leaked-secret-value\", "
             "\"Expiration\": \"soon\"}' ;;\n"
             "count) echo run >> \"$1\"; echo \"{\\\"Version\\\": 1, \\\"AccessKeyId\\\": \\\"AKIDCOUNT\\\", "
             "\\\"SecretAccessKey\\\": \\\"count-secret-value\\\", \\\"SessionToken\\\": \\\"t-token-value\\\", "
             "\\\"Expiration\\\": \\\"$2\\\"}\" ;;\n"
             "flaky) echo run >> \"$1\"; [ $(wc -l < \"$1\") -gt 1 ] && { echo 'login expired' >&2; exit 1; }; "
             "echo \"{\\\"Version\\\": 1, \\\"AccessKeyId\\\": \\\"AKIDFLAKY\\\", \\\"SecretAccessKey\\\": "
             "\\\"flaky-secret-value\\\", \\\"Expiration\\\": \\\"$2\\\"}\" ;;\n"
             "hang) sleep 600 & echo $! > \"$1.tmp\"; mv \"$1.tmp\" \"$1\"; wait ;;\n"
             "esac\n");
    write_file(script, text, 0700);

    time_t soon = time(NULL) + 5 * 60;
    struct tm tm;
    gmtime_r(&soon, &tm);
    char soon_s[32];
    strftime(soon_s, sizeof soon_s, "%Y-%m-%dT%H:%M:%SZ", &tm);

    byoc_buf cfg = BYOC_BUF_INIT;
    byoc_buf_printf(&cfg,
             "[default]\nregion = us-east-1\n"
             "[profile configured]\naws_access_key_id = AKIDCONFIG\naws_secret_access_key = config-secret-value\n"
             "aws_session_token = config-session-token\n"
             "[profile both]\ncredential_process = '%s' ok\n"
             "[profile half]\naws_access_key_id = AKIDHALF\n"
             "[profile empty]\nregion = us-east-1\n"
             "[profile proc]\ncredential_process = '%s' ok \"two words\" '$HOME;' x\n"
             "[profile proc-exit]\ncredential_process = '%s' exit\n"
             "[profile proc-badjson]\ncredential_process = '%s' badjson\n"
             "[profile proc-version]\ncredential_process = '%s' version\n"
             "[profile proc-nokey]\ncredential_process = '%s' nokey\n"
             "[profile proc-badexp]\ncredential_process = '%s' badexp\n"
             "[profile proc-missing]\ncredential_process = /nonexistent/credential-helper --x\n"
             "[profile proc-quote]\ncredential_process = '%s ok\n"
             "[profile proc-hang]\ncredential_process = '%s' hang '%s'\n"
             "[profile proc-counting]\ncredential_process = '%s' count '%s' 2099-01-01T00:00:00Z\n"
             "[profile proc-expiring]\ncredential_process = '%s' count '%s' %s\n"
             "[profile proc-flaky]\ncredential_process = '%s' flaky '%s' %s\n"
             "[profile loop-a]\nrole_arn = arn:aws:iam::123456789012:role/a\nsource_profile = loop-b\n"
             "[profile loop-b]\nrole_arn = arn:aws:iam::123456789012:role/b\nsource_profile = loop-a\n"
             "[profile loop-self]\nrole_arn = arn:aws:iam::123456789012:role/s\nsource_profile = loop-self\n"
             "[profile role-both]\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = filed\n"
             "credential_source = Environment\n"
             "[profile role-neither]\nrole_arn = arn:aws:iam::123456789012:role/x\n"
             "[profile role-missing-source]\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = ghost\n"
             "[profile role-empty-source]\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = empty\n"
             "[profile role-mfa]\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = filed\n"
             "mfa_serial = arn:aws:iam::123456789012:mfa/me\n"
             "[profile role-imds]\nrole_arn = arn:aws:iam::123456789012:role/x\n"
             "credential_source = Ec2InstanceMetadata\n"
             "[profile role-bogus]\nrole_arn = arn:aws:iam::123456789012:role/x\ncredential_source = Bogus\n"
             "[profile role-env]\nrole_arn = arn:aws:iam::123456789012:role/x\ncredential_source = Environment\n"
             "[profile role-duration]\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = filed\n"
             "duration_seconds = 60\n"
             "[profile sso]\nsso_session = corp\nsso_account_id = 123456789012\nsso_role_name = dev\n"
             "[profile sso-legacy]\nsso_start_url = https://corp.awsapps.com/start\n"
             "[profile web-missing-token]\nrole_arn = arn:aws:iam::123456789012:role/x\n"
             "web_identity_token_file = %s/no-such-token\n"
             "[sso-session corp]\nsso_region = us-east-1\n",
             script, script, script, script, script, script, script, script, script, started, script, counter, script,
             counter, soon_s, script, counter, soon_s, dir);
    write_file(config_path, cfg.data, 0600);
    byoc_buf_clear(&cfg);
    write_file(creds_path,
               "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = default-secret-value\n"
               "[filed]\naws_access_key_id = AKIDFILED\naws_secret_access_key = filed-secret-value\n"
               "[both]\naws_access_key_id = AKIDBOTH\naws_secret_access_key = both-secret-value\n",
               0600);

    test_shlex();
    test_env_and_files();
    test_process();
    test_provider_refresh();
    test_assume_role_config();
    test_process_cancel();

    unlink(config_path);
    unlink(creds_path);
    unlink(script);
    unlink(counter);
    unlink(started);
    rmdir(dir);
    free(dir);
    byoc_secret_clear_all();
    return check_done();
}
