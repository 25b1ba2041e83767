/* libgit2_api: libgit2, loaded on first use (dlopen) rather than at start-up, so that commands
 * that never touch a git repository (doctor, jobs, status...) do not map libgit2 and its
 * dependencies (mbedTLS, libssh2's crypto, http-parser, PCRE2).
 *
 * byoc_git_api_get() returns a table with one member per libgit2 function byoc uses, named
 * like the function: `gt->git_repository_open_ext(...)`. Add a function to BYOC_GIT_FUNCS to use
 * it. The prototypes come from libgit2's own headers, so calls are type-checked. */
#ifndef BYOC_BYOC_LIBGIT2_API_H
#define BYOC_BYOC_LIBGIT2_API_H

#include <git2.h>

#include "core/err.h"

#define BYOC_GIT_FUNCS(X)                                                                          \
    X(git_libgit2_init)                                                                            \
    X(git_libgit2_shutdown)                                                                        \
    X(git_error_last)                                                                              \
    X(git_error_clear)                                                                             \
    X(git_buf_dispose)                                                                             \
    X(git_checkout_options_init)                                                                   \
    X(git_checkout_tree)                                                                           \
    X(git_clone)                                                                                   \
    X(git_clone_options_init)                                                                      \
    X(git_commit_create_v)                                                                         \
    X(git_config_free)                                                                             \
    X(git_config_get_string)                                                                       \
    X(git_credential_ssh_key_from_agent)                                                           \
    X(git_credential_username_new)                                                                 \
    X(git_index_add_bypath)                                                                        \
    X(git_index_free)                                                                              \
    X(git_index_write)                                                                             \
    X(git_index_write_tree)                                                                        \
    X(git_object_free)                                                                             \
    X(git_object_id)                                                                               \
    X(git_object_peel)                                                                             \
    X(git_object_short_id)                                                                         \
    X(git_oid_tostr)                                                                               \
    X(git_reference_free)                                                                          \
    X(git_reference_is_branch)                                                                     \
    X(git_reference_peel)                                                                          \
    X(git_reference_shorthand)                                                                     \
    X(git_remote_create_options_init)                                                              \
    X(git_remote_create_with_opts)                                                                 \
    X(git_repository_config_snapshot)                                                              \
    X(git_repository_free)                                                                         \
    X(git_repository_head)                                                                         \
    X(git_repository_index)                                                                        \
    X(git_repository_init)                                                                         \
    X(git_repository_is_bare)                                                                      \
    X(git_repository_open_ext)                                                                     \
    X(git_repository_path)                                                                         \
    X(git_repository_set_head_detached)                                                            \
    X(git_repository_workdir)                                                                      \
    X(git_revparse_single)                                                                         \
    X(git_signature_default)                                                                       \
    X(git_signature_free)                                                                          \
    X(git_signature_now)                                                                           \
    X(git_status_list_entrycount)                                                                  \
    X(git_status_list_free)                                                                        \
    X(git_status_list_new)                                                                         \
    X(git_status_options_init)                                                                     \
    X(git_tree_free)                                                                               \
    X(git_tree_lookup)

typedef struct byoc_git_api {
#define BYOC_GIT_MEMBER(fn) __typeof__(&fn) fn;
    BYOC_GIT_FUNCS(BYOC_GIT_MEMBER)
#undef BYOC_GIT_MEMBER
} byoc_git_api;

/* The table, loading libgit2 the first time (thread-safe). NULL with err set (BYOC_E_ENV,
 * naming the library and the fix) if the library or one of its functions cannot be found; a
 * later call fails the same way. After one successful call it never fails. */
const byoc_git_api *byoc_git_api_get(byoc_err *err);

#endif
