/* X-Registry-Auth encoding (Go's base64.URLEncoding: URL alphabet, padded;
 * vectors from Python's base64.urlsafe_b64encode) and the opt-in config.json
 * login (other members kept, 0600, a malformed file left untouched). */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/log.h"
#include "docker/registry_auth.h"

#define HOST "123456789012.dkr.ecr.us-east-1.amazonaws.com"

static void test_base64(void)
{
    const unsigned char raw[] = {0xfb, 0xff, 0xbf};
    char *std = byoc_base64_encode(raw, 2), *url = byoc_base64url_encode(raw, 2);
    CHECK_STR(std, "+/8=");
    CHECK_STR(url, "-_8=");
    free(std);
    free(url);
    url = byoc_base64url_encode(raw, 3);
    CHECK_STR(url, "-_-_");
    free(url);
    url = byoc_base64url_encode("a", 1);
    CHECK_STR(url, "YQ=="); /* padding kept: the engine reads unpadded text as anonymous */
    free(url);
    url = byoc_base64url_encode("", 0);
    CHECK_STR(url, "");
    free(url);
}

static void test_header(void)
{
    /* The moto password: no URL-only characters, two '=' of padding. */
    char *h = byoc_registry_auth_header("AWS", "123456789012-auth-token", HOST);
    CHECK_STR(h, "eyJ1c2VybmFtZSI6IkFXUyIsInBhc3N3b3JkIjoiMTIzNDU2Nzg5MDEyLWF1dGgtdG9rZW4iLCJzZXJ2ZXJhZGRyZXNzIjoiMTIz"
                 "NDU2Nzg5MDEyLmRrci5lY3IudXMtZWFzdC0xLmFtYXpvbmF3cy5jb20ifQ==");
    byoc_free_secret(h);
    /* '_' where standard base64 has '/'. */
    h = byoc_registry_auth_header("AWS", "p>?~x", HOST);
    CHECK_STR(h, "eyJ1c2VybmFtZSI6IkFXUyIsInBhc3N3b3JkIjoicD4_fngiLCJzZXJ2ZXJhZGRyZXNzIjoiMTIzNDU2Nzg5MDEyLmRrci5lY3Iu"
                 "dXMtZWFzdC0xLmFtYXpvbmF3cy5jb20ifQ==");
    CHECK(strchr(h, '+') == NULL && strchr(h, '/') == NULL);
    byoc_free_secret(h);
    /* UTF-8 kept as is, one '=' of padding. */
    h = byoc_registry_auth_header("AWS", "aaaaaaa\xc3\xbf", HOST);
    CHECK_STR(h, "eyJ1c2VybmFtZSI6IkFXUyIsInBhc3N3b3JkIjoiYWFhYWFhYcO_Iiwic2VydmVyYWRkcmVzcyI6IjEyMzQ1Njc4OTAxMi5ka3Iu"
                 "ZWNyLnVzLWVhc3QtMS5hbWF6b25hd3MuY29tIn0=");
    /* The value is a secret from the moment it exists. */
    char *line = byoc_xasprintf("X-Registry-Auth: %s", h);
    byoc_redact_inplace(line);
    CHECK_STR(line, "X-Registry-Auth: ***");
    free(line);
    byoc_free_secret(h);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_docker_config(void)
{
    char *dir = check_tmpdir();
    char *path = byoc_xasprintf("%s/sub/config.json", dir);
    byoc_err err;
    char note[512];

    /* A fresh file in a directory that does not exist yet. */
    CHECK_INT(byoc_docker_config_store_auth(path, HOST, "AWS", "s3cr3t-pass", note, sizeof note, &err), 0);
    struct stat st;
    CHECK_INT(stat(path, &st), 0);
    CHECK_INT(st.st_mode & 0777, 0600);
    char *sub = byoc_xasprintf("%s/sub", dir);
    CHECK_INT(stat(sub, &st), 0);
    CHECK_INT(st.st_mode & 0777, 0700);
    json_t *doc = json_load_file(path, 0, NULL);
    CHECK_STR(json_string_value(json_object_get(json_object_get(json_object_get(doc, "auths"), HOST), "auth")),
              "QVdTOnMzY3IzdC1wYXNz"); /* base64("AWS:s3cr3t-pass") */
    CHECK_STR(note, "");
    json_decref(doc);

    /* An existing config: every other member stays, in its order. */
    write_file(path, "{\"auths\": {\"other.example\": {\"auth\": \"eDp5\"}}, \"credsStore\": \"desktop\", "
                     "\"HttpHeaders\": {\"User-Agent\": \"x\"}, \"proxies\": {}}\n");
    CHECK_INT(byoc_docker_config_store_auth(path, HOST, "AWS", "pw2-longer", note, sizeof note, &err), 0);
    doc = json_load_file(path, 0, NULL);
    const char *keys[4];
    size_t k = 0;
    const char *key;
    json_t *v;
    json_object_foreach(doc, key, v) if (k < 4) keys[k++] = key;
    CHECK_INT(k, 4);
    CHECK_STR(keys[0], "auths");
    CHECK_STR(keys[1], "credsStore");
    CHECK_STR(keys[2], "HttpHeaders");
    CHECK_STR(json_string_value(json_object_get(json_object_get(json_object_get(doc, "auths"), "other.example"),
                                                "auth")),
              "eDp5");
    CHECK(json_object_get(json_object_get(doc, "auths"), HOST) != NULL);
    CHECK(strstr(note, "credsStore") != NULL);
    json_decref(doc);
    CHECK_INT(stat(path, &st), 0);
    CHECK_INT(st.st_mode & 0777, 0600);

    /* A malformed file is reported and left as it was. */
    write_file(path, "{not json");
    CHECK_INT(byoc_docker_config_store_auth(path, HOST, "AWS", "pw3-longer", note, sizeof note, &err), -1);
    CHECK(strstr(err.message, "not valid JSON") != NULL);
    size_t len;
    char *text = check_read_file(path, &len);
    CHECK_STR(text, "{not json");
    free(text);

    /* DOCKER_CONFIG picks the file. */
    setenv("DOCKER_CONFIG", "/some/where", 1);
    char *p = byoc_docker_config_path();
    CHECK_STR(p, "/some/where/config.json");
    free(p);
    unsetenv("DOCKER_CONFIG");
    setenv("HOME", "/home/u", 1);
    p = byoc_docker_config_path();
    CHECK_STR(p, "/home/u/.docker/config.json");
    free(p);

    unlink(path);
    rmdir(sub);
    rmdir(dir);
    free(sub);
    free(path);
    free(dir);
}

int main(void)
{
    test_base64();
    test_header();
    test_docker_config();
    byoc_secret_clear_all();
    return check_done();
}
