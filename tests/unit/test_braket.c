/* The pure parts of aws/braket: job states, ARN regions, search filters. */
#include "check.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "aws/braket.h"

int main(void)
{
    CHECK(byoc_braket_status_terminal("COMPLETED"));
    CHECK(byoc_braket_status_terminal("FAILED"));
    CHECK(byoc_braket_status_terminal("CANCELLED"));
    CHECK(!byoc_braket_status_terminal("CANCELLING"));
    CHECK(!byoc_braket_status_terminal("QUEUED"));
    CHECK(!byoc_braket_status_terminal(NULL));
    CHECK(byoc_braket_status_failed("CANCELLED"));
    CHECK(!byoc_braket_status_failed("COMPLETED"));

    char *r = byoc_braket_arn_region("arn:aws:braket:eu-north-1:123456789012:job/abc");
    CHECK_STR(r, "eu-north-1");
    free(r);
    r = byoc_braket_arn_region("arn:aws:braket:::device/quantum-simulator/amazon/sv1");
    CHECK_STR(r, "");
    free(r);
    r = byoc_braket_arn_region("not-an-arn");
    CHECK_STR(r, "");
    free(r);

    const char *vals[] = {"a", "b"};
    json_t *f = byoc_braket_job_filter("status", "EQUAL", vals, 2);
    char *t = json_dumps(f, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_STR(t, "{\"name\":\"status\",\"operator\":\"EQUAL\",\"values\":[\"a\",\"b\"]}");
    free(t);
    json_decref(f);
    f = byoc_braket_device_filter("deviceType", vals, 1);
    t = json_dumps(f, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_STR(t, "{\"name\":\"deviceType\",\"values\":[\"a\"]}");
    free(t);
    json_decref(f);
    return check_done();
}
