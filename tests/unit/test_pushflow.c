/* The push flow's typed events (backend/byoc/pushflow.h): every kind survives the
 * task's wire (byoc_push_post -> core/task.h event -> byoc_push_event_from), its
 * flags too; events of no push meaning are refused; the task reports a bad
 * input as FAILED, nothing sent. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "byoc/pushflow.h"
#include "core/buf.h"

#define MAX_SEEN 16

typedef struct {
    byoc_push_event ev[MAX_SEEN];
    char *text[MAX_SEEN], *layer[MAX_SEEN];
    int err_kind[MAX_SEEN];
    size_t n;
    size_t refused;
} seen;

static void keep(seen *s, const byoc_push_event *pe)
{
    if (s->n == MAX_SEEN)
        return;
    s->ev[s->n] = *pe;
    s->text[s->n] = pe->text ? byoc_xstrdup(pe->text) : NULL;
    s->layer[s->n] = pe->layer ? byoc_xstrdup(pe->layer) : NULL;
    s->err_kind[s->n] = pe->err ? (int)pe->err->kind : -1;
    s->n++;
}

static void seen_free(seen *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->text[i]);
        free(s->layer[i]);
    }
}

static void sink(const byoc_event *ev, void *ud)
{
    byoc_push_event pe;
    if (byoc_push_event_from(ev, &pe))
        keep(ud, &pe);
    else
        ((seen *)ud)->refused++;
}

static int posts(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg;
    (void)err;
    *result = NULL;
    *result_free = NULL;
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_STEP, .text = "Checking the image x"});
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_WARNING, .text = "not amd64"});
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_REPOSITORY, .text = "1.dkr/r", .created = true});
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_REPOSITORY, .text = "1.dkr/r"});
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_LOGIN, .text = "1.dkr", .retried = true});
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_LAYER, .layer = "0123456789ab", .text = "Pushing",
                                         .current = 5, .total = 10});
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_DIGEST, .text = "sha256:ab", .verified = true});
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_NOTE, .text = "The push refers to repository"});
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_DONE}); /* the task's own end: nothing posted */
    /* not a push's: a keyless progress, another producer's check */
    byoc_task_progress(t, NULL, 1, 2, "x");
    byoc_task_check(t, "preflight.image", 3, "found", NULL);
    byoc_task_check(t, "byoc.push", 2 * BYOC_PUSH_EV_LAYER, "a layer is never a check", NULL);
    return 0;
}

static void test_wire_round_trip(void)
{
    seen s = {0};
    byoc_err err;
    CHECK_INT(byoc_task_run_sync("push", posts, NULL, NULL, NULL, &err, sink, &s), 0);
    CHECK_INT(s.n, 9);
    CHECK_INT(s.refused, 3);
    if (s.n != 9) {
        seen_free(&s);
        return;
    }
    CHECK_INT(s.ev[0].kind, BYOC_PUSH_EV_STEP);
    CHECK_STR(s.text[0], "Checking the image x");
    CHECK_INT(s.ev[1].kind, BYOC_PUSH_EV_WARNING);
    CHECK_STR(s.text[1], "not amd64");
    CHECK_INT(s.ev[2].kind, BYOC_PUSH_EV_REPOSITORY);
    CHECK(s.ev[2].created);
    CHECK_STR(s.text[2], "1.dkr/r");
    CHECK_INT(s.ev[3].kind, BYOC_PUSH_EV_REPOSITORY);
    CHECK(!s.ev[3].created);
    CHECK_INT(s.ev[4].kind, BYOC_PUSH_EV_LOGIN);
    CHECK(s.ev[4].retried && !s.ev[4].created && !s.ev[4].verified);
    CHECK_STR(s.text[4], "1.dkr");
    CHECK_INT(s.ev[5].kind, BYOC_PUSH_EV_LAYER);
    CHECK_STR(s.layer[5], "0123456789ab");
    CHECK_STR(s.text[5], "Pushing");
    CHECK_INT(s.ev[5].current, 5);
    CHECK_INT(s.ev[5].total, 10);
    CHECK_INT(s.ev[6].kind, BYOC_PUSH_EV_DIGEST);
    CHECK(s.ev[6].verified);
    CHECK_STR(s.text[6], "sha256:ab");
    CHECK_INT(s.ev[7].kind, BYOC_PUSH_EV_NOTE);
    CHECK_STR(s.text[7], "The push refers to repository");
    CHECK_INT(s.ev[8].kind, BYOC_PUSH_EV_DONE); /* run_sync's final event */
    seen_free(&s);
}

/* A warning's words pass the printable pass on the way, as any task text does. */
static int hostile(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg;
    (void)err;
    *result = NULL;
    *result_free = NULL;
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_WARNING, .text = "a\033]0;title\007b"});
    return 0;
}

static void test_printable(void)
{
    seen s = {0};
    byoc_err err;
    byoc_task_run_sync("push", hostile, NULL, NULL, NULL, &err, sink, &s);
    CHECK(s.n >= 1 && s.ev[0].kind == BYOC_PUSH_EV_WARNING);
    CHECK(s.n >= 1 && s.text[0] && !strchr(s.text[0], '\033') && !strchr(s.text[0], '\007'));
    seen_free(&s);
}

static void test_end_events(void)
{
    byoc_push_result r = {0};
    byoc_event done = {.kind = BYOC_EV_DONE, .result = &r};
    byoc_push_event pe;
    CHECK(byoc_push_event_from(&done, &pe));
    CHECK_INT(pe.kind, BYOC_PUSH_EV_DONE);
    CHECK(pe.result == &r);
    byoc_event failed = {.kind = BYOC_EV_ERROR};
    byoc_err_set(&failed.err, BYOC_E_CANCELLED, "push", "cancelled");
    CHECK(byoc_push_event_from(&failed, &pe));
    CHECK_INT(pe.kind, BYOC_PUSH_EV_FAILED);
    CHECK(pe.err && pe.err->kind == BYOC_E_CANCELLED);
}

static void collect(const byoc_event *ev, void *ud)
{
    byoc_push_event pe;
    if (byoc_push_event_from(ev, &pe))
        keep(ud, &pe);
}

/* A bad repository name stops the task before the engine and AWS: one FAILED. */
static void test_task_bad_input(void)
{
    seen s = {0};
    byoc_push_opts o = {.source = "img:1", .repository = "Not A Name"};
    byoc_push_job *j = byoc_push_job_new(NULL, NULL, NULL, "us-east-1", &o);
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    CHECK_INT(byoc_task_run_sync("push", byoc_push_task, j, &result, &result_free, &err, collect, &s), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK(result == NULL);
    CHECK_INT(s.n, 1);
    CHECK(s.n == 1 && s.ev[0].kind == BYOC_PUSH_EV_FAILED && s.err_kind[0] == BYOC_E_USAGE);
    byoc_push_job_free(j);
    seen_free(&s);
}

int main(void)
{
    test_wire_round_trip();
    test_printable();
    test_end_events();
    test_task_bad_input();
    return check_done();
}
