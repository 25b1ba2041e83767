#include "docker/registry_auth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "core/buf.h"
#include "core/log.h"

char *byoc_base64_encode(const void *data, size_t len)
{
    char *out = byoc_xmalloc(4 * ((len + 2) / 3) + 1);
    EVP_EncodeBlock((unsigned char *)out, data, (int)len);
    return out;
}

char *byoc_base64url_encode(const void *data, size_t len)
{
    char *out = byoc_base64_encode(data, len);
    for (char *p = out; *p; p++) {
        if (*p == '+')
            *p = '-';
        else if (*p == '/')
            *p = '_';
    }
    return out;
}

char *byoc_registry_auth_header(const char *username, const char *password, const char *serveraddress)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "username", json_string(username ? username : ""));
    json_object_set_new(doc, "password", json_string(password ? password : ""));
    json_object_set_new(doc, "serveraddress", json_string(serveraddress ? serveraddress : ""));
    char *text = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    char *enc = byoc_base64url_encode(text, strlen(text));
    byoc_free_secret(text);
    byoc_secret_register(enc);
    return enc;
}

char *byoc_docker_config_path(void)
{
    const char *dir = getenv("DOCKER_CONFIG");
    if (dir && *dir)
        return byoc_xasprintf("%s/config.json", dir);
    const char *home = getenv("HOME");
    return byoc_xasprintf("%s/.docker/config.json", home && *home ? home : ".");
}

static int read_config(const char *path, json_t **out, byoc_err *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT) {
            *out = json_object();
            return 0;
        }
        return byoc_err_set(err, BYOC_E_FAILED, "--docker-config", "cannot read %s: %s", path, strerror(errno));
    }
    json_error_t je;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!doc) {
        /* An empty file is a fresh config, as docker treats it. */
        struct stat st;
        if (stat(path, &st) == 0 && st.st_size == 0) {
            *out = json_object();
            return 0;
        }
        return byoc_err_set(err, BYOC_E_FAILED, "--docker-config", "%s is not valid JSON (line %d: %s); left untouched",
                            path, je.line, je.text);
    }
    if (!json_is_object(doc)) {
        json_decref(doc);
        return byoc_err_set(err, BYOC_E_FAILED, "--docker-config", "%s is not a JSON object; left untouched", path);
    }
    *out = doc;
    return 0;
}

static int write_atomically(const char *path, const char *text, byoc_err *err)
{
    char *dir = byoc_xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        if (byoc_mkdir_p(dir, 0700) != 0) {
            int e = errno;
            free(dir);
            return byoc_err_set(err, BYOC_E_FAILED, "--docker-config", "cannot create the directory of %s: %s", path,
                                strerror(e));
        }
    }
    free(dir);
    char *tmp = byoc_xasprintf("%s.byoc-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return byoc_err_set(err, BYOC_E_FAILED, "--docker-config", "cannot write next to %s: %s", path, strerror(e));
    }
    fchmod(fd, 0600);
    size_t len = strlen(text), off = 0;
    int rc = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        off += (size_t)w;
    }
    if (rc == 0 && fsync(fd) != 0)
        rc = -1;
    int e = errno;
    close(fd);
    if (rc == 0 && rename(tmp, path) != 0) {
        e = errno;
        rc = -1;
    }
    if (rc != 0) {
        unlink(tmp);
        byoc_err_set(err, BYOC_E_FAILED, "--docker-config", "cannot write %s: %s", path, strerror(e));
    }
    free(tmp);
    return rc;
}

int byoc_docker_config_store_auth(const char *path, const char *server, const char *username,
                                  const char *password, char *note, size_t note_size, byoc_err *err)
{
    if (note && note_size)
        note[0] = 0;
    json_t *doc;
    if (read_config(path, &doc, err) < 0)
        return -1;
    json_t *auths = json_object_get(doc, "auths");
    if (!json_is_object(auths)) {
        auths = json_object();
        json_object_set_new(doc, "auths", auths);
    }
    char *pair = byoc_xasprintf("%s:%s", username, password);
    char *auth = byoc_base64_encode(pair, strlen(pair));
    byoc_free_secret(pair);
    byoc_secret_register(auth);
    json_object_set_new(auths, server, json_pack("{s:s}", "auth", auth));
    byoc_free_secret(auth);

    const char *helper = json_string_value(json_object_get(json_object_get(doc, "credHelpers"), server));
    const char *store = json_string_value(json_object_get(doc, "credsStore"));
    if (note && helper)
        snprintf(note, note_size, "%s names credHelpers[\"%s\"] = \"%s\": docker will ask that helper, not this entry",
                 path, server, helper);
    else if (note && store && *store)
        snprintf(note, note_size, "%s sets credsStore \"%s\": docker will ask that store, not this entry", path,
                 store);

    char *text = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_puts(&b, text);
    byoc_buf_putc(&b, '\n');
    byoc_free_secret(text);
    int rc = write_atomically(path, byoc_buf_str(&b), err);
    byoc_buf_clear(&b);
    return rc;
}
