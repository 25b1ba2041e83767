/* The image browser's ECR model (tui/steps/images/ecr_model.h): the reference set, ECR
 * registry hosts and references, the repositories and images tables (cells,
 * counts, untagged images, filter, sort, selection kept across a refill),
 * the "local" marks from RepoDigests, an index's platforms (set by digest,
 * made printable, kept across a refill), and the local table's "pushed" marks
 * (images_model.h) from what ECR confirmed. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/buf.h"
#include "byoc/imagecheck.h"
#include "ecr_model.h"
#include "images_model.h"

#define HOST "123456789012.dkr.ecr.us-east-1.amazonaws.com"
#define D1 "sha256:1111111111111111111111111111111111111111111111111111111111111111"
#define D2 "sha256:2222222222222222222222222222222222222222222222222222222222222222"
#define D3 "sha256:3333333333333333333333333333333333333333333333333333333333333333"

static char **strv(const char *a, const char *b)
{
    char **v = byoc_xcalloc(3, sizeof *v);
    size_t n = 0;
    if (a)
        v[n++] = byoc_xstrdup(a);
    if (b)
        v[n++] = byoc_xstrdup(b);
    return v;
}

static void repo(byoc_ecr_repository *r, const char *name, const char *mut, bool scan, double created)
{
    memset(r, 0, sizeof *r);
    r->name = byoc_xstrdup(name);
    r->uri = byoc_xasprintf(HOST "/%s", name);
    r->tag_mutability = byoc_xstrdup(mut);
    r->scan_on_push = scan;
    r->created_at = created;
}

static void image(byoc_ecr_image *im, const char *digest, const char *t1, const char *t2, int64_t size,
                  double pushed, const char *scan)
{
    memset(im, 0, sizeof *im);
    im->digest = byoc_xstrdup(digest);
    im->tags = strv(t1, t2);
    im->n_tags = (t1 != NULL) + (t2 != NULL);
    im->size = size;
    im->pushed_at = pushed;
    im->scan_status = scan ? byoc_xstrdup(scan) : NULL;
    im->scan_findings = scan ? byoc_xstrdup("1 HIGH") : NULL;
}

static long find_digest(tui_list *l, const char *digest)
{
    for (size_t i = 0; i < l->nrows; i++)
        if (strcmp(((tui_ecr_image_entry *)l->rows[i].data)->digest, digest) == 0)
            return (long)i;
    return -1;
}

static void test_refs(void)
{
    tui_ecr_refs s = {0};
    CHECK(!tui_ecr_refs_has(&s, "x"));
    const char *in[] = {"m", "c", "x", "a", "c", "z", "b", "m"};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        tui_ecr_refs_add(&s, in[i]);
    CHECK_INT(s.n, 6);
    for (size_t i = 1; i < s.n; i++)
        CHECK(strcmp(s.items[i - 1], s.items[i]) < 0);
    CHECK(tui_ecr_refs_has(&s, "a") && tui_ecr_refs_has(&s, "z") && tui_ecr_refs_has(&s, "m"));
    CHECK(!tui_ecr_refs_has(&s, "d"));
    CHECK(!tui_ecr_refs_has(NULL, "a"));
    for (int i = 0; i < 100; i++) {            /* grows past its first capacity */
        char k[16];
        snprintf(k, sizeof k, "k%03d", i);
        tui_ecr_refs_add(&s, k);
    }
    CHECK_INT(s.n, 106);
    CHECK(tui_ecr_refs_has(&s, "k057"));
    tui_ecr_refs_clear(&s);
    CHECK_INT(s.n, 0);
}

/* A local RepoDigest counts for ECR when byoc_ecr_image_uri_parse (imagecheck.h) reads an
 * ECR host and a sha256 digest from it: the references the "pushed" task asks about. */
static bool ecr_ref(const char *ref, byoc_ecr_image_uri *u)
{
    if (byoc_ecr_image_uri_parse(ref, u, NULL, 0) && u->digest)
        return true;
    byoc_ecr_image_uri_clear(u);
    return false;
}

static void test_hosts(void)
{
    byoc_ecr_image_uri u;
    CHECK(ecr_ref(HOST "/app@" D1, &u));
    CHECK_STR(u.account, "123456789012");
    CHECK_STR(u.region, "us-east-1");
    byoc_ecr_image_uri_clear(&u);
    CHECK(ecr_ref("000000000001.dkr.ecr.cn-north-1.amazonaws.com.cn/app@" D1, &u));
    CHECK_STR(u.region, "cn-north-1");
    byoc_ecr_image_uri_clear(&u);
    CHECK(!ecr_ref("12345678901.dkr.ecr.us-east-1.amazonaws.com/app@" D1, &u));   /* 11 digits */
    CHECK(!ecr_ref("123456789012.dkr.ecr.us-east-1.example.com/app@" D1, &u));
    CHECK(!ecr_ref("123456789012.dkr.ecr..amazonaws.com/app@" D1, &u));
    CHECK(!ecr_ref("registry.example.com:5000/app@" D1, &u));
    CHECK(!ecr_ref(NULL, &u));

    CHECK(ecr_ref(HOST "/team/app@" D1, &u));
    CHECK_STR(u.repository, "team/app");
    CHECK_STR(u.digest, D1);
    byoc_ecr_image_uri_clear(&u);
    CHECK(!ecr_ref("app@" D1, &u));                                    /* no host */
    CHECK(u.account == NULL && u.repository == NULL && u.digest == NULL);
    CHECK(!ecr_ref(HOST "/app:latest", &u));                           /* no digest */
    CHECK(!ecr_ref(HOST "/app@md5:abc", &u));
    CHECK(!ecr_ref(HOST "/@" D1, &u));
}

static void test_repositories(void)
{
    byoc_ecr_repository repos[3];
    repo(&repos[0], "amazon-braket-app", "MUTABLE", true, 1700000000.5);
    repo(&repos[1], "zeta", "IMMUTABLE", false, 1600000000);
    repo(&repos[2], "alpha/tools", "MUTABLE", false, 0);
    long counts[3] = {12, -1, 3};
    tui_list l;
    tui_list_init(&l, tui_ecr_repo_columns, 6);
    tui_ecr_repos_fill(&l, repos, 3, counts);
    CHECK_INT(l.nrows, 3);
    CHECK_STR(l.rows[0].cells[0], "amazon-braket-app");
    CHECK_STR(l.rows[0].cells[1], HOST "/amazon-braket-app");
    CHECK_STR(l.rows[0].cells[2], "12");
    CHECK_INT(strlen(l.rows[0].cells[3]), 16);
    CHECK_STR(l.rows[0].cells[4], "MUTABLE");
    CHECK_STR(l.rows[0].cells[5], "yes");
    CHECK_STR(l.rows[1].cells[2], "-");                   /* not counted */
    CHECK_STR(l.rows[1].cells[4], "IMMUTABLE");
    CHECK_STR(l.rows[1].cells[5], "no");
    CHECK_STR(l.rows[2].cells[3], "-");                   /* no creation time */
    tui_ecr_repo_entry *e = l.rows[0].data;
    CHECK_INT(e->images, 12);
    CHECK(e->scan_on_push);

    tui_list_sort_by(&l, 2, true);                        /* by image count, most first */
    CHECK_INT(tui_list_view_row(&l, 0), 0);
    CHECK_INT(tui_list_view_row(&l, 1), 2);
    tui_list_sort_by(&l, 0, false);                       /* by name */
    CHECK_INT(tui_list_view_row(&l, 0), 2);
    CHECK(tui_list_select_row(&l, 1));                    /* zeta */
    tui_ecr_repos_fill(&l, repos, 3, NULL);               /* refilled: sort and selection stay */
    CHECK_STR(((tui_ecr_repo_entry *)tui_list_selected_data(&l))->name, "zeta");
    CHECK_STR(l.rows[0].cells[2], "-");
    const char *names[] = {"zeta", "nowhere", "amazon-braket-app"};
    long later[] = {7, 99, -1};
    tui_ecr_repos_set_counts(&l, names, later, 3);        /* counted later, by name */
    for (size_t i = 0; i < l.nrows; i++) {
        tui_ecr_repo_entry *r = l.rows[i].data;
        if (strcmp(r->name, "zeta") == 0) {
            CHECK_STR(l.rows[i].cells[2], "7");
            CHECK_INT(r->images, 7);
        } else {
            CHECK_STR(l.rows[i].cells[2], "-");
        }
    }
    tui_list_sort_by(&l, 2, true);                        /* the new counts sort */
    CHECK_STR(((tui_ecr_repo_entry *)l.rows[tui_list_view_row(&l, 0)].data)->name, "zeta");
    tui_list_set_filter(&l, "braket");
    CHECK_INT(tui_list_visible(&l), 1);
    tui_list_set_filter(&l, "");
    tui_ecr_repos_fill(&l, NULL, 0, NULL);
    CHECK_INT(l.nrows, 0);
    tui_list_clear(&l);
    for (int i = 0; i < 3; i++)
        byoc_ecr_repository_clear(&repos[i]);
}

static void test_images(void)
{
    byoc_ecr_image_list il = {byoc_xcalloc(3, sizeof(byoc_ecr_image)), 3, 1};
    image(&il.items[0], D1, "v1", "latest", 3 * 1048576, 1700000000, "COMPLETE");
    image(&il.items[1], D2, NULL, NULL, -1, 0, NULL);
    image(&il.items[2], D3, "v2", NULL, 2048, 1700000100, NULL);
    tui_ecr_refs local = {0};
    tui_ecr_refs_add(&local, HOST "/app@" D1);            /* on the engine, from this repository */
    tui_ecr_refs_add(&local, HOST "/other@" D3);          /* same digest, another repository: not this one */

    tui_list l;
    tui_list_init(&l, tui_ecr_image_columns, 6);
    tui_ecr_images_fill(&l, HOST "/app", &il, &local);
    CHECK_INT(l.nrows, 3);
    long r1 = find_digest(&l, D1), r2 = find_digest(&l, D2), r3 = find_digest(&l, D3);
    CHECK(r1 >= 0 && r2 >= 0 && r3 >= 0);
    tui_ecr_image_entry *e1 = l.rows[r1].data, *e2 = l.rows[r2].data, *e3 = l.rows[r3].data;
    CHECK_STR(l.rows[r1].cells[0], "v1, latest");
    CHECK_STR(l.rows[r1].cells[1], "111111111111");
    CHECK_STR(l.rows[r1].cells[2], "3.0 MiB");
    CHECK_STR(l.rows[r1].cells[4], "COMPLETE");
    CHECK_STR(l.rows[r1].cells[5], "local");
    CHECK_STR(e1->uri, HOST "/app:v1");
    CHECK_STR(e1->findings, "1 HIGH");
    CHECK(e1->local);
    CHECK_STR(l.rows[r2].cells[0], "<untagged>");
    CHECK_STR(l.rows[r2].cells[2], "-");                  /* size unknown */
    CHECK_STR(l.rows[r2].cells[3], "-");
    CHECK_STR(l.rows[r2].cells[4], "-");
    CHECK_STR(e2->uri, HOST "/app@" D2);
    CHECK(!e2->local);
    CHECK(!e3->local);
    CHECK_STR(l.rows[r3].cells[5], "");
    CHECK_INT(tui_ecr_images_local_count(&l), 1);

    tui_list_set_filter(&l, "v2");
    CHECK_INT(tui_list_visible(&l), 1);
    CHECK(tui_list_selected_data(&l) == e3);
    tui_list_set_filter(&l, "LOCAL");                     /* case-insensitive, over every cell */
    CHECK_INT(tui_list_visible(&l), 1);
    tui_list_set_filter(&l, "");
    tui_list_sort_by(&l, 2, false);                       /* by size in bytes: -, 2.0 KiB, 3.0 MiB */
    CHECK_INT(tui_list_view_row(&l, 0), r2);
    CHECK_INT(tui_list_view_row(&l, 1), r3);
    CHECK_INT(tui_list_view_row(&l, 2), r1);
    CHECK(tui_list_select_row(&l, (size_t)r3));

    /* Refilled after a delete of D3, and without the engine's digests: no local marks, selection to a neighbour. */
    byoc_ecr_image_list after = {byoc_xcalloc(2, sizeof(byoc_ecr_image)), 2, 1};
    image(&after.items[0], D1, "v1", NULL, 10, 1700000000, NULL);
    image(&after.items[1], D2, NULL, NULL, 20, 0, NULL);
    tui_ecr_images_fill(&l, HOST "/app", &after, NULL);
    CHECK_INT(l.nrows, 2);
    CHECK_INT(find_digest(&l, D3), -1);
    CHECK_INT(tui_ecr_images_local_count(&l), 0);
    CHECK(tui_list_selected_data(&l) != NULL);
    CHECK(tui_list_select_row(&l, (size_t)find_digest(&l, D2)));
    tui_ecr_images_fill(&l, HOST "/app", &after, &local);   /* the selection follows the digest */
    CHECK_STR(((tui_ecr_image_entry *)tui_list_selected_data(&l))->digest, D2);
    CHECK_INT(tui_ecr_images_local_count(&l), 1);
    tui_list_clear(&l);
    byoc_ecr_image_list_clear(&il);
    byoc_ecr_image_list_clear(&after);
    tui_ecr_refs_clear(&local);
}

static void test_platforms(void)
{
    byoc_ecr_image_list il = {byoc_xcalloc(3, sizeof(byoc_ecr_image)), 3, 1};
    image(&il.items[0], D1, "multi", NULL, 10, 1700000000, NULL);
    il.items[0].manifest_media_type = byoc_xstrdup("application/vnd.oci.image.index.v1+json");
    image(&il.items[1], D2, "list", NULL, 10, 1700000001, NULL);
    il.items[1].manifest_media_type = byoc_xstrdup("application/vnd.docker.distribution.manifest.list.v2+json");
    image(&il.items[2], D3, "single", NULL, 10, 1700000002, NULL);
    il.items[2].manifest_media_type = byoc_xstrdup("application/vnd.docker.distribution.manifest.v2+json");
    tui_list l;
    tui_list_init(&l, tui_ecr_image_columns, 6);
    tui_ecr_images_fill(&l, HOST "/app", &il, NULL);
    CHECK_INT(tui_ecr_images_index_count(&l), 2);
    tui_ecr_image_entry *multi = l.rows[find_digest(&l, D1)].data, *list = l.rows[find_digest(&l, D2)].data,
                        *single = l.rows[find_digest(&l, D3)].data;
    CHECK(tui_ecr_image_platforms(single, true) == NULL);   /* one manifest: nothing to say, nothing read */
    CHECK_STR(tui_ecr_image_platforms(multi, true), "reading...");
    CHECK_STR(tui_ecr_image_platforms(multi, false), "not read");

    /* What the registry said, by digest; a single manifest never takes one, escapes never reach the screen. */
    const char *digests[] = {D1, D2, D3, "sha256:elsewhere"};
    const char *texts[] = {"linux/amd64, linux/arm64 +1 attestation", "unknown (registry: \x1b]52;c;eA==\x07no)",
                           "linux/s390x", "linux/mips"};
    tui_ecr_images_set_platforms(&l, digests, texts, 4);
    CHECK_STR(tui_ecr_image_platforms(multi, false), "linux/amd64, linux/arm64 +1 attestation");
    const char *bad = tui_ecr_image_platforms(list, false);
    CHECK(strncmp(bad, "unknown (registry: ", 19) == 0 && !strchr(bad, '\x1b') && !strchr(bad, '\x07'));
    CHECK(single->platforms == NULL);

    /* Listed again: a digest's platforms stay until they are read again; a new index has none yet. */
    free(il.items[2].manifest_media_type);
    il.items[2].manifest_media_type = byoc_xstrdup("application/vnd.oci.image.index.v1+json");
    tui_ecr_images_fill(&l, HOST "/app", &il, NULL);
    CHECK_INT(tui_ecr_images_index_count(&l), 3);
    multi = l.rows[find_digest(&l, D1)].data;
    single = l.rows[find_digest(&l, D3)].data;
    CHECK_STR(tui_ecr_image_platforms(multi, true), "linux/amd64, linux/arm64 +1 attestation");
    CHECK_STR(tui_ecr_image_platforms(single, true), "reading...");
    const char *none[] = {NULL};
    tui_ecr_images_set_platforms(&l, digests, none, 1);     /* no text: left as it was */
    CHECK_STR(tui_ecr_image_platforms(multi, true), "linux/amd64, linux/arm64 +1 attestation");
    tui_list_clear(&l);
    byoc_ecr_image_list_clear(&il);
}

static void test_local_pushed(void)
{
    byoc_image_list il;
    il.n = 2;
    il.items = byoc_xcalloc(2, sizeof *il.items);
    il.items[0] = (byoc_image_summary){byoc_xstrdup("sha256:aaaa"), strv(HOST "/app:v1", "app:dev"), 2,
                                       strv(HOST "/app@" D1, NULL), 1, 1700000000, 1024};
    il.items[1] = (byoc_image_summary){byoc_xstrdup("sha256:bbbb"), strv(HOST "/app:old", NULL), 1,
                                       strv(HOST "/app@" D2, NULL), 1, 1600000000, 2048};
    tui_ecr_refs local = {0};
    tui_ecr_local_refs(&il, &local);
    CHECK_INT(local.n, 2);
    CHECK(tui_ecr_refs_has(&local, HOST "/app@" D2));

    tui_list l;
    tui_list_init(&l, tui_images_columns, 6);
    tui_images_fill(&l, &il);
    CHECK_INT(l.nrows, 3);                                /* app:v1, app:dev, app:old */
    tui_ecr_refs confirmed = {0};
    tui_ecr_refs_add(&confirmed, HOST "/app@" D1);        /* ECR lists D1 only (D2 was deleted there) */
    CHECK_INT(tui_images_mark_pushed(&l, &confirmed), 2); /* both tags of image aaaa */
    for (size_t i = 0; i < l.nrows; i++) {
        tui_image_entry *e = l.rows[i].data;
        bool want = strcmp(e->id, "sha256:aaaa") == 0;
        CHECK(e->pushed == want);
        CHECK_STR(l.rows[i].cells[5], want ? "pushed" : "");
        if (want)
            CHECK_INT(e->n_repo_digests, 1);
    }
    tui_ecr_refs none = {0};
    CHECK_INT(tui_images_mark_pushed(&l, &none), 0);
    for (size_t i = 0; i < l.nrows; i++)
        CHECK_STR(l.rows[i].cells[5], "");
    tui_list_clear(&l);
    tui_ecr_refs_clear(&confirmed);
    tui_ecr_refs_clear(&local);
    byoc_image_list_clear(&il);
}

static void test_findings(void)
{
    const struct {
        const char *json, *want;
    } cases[] = {
        {"{\"findingSeverityCounts\": {\"LOW\": 4, \"CRITICAL\": 1, \"HIGH\": 0, \"MEDIUM\": 2}}",
         "1 CRITICAL, 2 MEDIUM, 4 LOW"},
        {"{\"findingSeverityCounts\": {\"NEWKIND\": 3, \"INFORMATIONAL\": 1}}", "1 INFORMATIONAL, 3 NEWKIND"},
        {"{\"findingSeverityCounts\": {}}", "none"},
        {"{\"findingSeverityCounts\": {\"HIGH\": 0}}", "none"},
        {"{\"imageScanCompletedAt\": 1}", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *j = json_loads(cases[i].json, 0, NULL);
        CHECK(j != NULL);
        char *got = byoc_ecr_findings_summary(j);
        if (cases[i].want)
            CHECK_STR(got ? got : "(null)", cases[i].want);
        else
            CHECK(got == NULL);
        free(got);
        json_decref(j);
    }
    CHECK(byoc_ecr_findings_summary(NULL) == NULL);
}

int main(void)
{
    test_findings();
    test_refs();
    test_hosts();
    test_repositories();
    test_images();
    test_platforms();
    test_local_pushed();
    return check_done();
}
