/* libcurl_api: libcurl, loaded on the first HTTP exchange (dlopen) rather than at start-up.
 *
 * Mapping Debian's libcurl and what it links (OpenSSL, GnuTLS through librtmp, Kerberos, LDAP,
 * libssh2, nghttp2: about 30 libraries) and running their constructors costs ~17 ms at exec,
 * three times what the rest of byoc's start costs; the TUI draws its first frame without the
 * network, and `--version`, `--help` and local verbs never need it.
 *
 * byoc_curl_api_get() returns a table with one member per libcurl function byoc uses, named like
 * the function: `cu->curl_easy_perform(h)`. Only net/http.c calls libcurl. */
#ifndef BYOC_NET_LIBCURL_API_H
#define BYOC_NET_LIBCURL_API_H

/* curl's gcc type-checking wrappers are function-like macros named like the functions, and
 * would expand inside `cu->curl_easy_setopt(...)`; the table's members are plain pointers. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

#include "core/err.h"

/* The soname Debian's libcurl4 (the OpenSSL flavour that libcurl4-openssl-dev links) installs. */
#define BYOC_LIBCURL_SONAME "libcurl.so.4"

#define BYOC_CURL_FUNCS(X)                                                                         \
    X(curl_easy_cleanup)                                                                           \
    X(curl_easy_getinfo)                                                                           \
    X(curl_easy_init)                                                                              \
    X(curl_easy_perform)                                                                           \
    X(curl_easy_reset)                                                                             \
    X(curl_easy_setopt)                                                                            \
    X(curl_easy_strerror)                                                                          \
    X(curl_free)                                                                                   \
    X(curl_global_cleanup)                                                                         \
    X(curl_global_init)                                                                            \
    X(curl_share_cleanup)                                                                          \
    X(curl_share_init)                                                                             \
    X(curl_share_setopt)                                                                           \
    X(curl_slist_append)                                                                           \
    X(curl_slist_free_all)                                                                         \
    X(curl_url)                                                                                    \
    X(curl_url_cleanup)                                                                            \
    X(curl_url_get)                                                                                \
    X(curl_url_set)

typedef struct byoc_curl_api {
#define BYOC_CURL_MEMBER(fn) __typeof__(&fn) fn;
    BYOC_CURL_FUNCS(BYOC_CURL_MEMBER)
#undef BYOC_CURL_MEMBER
} byoc_curl_api;

/* The table, loading libcurl the first time (thread-safe). NULL with err set (BYOC_E_ENV, naming
 * the library and the fix) if the library or one of its functions cannot be found; a later call
 * fails the same way. After one successful call it never fails. */
const byoc_curl_api *byoc_curl_api_get(byoc_err *err);

#endif
