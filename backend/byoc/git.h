/* git: the project's git facts and git work, through libgit2.
 *  - the commit (full and short sha), dirty state, branch and origin, for image
 *    labels (org.opencontainers.image.revision/source) and tags like
 *    <name>:<short-sha>[-dirty];
 *  - a new repository with one commit of the files byoc scaffolded (a fallback
 *    author when the user has none configured);
 *  - vendoring private dependencies into the build context: clone with the
 *    user's ssh-agent (git_credential_ssh_key_from_agent), so no key ever
 *    enters a build or an image. */
#ifndef BYOC_BYOC_GIT_H
#define BYOC_BYOC_GIT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "core/strv.h"
#include "core/task.h"

typedef struct json_t json_t;

typedef struct byoc_git_rev {
    bool is_repo;        /* false: dir is not inside a git work tree (the rest is empty) */
    bool unborn;         /* a repository without commits */
    char sha[41];
    char short_sha[41];  /* the shortest unique abbreviation (at least 7) */
    bool dirty;          /* changed, staged or untracked (not ignored) files */
    char *branch;        /* NULL when detached or unborn */
    char *remote_url;    /* origin's URL with any credentials removed, or NULL */
    char *workdir;       /* the work tree's root */
} byoc_git_rev;

/* Read the revision of the repository containing dir. Not being in a
 * repository is not an error (is_repo = false), and costs no libgit2 when
 * no .git lies above dir. */
int byoc_git_revision(const char *dir, byoc_git_rev *out, byoc_err *err);
void byoc_git_rev_clear(byoc_git_rev *r);

/* "<name>:<short-sha>[-dirty]"; NULL when there is no commit. Caller frees. */
char *byoc_git_image_tag(const char *name, const byoc_git_rev *r);
/* OCI labels {"org.opencontainers.image.revision": sha, "org.opencontainers.image.source": url}
 * (each only when known). Caller decrefs. */
json_t *byoc_git_labels(const byoc_git_rev *r);
/* A browsable https URL for a remote ("git@github.com:o/r.git" -> "https://github.com/o/r"),
 * credentials dropped. Caller frees. */
char *byoc_git_source_url(const char *remote);

/* Make dir a repository (unless it already is one) and commit `paths`
 * (relative to dir) as the first commit. Author: GIT_AUTHOR_NAME/EMAIL, else
 * the git config, else "byoc <byoc@localhost>". *created (may be NULL) says
 * whether a repository was created; when dir was already inside a work tree
 * nothing is committed. sha_out (may be NULL) gets the commit id. */
int byoc_git_init_commit(const char *dir, const char *const *paths, size_t n, const char *message,
                         bool *created, char sha_out[41], byoc_err *err);

/* A dependency spec from requirements.txt or a URL: "git+ssh://git@host/o/r.git@v1#egg=x",
 * "x @ git+ssh://...", "git@host:o/r.git", "ssh://...", "file:///path/repo.git". */
typedef struct byoc_git_dep {
    char *url;           /* what libgit2 clones */
    char *ref;           /* branch, tag or commit; NULL for the default branch */
    char *name;          /* directory name under the vendor dir */
} byoc_git_dep;

int byoc_git_parse_dep(const char *spec, byoc_git_dep *out);  /* -1 if not a git URL */
void byoc_git_dep_clear(byoc_git_dep *d);

/* Clone url (checking out ref when given) into dest, which must not exist or
 * be empty. SSH authenticates with the ssh-agent only (SSH_AUTH_SOCK); the
 * URL is used as written (no url.*.insteadOf rewriting). The repository's
 * .git is removed unless keep_git. Progress and cancellation go through task
 * (may be NULL). */
int byoc_git_vendor(const char *url, const char *ref, const char *dest, bool keep_git, byoc_task *task,
                    byoc_err *err);

#endif
