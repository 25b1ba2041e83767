/* The pure parts of aws/s3: URI parsing as the SDK's parse_s3_uri, the
 * upload plan (part size, threshold, environment overrides), the bucket policy. */
#include "check.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "aws/s3.h"

static void uri(const char *s, const char *bucket, const char *key)
{
    char *b = NULL, *k = NULL;
    int rc = byoc_s3_parse_uri(s, &b, &k);
    if (!bucket) {
        CHECK_INT(rc, -1);
    } else {
        CHECK_INT(rc, 0);
        CHECK_STR(b, bucket);
        CHECK_STR(k, key);
    }
    free(b);
    free(k);
}

static void test_parse(void)
{
    uri("s3://bucket/key", "bucket", "key");
    uri("S3://bucket/a/b/c.tar.gz", "bucket", "a/b/c.tar.gz");
    uri("https://bucket.s3.us-west-2.amazonaws.com/my/key", "bucket", "my/key");
    uri("https://bucket.S3-external-1.amazonaws.com/k", "bucket", "k");
    uri("s3://bucket/", NULL, NULL);           /* empty key */
    uri("s3://bucket", NULL, NULL);
    uri("s3://my.bucket/key", NULL, NULL);     /* [^./]+ */
    uri("s3:///key", NULL, NULL);
    uri("https://example.com/key", NULL, NULL);
    uri("http://bucket.s3.amazonaws.com/key", NULL, NULL);
    uri("/local/path", NULL, NULL);
}

static void test_plan(void)
{
    int64_t part, thr;
    byoc_err err;
    unsetenv("BYOC_S3_PART_SIZE");
    unsetenv("BYOC_S3_MULTIPART_THRESHOLD");
    CHECK_INT(byoc_s3_upload_plan(NULL, 100, &part, &thr, &err), 0);
    CHECK_INT(part, 16LL << 20);
    CHECK_INT(thr, 16LL << 20);
    byoc_s3_upload_opts o = {.part_size = 1024};
    CHECK_INT(byoc_s3_upload_plan(&o, 100, &part, &thr, &err), 0);
    CHECK_INT(part, BYOC_S3_MIN_PART_SIZE);
    /* 10,000 parts at most: the part size grows. */
    CHECK_INT(byoc_s3_upload_plan(NULL, 200000LL << 20, &part, &thr, &err), 0);
    CHECK(200000LL * (1 << 20) / part < BYOC_S3_MAX_PARTS);
    setenv("BYOC_S3_PART_SIZE", "6291456", 1);
    setenv("BYOC_S3_MULTIPART_THRESHOLD", "1000", 1);
    CHECK_INT(byoc_s3_upload_plan(NULL, 100, &part, &thr, &err), 0);
    CHECK_INT(part, 6291456);
    CHECK_INT(thr, 1000);
    setenv("BYOC_S3_PART_SIZE", "16M", 1);
    CHECK_INT(byoc_s3_upload_plan(NULL, 100, &part, &thr, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "BYOC_S3_PART_SIZE");
    unsetenv("BYOC_S3_PART_SIZE");
    unsetenv("BYOC_S3_MULTIPART_THRESHOLD");
}

static void test_policy(void)
{
    char *p = byoc_s3_braket_bucket_policy("amazon-braket-us-east-1-123456789012", "aws");
    json_t *j = json_loads(p, 0, NULL);
    CHECK(j != NULL);
    json_t *st = json_array_get(json_object_get(j, "Statement"), 0);
    CHECK_STR(json_string_value(json_object_get(st, "Action")), "s3:*");
    CHECK_STR(json_string_value(json_array_get(json_object_get(json_object_get(st, "Principal"), "Service"), 0)),
              "braket.amazonaws.com");
    CHECK_STR(json_string_value(json_array_get(json_object_get(st, "Resource"), 1)),
              "arn:aws:s3:::amazon-braket-us-east-1-123456789012/*");
    json_decref(j);
    free(p);
}

int main(void)
{
    test_parse();
    test_plan();
    test_policy();
    return check_done();
}
