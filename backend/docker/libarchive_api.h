/* libarchive_api: libarchive, loaded on first use (dlopen) rather than at start-up, so that
 * commands that never read or write a tar (doctor, jobs, status...) do not map libarchive and
 * what it drags in (libxml2, ICU, libstdc++, the compression libraries): about 1-2 MiB of
 * resident memory each run.
 *
 * byoc_archive_api_get() returns a table with one member per libarchive function byoc uses,
 * named like the function: `ar->archive_write_new()`. Add a function to BYOC_ARCHIVE_FUNCS to
 * use it. The prototypes come from libarchive's own headers, so calls are type-checked. */
#ifndef BYOC_DOCKER_LIBARCHIVE_API_H
#define BYOC_DOCKER_LIBARCHIVE_API_H

#include <archive.h>
#include <archive_entry.h>

#include "core/err.h"

#define BYOC_ARCHIVE_FUNCS(X)                                                                      \
    X(archive_error_string)                                                                        \
    X(archive_format)                                                                              \
    X(archive_read_new)                                                                            \
    X(archive_read_free)                                                                           \
    X(archive_read_support_filter_all)                                                             \
    X(archive_read_support_format_tar)                                                             \
    X(archive_read_support_format_gnutar)                                                          \
    X(archive_read_open_memory)                                                                    \
    X(archive_read_open_filename)                                                                  \
    X(archive_read_open_fd)                                                                        \
    X(archive_filter_bytes)                                                                        \
    X(archive_read_next_header)                                                                    \
    X(archive_read_data)                                                                           \
    X(archive_read_data_block)                                                                     \
    X(archive_write_new)                                                                           \
    X(archive_write_free)                                                                          \
    X(archive_write_close)                                                                         \
    X(archive_write_set_format_pax_restricted)                                                     \
    X(archive_write_set_bytes_in_last_block)                                                       \
    X(archive_write_add_filter_gzip)                                                               \
    X(archive_write_set_filter_option)                                                             \
    X(archive_write_open)                                                                          \
    X(archive_write_open2)                                                                         \
    X(archive_write_open_fd)                                                                       \
    X(archive_write_header)                                                                        \
    X(archive_write_data)                                                                          \
    X(archive_write_data_block)                                                                    \
    X(archive_write_finish_entry)                                                                  \
    X(archive_write_disk_new)                                                                      \
    X(archive_write_disk_set_options)                                                              \
    X(archive_entry_new)                                                                           \
    X(archive_entry_new2)                                                                          \
    X(archive_entry_free)                                                                          \
    X(archive_entry_copy_pathname)                                                                 \
    X(archive_entry_copy_stat)                                                                     \
    X(archive_entry_copy_symlink)                                                                  \
    X(archive_entry_filetype)                                                                      \
    X(archive_entry_hardlink)                                                                      \
    X(archive_entry_pathname)                                                                      \
    X(archive_entry_size)                                                                          \
    X(archive_entry_symlink)                                                                       \
    X(archive_entry_set_filetype)                                                                  \
    X(archive_entry_set_gid)                                                                       \
    X(archive_entry_set_hardlink)                                                                  \
    X(archive_entry_set_mtime)                                                                     \
    X(archive_entry_set_nlink)                                                                     \
    X(archive_entry_set_pathname)                                                                  \
    X(archive_entry_set_perm)                                                                      \
    X(archive_entry_set_size)                                                                      \
    X(archive_entry_set_uid)                                                                       \
    X(archive_entry_unset_atime)                                                                   \
    X(archive_entry_unset_birthtime)                                                               \
    X(archive_entry_unset_ctime)                                                                   \
    X(archive_entry_xattr_add_entry)                                                               \
    X(archive_entry_linkify)                                                                       \
    X(archive_entry_linkresolver_new)                                                              \
    X(archive_entry_linkresolver_free)                                                             \
    X(archive_entry_linkresolver_set_strategy)

typedef struct byoc_archive_api {
#define BYOC_ARCHIVE_MEMBER(fn) __typeof__(&fn) fn;
    BYOC_ARCHIVE_FUNCS(BYOC_ARCHIVE_MEMBER)
#undef BYOC_ARCHIVE_MEMBER
} byoc_archive_api;

/* The table, loading libarchive the first time (thread-safe). NULL with err set (BYOC_E_ENV,
 * naming the library and the fix) if the library or one of its functions cannot be found; a
 * later call fails the same way. After one successful call it never fails. */
const byoc_archive_api *byoc_archive_api_get(byoc_err *err);

#endif
