#include "byoc/git.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/libgit2_api.h"
#include "byoc/requirements.h"
#include "core/buf.h"
#include "core/files.h"
#include "core/log.h"

static int git_fail(byoc_err *err, const char *what, const char *doing)
{
    const byoc_git_api *gt = byoc_git_api_get(NULL); /* loaded by the public entry point */
    const git_error *e = gt->git_error_last();
    return byoc_err_set(err, BYOC_E_FAILED, what, "%s: %s", doing, e && e->message ? e->message : "failed");
}

/* ---- revision ---------------------------------------------------------- */

static char *strip_credentials(const char *url)
{
    const char *p = strstr(url, "://");
    if (!p)
        return byoc_xstrdup(url);
    const char *host = p + 3, *at = strchr(host, '@'), *slash = strchr(host, '/');
    if (!at || (slash && slash < at))
        return byoc_xstrdup(url);
    const char *colon = memchr(host, ':', (size_t)(at - host));
    if (!colon) /* "ssh://git@host": a user name, no secret */
        return byoc_xstrdup(url);
    return byoc_xasprintf("%.*s%.*s@%s", (int)(host - url), url, (int)(colon - host), host, at + 1);
}

char *byoc_git_source_url(const char *remote)
{
    if (!remote)
        return NULL;
    char *u;
    const char *at = strchr(remote, '@'), *colon = strchr(remote, ':');
    if (!strstr(remote, "://") && at && colon && at < colon) {
        u = byoc_xasprintf("https://%.*s/%s", (int)(colon - at - 1), at + 1, colon + 1); /* scp-style */
    } else if (!strncmp(remote, "ssh://", 6) || !strncmp(remote, "git://", 6) || !strncmp(remote, "http", 4)) {
        const char *host = strstr(remote, "://") + 3;
        const char *hat = strchr(host, '@'), *slash = strchr(host, '/');
        if (hat && (!slash || hat < slash))
            host = hat + 1;
        size_t hn = strcspn(host, "/");
        const char *hc = memchr(host, ':', hn);
        if (!strncmp(remote, "https://", 8) || !strncmp(remote, "http://", 7))
            hc = NULL; /* an http port stays */
        u = byoc_xasprintf("https://%.*s%s", hc ? (int)(hc - host) : (int)hn, host, host + hn);
    } else {
        return strip_credentials(remote);
    }
    size_t n = strlen(u);
    if (n > 4 && !strcmp(u + n - 4, ".git"))
        u[n - 4] = '\0';
    return u;
}

/* Is dir inside a git work tree? A cheap look for .git upwards first, so a
 * directory outside any repository never pays for loading libgit2. */
static bool maybe_in_repository(const char *dir)
{
    const char *gd = getenv("GIT_DIR");
    if (gd && *gd)
        return true;
    char *p = realpath(dir, NULL);
    if (!p)
        return true;            /* let libgit2 say what is wrong */
    bool found = false;
    for (;;) {
        char *probe = byoc_xasprintf("%s/.git", strcmp(p, "/") == 0 ? "" : p);
        found = access(probe, F_OK) == 0;
        free(probe);
        char *slash = strrchr(p, '/');
        if (found || !slash || slash == p)
            break;
        *slash = '\0';
    }
    free(p);
    return found;
}

int byoc_git_revision(const char *dir, byoc_git_rev *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!maybe_in_repository(dir))
        return 0;
    const byoc_git_api *gt = byoc_git_api_get(err);
    if (!gt)
        return -1;
    gt->git_libgit2_init();
    git_repository *repo = NULL;
    int rc = gt->git_repository_open_ext(&repo, dir, 0, NULL);
    if (rc == GIT_ENOTFOUND) {
        gt->git_libgit2_shutdown();
        return 0;
    }
    if (rc < 0) {
        git_fail(err, "git", "cannot open the repository");
        gt->git_libgit2_shutdown();
        return -1;
    }
    out->is_repo = true;
    const char *wd = gt->git_repository_workdir(repo);
    out->workdir = byoc_xstrdup(wd ? wd : gt->git_repository_path(repo));
    git_reference *head = NULL;
    rc = gt->git_repository_head(&head, repo);
    if (rc == GIT_EUNBORNBRANCH || rc == GIT_ENOTFOUND) {
        out->unborn = true;
    } else if (rc < 0) {
        git_fail(err, "git", "cannot read HEAD");
        gt->git_repository_free(repo);
        gt->git_libgit2_shutdown();
        return -1;
    } else {
        git_object *obj = NULL;
        if (gt->git_reference_peel(&obj, head, GIT_OBJECT_COMMIT) == 0) {
            gt->git_oid_tostr(out->sha, sizeof out->sha, gt->git_object_id(obj));
            git_buf sb = {0};
            if (gt->git_object_short_id(&sb, obj) == 0)
                snprintf(out->short_sha, sizeof out->short_sha, "%s", sb.ptr);
            else
                snprintf(out->short_sha, sizeof out->short_sha, "%.7s", out->sha);
            gt->git_buf_dispose(&sb);
            gt->git_object_free(obj);
        }
        if (gt->git_reference_is_branch(head))
            out->branch = byoc_xstrdup(gt->git_reference_shorthand(head));
        gt->git_reference_free(head);
    }
    if (!gt->git_repository_is_bare(repo)) {
        git_status_options so;
        gt->git_status_options_init(&so, GIT_STATUS_OPTIONS_VERSION);
        so.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
        so.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
        git_status_list *st = NULL;
        if (gt->git_status_list_new(&st, repo, &so) == 0) {
            out->dirty = gt->git_status_list_entrycount(st) > 0;
            gt->git_status_list_free(st);
        }
    }
    /* remote.origin.url straight from the config: git_remote_lookup would apply
     * url.*.insteadOf through libgit2 1.5's regex config walk, which leaks */
    git_config *cfg = NULL;
    const char *url = NULL;
    if (gt->git_repository_config_snapshot(&cfg, repo) == 0 && gt->git_config_get_string(&url, cfg, "remote.origin.url") == 0)
        out->remote_url = strip_credentials(url);
    gt->git_config_free(cfg);
    gt->git_error_clear();
    gt->git_repository_free(repo);
    gt->git_libgit2_shutdown();
    return 0;
}

void byoc_git_rev_clear(byoc_git_rev *r)
{
    free(r->branch);
    free(r->remote_url);
    free(r->workdir);
    memset(r, 0, sizeof *r);
}

char *byoc_git_image_tag(const char *name, const byoc_git_rev *r)
{
    if (!name || !*name || !r->is_repo || r->unborn || !r->short_sha[0])
        return NULL;
    return byoc_xasprintf("%s:%s%s", name, r->short_sha, r->dirty ? "-dirty" : "");
}

json_t *byoc_git_labels(const byoc_git_rev *r)
{
    json_t *labels = json_object();
    if (r->is_repo && r->sha[0])
        json_object_set_new(labels, "org.opencontainers.image.revision", json_string(r->sha));
    char *src = byoc_git_source_url(r->remote_url);
    if (src)
        json_object_set_new(labels, "org.opencontainers.image.source", json_string(src));
    free(src);
    return labels;
}

/* ---- a first commit ---------------------------------------------------- */

static int make_signature(git_signature **sig, git_repository *repo)
{
    const byoc_git_api *gt = byoc_git_api_get(NULL); /* loaded by the public entry point */
    const char *name = getenv("GIT_AUTHOR_NAME"), *email = getenv("GIT_AUTHOR_EMAIL");
    if (name && *name && email && *email)
        return gt->git_signature_now(sig, name, email);
    if (gt->git_signature_default(sig, repo) == 0)
        return 0;
    gt->git_error_clear();
    return gt->git_signature_now(sig, "byoc", "byoc@localhost");
}

int byoc_git_init_commit(const char *dir, const char *const *paths, size_t n, const char *message, bool *created,
                         char sha_out[41], byoc_err *err)
{
    if (created)
        *created = false;
    if (sha_out)
        sha_out[0] = '\0';
    const byoc_git_api *gt = byoc_git_api_get(err);
    if (!gt)
        return -1;
    gt->git_libgit2_init();
    git_repository *repo = NULL;
    int rc = -1;
    if (gt->git_repository_open_ext(&repo, dir, 0, NULL) == 0) { /* already inside a work tree */
        gt->git_repository_free(repo);
        gt->git_libgit2_shutdown();
        return 0;
    }
    gt->git_error_clear();
    git_index *index = NULL;
    git_tree *tree = NULL;
    git_signature *sig = NULL;
    git_oid tree_id, commit_id;
    if (gt->git_repository_init(&repo, dir, 0) < 0) {
        git_fail(err, dir, "cannot create a git repository");
        goto out;
    }
    if (created)
        *created = true;
    if (gt->git_repository_index(&index, repo) < 0) {
        git_fail(err, dir, "cannot open the index");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (gt->git_index_add_bypath(index, paths[i]) < 0) {
            git_fail(err, paths[i], "cannot add to the index");
            goto out;
        }
    if (gt->git_index_write(index) < 0 || gt->git_index_write_tree(&tree_id, index) < 0 ||
        gt->git_tree_lookup(&tree, repo, &tree_id) < 0) {
        git_fail(err, dir, "cannot write the tree");
        goto out;
    }
    if (make_signature(&sig, repo) < 0) {
        git_fail(err, dir, "cannot make an author signature");
        goto out;
    }
    if (gt->git_commit_create_v(&commit_id, repo, "HEAD", sig, sig, NULL, message, tree, 0) < 0) {
        git_fail(err, dir, "cannot commit");
        goto out;
    }
    if (sha_out)
        gt->git_oid_tostr(sha_out, 41, &commit_id);
    rc = 0;
out:
    gt->git_signature_free(sig);
    gt->git_tree_free(tree);
    gt->git_index_free(index);
    gt->git_repository_free(repo);
    gt->git_libgit2_shutdown();
    return rc;
}

/* ---- vendoring --------------------------------------------------------- */

void byoc_git_dep_clear(byoc_git_dep *d)
{
    free(d->url);
    free(d->ref);
    free(d->name);
    memset(d, 0, sizeof *d);
}

int byoc_git_parse_dep(const char *spec, byoc_git_dep *out)
{
    memset(out, 0, sizeof *out);
    while (*spec == ' ' || *spec == '\t')
        spec++;
    if (!strncmp(spec, "-e ", 3))
        spec += 3;
    while (*spec == ' ')
        spec++;
    const char *pep508_at = strstr(spec, " @ ");
    char *pep_name = NULL;
    if (pep508_at) {
        pep_name = byoc_pypi_normalize(spec, (size_t)(pep508_at - spec));
        spec = pep508_at + 3;
        while (*spec == ' ')
            spec++;
    }
    char *s = byoc_xstrndup(spec, strcspn(spec, " \t;"));
    char *frag = strchr(s, '#');
    char *egg = NULL;
    if (frag) {
        char *e = strstr(frag, "egg=");
        if (e)
            egg = byoc_pypi_normalize(e + 4, strcspn(e + 4, "&"));
        *frag = '\0';
    }
    const char *u = s;
    if (!strncmp(u, "git+", 4))
        u += 4;
    bool scp = !strstr(u, "://") && strchr(u, '@') && strchr(u, ':') && strchr(u, '@') < strchr(u, ':');
    bool git_url = scp || !strncmp(u, "ssh://", 6) || !strncmp(u, "https://", 8) || !strncmp(u, "http://", 7) ||
                   !strncmp(u, "git://", 6) || !strncmp(u, "file://", 7);
    if (!git_url || (!scp && strncmp(spec, "git+", 4) && strncmp(u, "ssh://", 6) && strncmp(u, "git://", 6) &&
                     !strstr(u, ".git"))) {
        free(s);
        free(egg);
        free(pep_name);
        return -1;
    }
    char *url = byoc_xstrdup(u);
    /* "@ref" after the last path segment ('@' in "git@host" comes before it) */
    char *last_slash = strrchr(url, '/');
    char *last_colon = scp ? strrchr(url, ':') : NULL;
    char *seg = last_slash ? last_slash : last_colon;
    char *at = seg ? strchr(seg, '@') : NULL;
    if (at) {
        out->ref = byoc_xstrdup(at + 1);
        *at = '\0';
    }
    out->url = url;
    const char *base = strrchr(url, '/');
    if (!base && scp)
        base = strrchr(url, ':');
    base = base ? base + 1 : url;
    size_t bn = strlen(base);
    if (bn > 4 && !strcmp(base + bn - 4, ".git"))
        bn -= 4;
    if (pep_name) {
        out->name = pep_name;
        free(egg);
    } else {
        out->name = egg ? egg : byoc_xstrndup(base, bn);
    }
    free(s);
    /* The name becomes a directory under the vendor dir: it must stay one plain component. */
    for (char *p = out->name; *p; p++)
        if (*p == '/')
            *p = '_';
    if (!out->name[0] || !strcmp(out->name, ".") || !strcmp(out->name, "..")) {
        free(out->name);
        out->name = byoc_xstrdup("dependency");
    }
    return 0;
}

typedef struct {
    byoc_task *task;
    int attempts;
    char auth_problem[256];
} vendor_state;

static int credentials_cb(git_credential **out, const char *url, const char *user, unsigned int allowed,
                          void *payload)
{
    const byoc_git_api *gt = byoc_git_api_get(NULL); /* loaded by the public entry point */
    vendor_state *st = payload;
    const char *name = user && *user ? user : "git";
    if (allowed & GIT_CREDENTIAL_SSH_KEY) {
        if (!getenv("SSH_AUTH_SOCK") || !*getenv("SSH_AUTH_SOCK")) {
            snprintf(st->auth_problem, sizeof st->auth_problem,
                     "%s needs SSH: no ssh-agent (SSH_AUTH_SOCK is not set); start one and ssh-add your key", url);
            return GIT_EUSER;
        }
        if (st->attempts++ >= 1) {
            snprintf(st->auth_problem, sizeof st->auth_problem,
                     "%s refused the keys in your ssh-agent (ssh-add -l lists them)", url);
            return GIT_EUSER;
        }
        return gt->git_credential_ssh_key_from_agent(out, name);
    }
    if (allowed & GIT_CREDENTIAL_USERNAME)
        return gt->git_credential_username_new(out, name);
    snprintf(st->auth_problem, sizeof st->auth_problem,
             "%s asks for a password or token; byoc authenticates only with your ssh-agent (use an SSH URL)", url);
    return GIT_EUSER;
}

static int progress_cb(const git_indexer_progress *p, void *payload)
{
    vendor_state *st = payload;
    byoc_task_progress(st->task, "clone", (int64_t)p->received_objects, (int64_t)p->total_objects,
                       "receiving objects");
    return byoc_task_cancelled(st->task) ? GIT_EUSER : 0;
}

/* The clone's remote, created without url.*.insteadOf rewriting (the URL is used as
 * written; libgit2 1.5 also leaks in that rewriting). */
static int create_remote(git_remote **out, git_repository *repo, const char *name, const char *url, void *payload)
{
    const byoc_git_api *gt = byoc_git_api_get(NULL); /* loaded by the public entry point */
    (void)payload;
    git_remote_create_options o;
    gt->git_remote_create_options_init(&o, GIT_REMOTE_CREATE_OPTIONS_VERSION);
    o.repository = repo;
    o.name = name;
    o.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF;
    return gt->git_remote_create_with_opts(out, url, &o);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int remove_tree(const char *path)
{
    return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool dir_empty_or_missing(const char *path)
{
    if (!byoc_path_exists(path))
        return true;
    if (!byoc_path_is_dir(path))
        return false;
    bool empty = true;
    DIR *d = opendir(path);
    if (!d)
        return false;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            empty = false;
            break;
        }
    closedir(d);
    return empty;
}

static int checkout_ref(git_repository *repo, const char *ref, byoc_err *err)
{
    const byoc_git_api *gt = byoc_git_api_get(NULL); /* loaded by the public entry point */
    git_object *obj = NULL;
    char *remote_ref = byoc_xasprintf("origin/%s", ref);
    int rc = gt->git_revparse_single(&obj, repo, remote_ref);
    free(remote_ref);
    if (rc < 0) {
        gt->git_error_clear();
        rc = gt->git_revparse_single(&obj, repo, ref);
    }
    if (rc < 0)
        return byoc_err_set(err, BYOC_E_FAILED, ref, "no such branch, tag or commit in the repository");
    git_object *commit = NULL;
    if (gt->git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0) {
        gt->git_object_free(obj);
        return git_fail(err, ref, "not a commit");
    }
    git_checkout_options co;
    gt->git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
    co.checkout_strategy = GIT_CHECKOUT_FORCE;
    rc = gt->git_checkout_tree(repo, commit, &co);
    if (rc == 0)
        rc = gt->git_repository_set_head_detached(repo, gt->git_object_id(commit));
    gt->git_object_free(commit);
    gt->git_object_free(obj);
    return rc < 0 ? git_fail(err, ref, "cannot check out") : 0;
}

int byoc_git_vendor(const char *url, const char *ref, const char *dest, bool keep_git, byoc_task *task,
                    byoc_err *err)
{
    const byoc_git_api *gt = byoc_git_api_get(err);
    if (!gt)
        return -1;
    if (!dir_empty_or_missing(dest))
        return byoc_err_set(err, BYOC_E_USAGE, dest, "already exists and is not empty; remove it to vendor again");
    if (byoc_make_parents(dest, 0755, err) != 0)
        return -1;
    gt->git_libgit2_init();
    vendor_state st = {task, 0, ""};
    git_clone_options opts;
    gt->git_clone_options_init(&opts, GIT_CLONE_OPTIONS_VERSION);
    opts.fetch_opts.callbacks.credentials = credentials_cb;
    opts.fetch_opts.callbacks.transfer_progress = progress_cb;
    opts.fetch_opts.callbacks.payload = &st;
    opts.remote_cb = create_remote;
    git_repository *repo = NULL;
    byoc_task_status(task, "cloning %s", url);
    int rc = gt->git_clone(&repo, url, dest, &opts);
    if (rc < 0) {
        if (byoc_task_cancelled(task))
            byoc_err_set(err, BYOC_E_CANCELLED, url, "clone cancelled");
        else if (st.auth_problem[0])
            byoc_err_set(err, BYOC_E_ENV, url, "%s", st.auth_problem);
        else
            git_fail(err, url, "cannot clone");
        /* libgit2 checks the server's key against ~/.ssh/known_hosts, as ssh does, and says only
         * "unknown hostkey": say how the user accepts it (never accepted here, unseen) */
        if (strstr(err->message, "hostkey"))
            byoc_err_set(err, BYOC_E_ENV, url,
                         "the server's SSH host key is not in ~/.ssh/known_hosts (or does not match it): "
                         "connect once with ssh (or ssh-keyscan the host into ~/.ssh/known_hosts) after "
                         "checking its fingerprint, then vendor again");
        remove_tree(dest);
        gt->git_libgit2_shutdown();
        return -1;
    }
    rc = ref && *ref ? checkout_ref(repo, ref, err) : 0;
    gt->git_repository_free(repo);
    gt->git_libgit2_shutdown();
    if (rc == 0 && !keep_git) {
        char *dotgit = byoc_path_join(dest, ".git");
        if (remove_tree(dotgit) != 0)
            rc = byoc_err_set(err, BYOC_E_FAILED, dotgit, "cannot remove: %s", strerror(errno));
        free(dotgit);
    }
    if (rc != 0)
        remove_tree(dest);
    return rc;
}
