/* preflight_report: the report of a preflight: its checks found by name, pass or fail, as JSON. */
#include "byoc/preflight_report.h"

#include <stdlib.h>
#include <string.h>

const char *byoc_pf_status_name(byoc_pf_status s)
{
    return s == BYOC_PF_PASS ? "pass" : s == BYOC_PF_WARN ? "warn" : "fail";
}

void byoc_preflight_report_clear(byoc_preflight_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->items[i].name);
        free(r->items[i].message);
        free(r->items[i].fix);
    }
    free(r->items);
    memset(r, 0, sizeof *r);
}

bool byoc_preflight_ok(const byoc_preflight_report *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].status == BYOC_PF_FAIL)
            return false;
    return true;
}

const byoc_pf_check *byoc_preflight_find(const byoc_preflight_report *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->items[i].name, name) == 0)
            return &r->items[i];
    return NULL;
}

json_t *byoc_preflight_report_json(const byoc_preflight_report *r)
{
    json_t *checks = json_array();
    for (size_t i = 0; i < r->n; i++) {
        const byoc_pf_check *k = &r->items[i];
        json_array_append_new(checks, json_pack("{s:s, s:s, s:s, s:s}", "name", k->name, "status",
                                                byoc_pf_status_name(k->status), "message", k->message, "fix",
                                                k->fix));
    }
    return json_pack("{s:b, s:o}", "ok", byoc_preflight_ok(r), "checks", checks);
}
