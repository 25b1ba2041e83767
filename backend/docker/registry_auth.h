/* registry_auth: credentials for a registry as the Docker engine and the
 * docker CLI take them.
 *
 * X-Registry-Auth (push, pull): Go's base64.URLEncoding — the URL alphabet
 * ('-' and '_') WITH '=' padding — of {"username","password","serveraddress"}
 * (serveraddress = host[:port], no scheme). The engine treats anything it
 * cannot decode as anonymous, silently, so the encoding is exact here.
 *
 * config.json: byoc never writes credentials to disk on its own. Only when the
 * user asks (`byoc push --docker-config`) does it add an `auths` entry
 * {"auth": base64("user:password")} to $DOCKER_CONFIG/config.json (default
 * ~/.docker/config.json), keeping every other member, written atomically with
 * mode 0600 (the directory 0700 when created). */
#ifndef BYOC_DOCKER_REGISTRY_AUTH_H
#define BYOC_DOCKER_REGISTRY_AUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"

/* Base64 with Go's URLEncoding (URL alphabet, padded); malloc'd. */
char *byoc_base64url_encode(const void *data, size_t len);
/* Standard base64 (padded); malloc'd. */
char *byoc_base64_encode(const void *data, size_t len);

/* The X-Registry-Auth value; malloc'd, registered with the redactor (free with byoc_free_secret). */
char *byoc_registry_auth_header(const char *username, const char *password, const char *serveraddress);

/* $DOCKER_CONFIG/config.json, else $HOME/.docker/config.json; malloc'd. */
char *byoc_docker_config_path(void);

/* Add or replace auths[server] = {"auth": base64(user:password)} in the
 * config file at path (created when missing). note (may be NULL) gets a
 * warning when a credsStore or credHelpers entry would make docker ignore the
 * entry. An unreadable or malformed existing file is BYOC_E_FAILED and is
 * left untouched. */
int byoc_docker_config_store_auth(const char *path, const char *server, const char *username,
                                  const char *password, char *note, size_t note_size, byoc_err *err);

#endif
