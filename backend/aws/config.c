#include "aws/config.h"

#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aws/shlex.h"
#include "core/buf.h"
#include "core/log.h"

struct byoc_aws_config {
    char *config_path;
    char *credentials_path;
    byoc_ini config;       /* the config file */
    byoc_ini credentials;  /* the credentials file */
    char *profile;
    const char *profile_origin;
    bool profile_explicit;
    char *region_arg;      /* --region */
    char *ca_bundle;       /* expanded, or NULL */
    char *profile_region_origin;
};

const char *byoc_aws_getenv(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static const char *home_dir(void)
{
    const char *h = byoc_aws_getenv("HOME");
    if (h)
        return h;
    struct passwd *pw = getpwuid(getuid());
    return pw && pw->pw_dir ? pw->pw_dir : "/";
}

char *byoc_aws_expand_home(const char *path)
{
    if (path[0] == '~' && (path[1] == '/' || path[1] == '\0'))
        return byoc_xasprintf("%s%s", home_dir(), path + 1);
    return byoc_xstrdup(path);
}

static char *file_path(const char *given, const char *env, const char *fallback)
{
    const char *p = given ? given : byoc_aws_getenv(env);
    if (p)
        return byoc_aws_expand_home(p);
    return byoc_xasprintf("%s/%s", home_dir(), fallback);
}

void byoc_aws_config_files(const byoc_aws_config_opts *opts, char **config, char **credentials)
{
    static const byoc_aws_config_opts none = {0};
    if (!opts)
        opts = &none;
    *config = file_path(opts->config_file, "AWS_CONFIG_FILE", ".aws/config");
    *credentials = file_path(opts->credentials_file, "AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials");
}

static void register_secrets(const byoc_ini *ini)
{
    static const char *const secret_keys[] = {"aws_secret_access_key", "aws_session_token"};
    for (size_t i = 0; i < ini->len; i++)
        for (size_t j = 0; j < ini->sections[i].len; j++)
            for (size_t k = 0; k < sizeof secret_keys / sizeof *secret_keys; k++)
                if (strcmp(ini->sections[i].kv[j].key, secret_keys[k]) == 0)
                    byoc_secret_register(ini->sections[i].kv[j].value);
}

/* `[profile NAME]` (or `[profile "NAME"]`) -> NAME; also for "services" and
 * "sso-session". The CLI splits the header shell-style and wants two words. */
static bool section_is(const char *section, const char *kind, const char *name)
{
    size_t kl = strlen(kind);
    if (strncmp(section, kind, kl) != 0)
        return false;
    byoc_strv argv = BYOC_STRV_INIT;
    byoc_err ignored;
    if (byoc_shlex_split(section, &argv, &ignored) != 0)
        return false;
    bool match = argv.n == 2 && strcmp(argv.v[0], kind) == 0 && strcmp(argv.v[1], name) == 0;
    byoc_strv_clear(&argv);
    return match;
}

/* The config-file section of a profile. When both `[default]` and
 * `[profile default]` exist the later one wins, as in botocore. */
static const byoc_ini_section *config_profile_section(const byoc_aws_config *c, const char *profile)
{
    const byoc_ini_section *found = NULL;
    for (size_t i = 0; i < c->config.len; i++) {
        const byoc_ini_section *s = &c->config.sections[i];
        if ((strcmp(profile, "default") == 0 && strcmp(s->name, "default") == 0) ||
            section_is(s->name, "profile", profile))
            found = s;
    }
    return found;
}

static const byoc_ini_section *kind_section(const byoc_aws_config *c, const char *kind, const char *name)
{
    const byoc_ini_section *found = NULL;
    for (size_t i = 0; i < c->config.len; i++)
        if (section_is(c->config.sections[i].name, kind, name))
            found = &c->config.sections[i];
    return found;
}

bool byoc_aws_config_has_profile(const byoc_aws_config *c, const char *profile)
{
    return config_profile_section(c, profile) || byoc_ini_section_get(&c->credentials, profile);
}

void byoc_aws_config_free(byoc_aws_config *c)
{
    if (!c)
        return;
    free(c->config_path);
    free(c->credentials_path);
    byoc_ini_clear(&c->config);
    byoc_ini_clear(&c->credentials);
    free(c->profile);
    free(c->region_arg);
    free(c->ca_bundle);
    free(c->profile_region_origin);
    free(c);
}

int byoc_aws_config_load(const byoc_aws_config_opts *opts, byoc_aws_config **out, byoc_err *err)
{
    static const byoc_aws_config_opts none = {0};
    if (!opts)
        opts = &none;
    *out = NULL;
    byoc_aws_config *c = byoc_xcalloc(1, sizeof *c);
    byoc_aws_config_files(opts, &c->config_path, &c->credentials_path);
    bool found;
    if (byoc_ini_load(c->config_path, &c->config, &found, err) ||
        byoc_ini_load(c->credentials_path, &c->credentials, &found, err)) {
        byoc_aws_config_free(c);
        return -1;
    }
    register_secrets(&c->config);
    register_secrets(&c->credentials);

    if (opts->profile && *opts->profile) {
        c->profile = byoc_xstrdup(opts->profile);
        c->profile_origin = "--profile";
        c->profile_explicit = true;
    } else if (byoc_aws_getenv("AWS_DEFAULT_PROFILE")) {
        c->profile = byoc_xstrdup(byoc_aws_getenv("AWS_DEFAULT_PROFILE"));
        c->profile_origin = "AWS_DEFAULT_PROFILE";
    } else if (byoc_aws_getenv("AWS_PROFILE")) {
        c->profile = byoc_xstrdup(byoc_aws_getenv("AWS_PROFILE"));
        c->profile_origin = "AWS_PROFILE";
    } else {
        c->profile = byoc_xstrdup("default");
        c->profile_origin = "default";
    }
    if (strcmp(c->profile, "default") != 0 && !byoc_aws_config_has_profile(c, c->profile)) {
        byoc_err_set(err, c->profile_explicit ? BYOC_E_USAGE : BYOC_E_ENV,
                     c->profile_explicit ? "--profile" : c->profile_origin,
                     "the config profile (%s) could not be found in %s or %s", c->profile, c->config_path,
                     c->credentials_path);
        byoc_aws_config_free(c);
        return -1;
    }
    if (opts->region && *opts->region)
        c->region_arg = byoc_xstrdup(opts->region);
    const char *ca = byoc_aws_getenv("AWS_CA_BUNDLE");
    if (!ca)
        ca = byoc_aws_config_get(c, NULL, "ca_bundle");
    if (ca && *ca)
        c->ca_bundle = byoc_aws_expand_home(ca);
    c->profile_region_origin = byoc_xasprintf("profile %s", c->profile);
    *out = c;
    return 0;
}

const char *byoc_aws_config_config_path(const byoc_aws_config *c) { return c->config_path; }
const char *byoc_aws_config_credentials_path(const byoc_aws_config *c) { return c->credentials_path; }
const char *byoc_aws_config_profile(const byoc_aws_config *c) { return c->profile; }
const char *byoc_aws_config_profile_origin(const byoc_aws_config *c) { return c->profile_origin; }
bool byoc_aws_config_profile_explicit(const byoc_aws_config *c) { return c->profile_explicit; }

const char *byoc_aws_config_get_in(const byoc_aws_config *c, byoc_aws_file file, const char *profile,
                                   const char *key)
{
    if (!profile)
        profile = c->profile;
    const char *v = NULL;
    if (file != BYOC_AWS_FILE_CONFIG)
        v = byoc_ini_get(byoc_ini_section_get(&c->credentials, profile), key);
    if (!v && file != BYOC_AWS_FILE_CREDENTIALS)
        v = byoc_ini_get(config_profile_section(c, profile), key);
    return v;
}

const char *byoc_aws_config_get(const byoc_aws_config *c, const char *profile, const char *key)
{
    return byoc_aws_config_get_in(c, BYOC_AWS_FILE_ANY, profile, key);
}

char *byoc_aws_config_get_sub(const byoc_aws_config *c, const char *profile, const char *key, const char *sub)
{
    if (!profile)
        profile = c->profile;
    const byoc_ini_section *cred = byoc_ini_section_get(&c->credentials, profile);
    if (byoc_ini_get(cred, key))
        return byoc_ini_get_sub(cred, key, sub);
    return byoc_ini_get_sub(config_profile_section(c, profile), key, sub);
}

char *byoc_aws_config_service_get(const byoc_aws_config *c, const char *profile, const char *service_key,
                                  const char *key)
{
    const char *services = byoc_aws_config_get(c, profile, "services");
    if (!services)
        return NULL;
    return byoc_ini_get_sub(kind_section(c, "services", services), service_key, key);
}

const char *byoc_aws_config_sso_session_get(const byoc_aws_config *c, const char *name, const char *key)
{
    return byoc_ini_get(kind_section(c, "sso-session", name), key);
}

const char *byoc_aws_config_region(const byoc_aws_config *c, const char **origin)
{
    const char *o = "", *v = NULL;
    if (c->region_arg) {
        v = c->region_arg;
        o = "--region";
    } else if ((v = byoc_aws_getenv("AWS_REGION")) != NULL) {
        o = "AWS_REGION";
    } else if ((v = byoc_aws_getenv("AWS_DEFAULT_REGION")) != NULL) {
        o = "AWS_DEFAULT_REGION";
    } else if ((v = byoc_aws_config_get(c, NULL, "region")) != NULL && *v) {
        o = c->profile_region_origin;
    } else {
        v = NULL;
    }
    if (origin)
        *origin = o;
    return v;
}

const char *byoc_aws_config_ca_bundle(const byoc_aws_config *c)
{
    return c->ca_bundle;
}

int byoc_aws_config_retry(const byoc_aws_config *c, byoc_retry_mode *mode, int *max_attempts, byoc_err *err)
{
    return byoc_retry_config(byoc_aws_config_get(c, NULL, "retry_mode"), byoc_aws_config_get(c, NULL, "max_attempts"),
                             mode, max_attempts, err);
}
