#include "docker/engine.h"

#include <stdio.h>
#include <string.h>

#include "core/utf8.h"
#include "net/sockget.h"

#define PROBE_MAX_REPLY (64 * 1024) /* an engine's /version is about 1 KiB */

int byoc_engine_probe(const byoc_engine *e, byoc_task *t, int timeout_ms, byoc_engine_info *info, byoc_err *err)
{
    memset(info, 0, sizeof *info);
    snprintf(info->host, sizeof info->host, "%s", byoc_engine_host(e));
    char host[256], port[16];
    byoc_sockget_req req = {.path = "/version", .timeout_ms = timeout_ms, .max_reply = PROBE_MAX_REPLY, .task = t};
    if (!byoc_engine_plain_address(e, &req.unix_path, host, sizeof host, port, sizeof port))
        return 1;
    req.host = host;
    req.port = port;
    byoc_http_resp resp = {0};
    byoc_err local;
    byoc_err_clear(&local);
    if (byoc_sockget(&req, &resp, &local) < 0) {
        byoc_http_resp_clear(&resp);
        if (local.kind == BYOC_E_CANCELLED) {
            if (err)
                *err = local;
            return -1;
        }
        return byoc_engine_unreachable(e, local.message, err);
    }
    int rc = byoc_engine_check(&resp, "engine", err);
    json_t *doc = rc == 0 ? json_loadb(resp.body.data ? resp.body.data : "", resp.body.len, 0, NULL) : NULL;
    byoc_http_resp_clear(&resp);
    if (rc < 0)
        return -1;
    if (!json_is_object(doc)) {
        json_decref(doc);
        return byoc_err_set(err, BYOC_E_FAILED, "engine", "GET /version: the engine sent malformed JSON");
    }
    const char *api = json_string_value(json_object_get(doc, "ApiVersion"));
    if (api)
        byoc_utf8_copy(info->server_api_version, sizeof info->server_api_version, api);
    byoc_engine_info_from_version(info, doc);
    json_decref(doc);
    return 0;
}
