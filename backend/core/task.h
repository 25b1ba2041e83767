/* task: long operations on worker threads, reporting through an event queue.
 *
 * The UI thread (or the CLI's main thread) owns a byoc_evq. It starts tasks;
 * each task runs `fn` on its own thread and posts events (progress, a log
 * line, done, error). The queue exposes a file descriptor that becomes
 * readable whenever events are pending, so the TUI can poll() it beside stdin
 * and SIGWINCH; the CLI simply blocks in byoc_evq_wait().
 *
 * Cancellation is cooperative: byoc_task_cancel() sets a flag that the task's
 * code (and net/http's transfer callback) checks with byoc_task_cancelled().
 * A task always ends with exactly one BYOC_EV_DONE or BYOC_EV_ERROR event.
 *
 * Backpressure: the queue holds a few thousand pending events. A task that
 * posts a LOG, PROGRESS or CHECK to a full queue waits until the consumer has taken
 * some (PROGRESS for a key already pending is folded into it instead), so no
 * log line is lost however fast a task produces them; a cancelled task stops
 * waiting at once and its further LOG/PROGRESS/CHECK are dropped. So the thread that
 * consumes the queue must never post to it, nor join a task it has not
 * cancelled while that task may still post. Producers of many lines should
 * batch them (byoc_task_output_text) to keep the event count down.
 *
 * Text from outside: every LOG, STATUS, PROGRESS and CHECK string a task posts
 * is made printable (core/utf8.h) when it is posted, so whatever a message
 * quotes (a service's field, an engine's status, a file name) cannot drive the
 * terminal of any printer of events, CLI or TUI. The one exception is the
 * job's and the build's own output (byoc_task_output*), which arrives as it
 * came, with `verbatim` set: its printer decides (exact into a file or pipe, as
 * docker logs and docker build do; printable on a terminal). */
#ifndef BYOC_CORE_TASK_H
#define BYOC_CORE_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/err.h"

typedef struct byoc_evq byoc_evq;
typedef struct byoc_task byoc_task;

typedef enum {
    BYOC_EV_LOG,      /* text: one line of byoc's own (printable), or the job's or the build's
                         own output as it came (verbatim), several lines separated by '\n'
                         when posted with byoc_task_output_text */
    BYOC_EV_PROGRESS, /* key identifies the item (a layer id, a file), current/total in bytes or steps, text a status */
    BYOC_EV_STATUS,   /* text: a short status change ("pushing", "QUEUED"...) */
    BYOC_EV_DONE,     /* result: the task's result, owned by the event until taken */
    BYOC_EV_ERROR,    /* err: why it failed (kind BYOC_E_CANCELLED when cancelled) */
    BYOC_EV_CHECK,    /* a finished check: key its name, current its status (the producer's enum),
                         text what it found, detail how to fix that (may be NULL) */
    BYOC_EV_DATA,     /* a typed payload: current says what it is (the producer's enum), result
                         holds it (freed with result_free unless taken) */
} byoc_ev_kind;

typedef struct byoc_event {
    byoc_ev_kind kind;
    uint64_t task_id;
    char *key;                 /* PROGRESS: item key, may be NULL */
    char *text;                /* LOG/STATUS/PROGRESS/CHECK text, may be NULL */
    char *detail;              /* CHECK: how to fix what it found, may be NULL */
    int64_t current, total;    /* PROGRESS; total < 0 when unknown */
    void *result;              /* DONE: task result; DATA: the payload */
    void (*result_free)(void *);
    byoc_err err;              /* ERROR */
    bool verbatim;             /* LOG: the job's or the build's own output, not made printable */
} byoc_event;

/* Free the strings of an event and its result if not taken (set result=NULL to take it). */
void byoc_event_release(byoc_event *ev);

byoc_evq *byoc_evq_new(void);
/* Frees the queue; cancels and joins tasks still running first. */
void byoc_evq_free(byoc_evq *q);
/* A descriptor that is readable while events are pending (level-triggered). */
int byoc_evq_fd(const byoc_evq *q);
/* Take the oldest event; false if none. The caller releases it. */
bool byoc_evq_pop(byoc_evq *q, byoc_event *out);
/* Block until an event is pending or timeout_ms passes (-1: forever). true if one is pending. */
bool byoc_evq_wait(byoc_evq *q, int timeout_ms);
/* Number of LOG/PROGRESS/CHECK events dropped because the queue was full when their
 * task was cancelled (a running task waits for room instead). */
uint64_t byoc_evq_dropped(const byoc_evq *q);
/* Number of producers waiting for room in the full queue right now. */
size_t byoc_evq_waiting(const byoc_evq *q);

/* The task body. Return 0 with *result set (may be NULL) for success, or fill err and return -1. */
typedef int (*byoc_task_fn)(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                            byoc_err *err);

/* BYOC_TASK_FREE(name, type, clear) defines `static void name(void *p)`, the result_free or
 * arg_free of a task whose result or argument is a malloc'd `type` that `clear(type *)` empties:
 * it clears the object, then frees it (NULL: nothing). A slot takes a `void (*)(void *)`, and
 * calling `clear` through a cast pointer of another type would be undefined (UBSan's
 * -fsanitize=function stops on it), so each type names its slot function with this one line
 * rather than a hand-written adaptor. */
#define BYOC_TASK_FREE(name, type, clear)                                                           \
    static void name(void *p)                                                                       \
    {                                                                                               \
        type *obj_ = p;                                                                             \
        if (obj_) {                                                                                 \
            clear(obj_);                                                                            \
            free(obj_);                                                                             \
        }                                                                                           \
    }

/* A function every task thread calls as it ends, before it posts its final event (NULL: none).
 * The network layer sets it once it has loaded libcurl, so that a task thread that made TLS calls
 * frees what OpenSSL keeps per thread (net/http.h: byoc_http_thread_done), whatever task it ran;
 * core cannot call up into net itself. */
void byoc_task_set_thread_end(void (*fn)(void));

/* Start fn(arg) on a new thread. arg_free (may be NULL) is called on arg when the task ends.
 * Returns the task handle, owned by the queue; valid until byoc_task_release(). */
byoc_task *byoc_task_start(byoc_evq *q, const char *name, byoc_task_fn fn, void *arg,
                           void (*arg_free)(void *));
uint64_t byoc_task_id(const byoc_task *t);
const char *byoc_task_name(const byoc_task *t);
void byoc_task_cancel(byoc_task *t);
bool byoc_task_cancelled(const byoc_task *t);   /* NULL-safe: false */
bool byoc_task_finished(const byoc_task *t);
/* Wait for the thread to end (its final event is already queued then). */
void byoc_task_join(byoc_task *t);
/* Join if needed and free the handle. */
void byoc_task_release(byoc_task *t);

/* Called from inside a task (t may be NULL: then they do nothing, so backend
 * code can be called outside a task too). Text is redacted before queuing,
 * then made one printable line (all but byoc_task_output*). */
void byoc_task_log(byoc_task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A LOG event of the job's or the build's own output, redacted but otherwise
 * as it came (verbatim): its escape sequences are the printer's to keep or drop. */
void byoc_task_output(byoc_task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One verbatim LOG event holding len bytes of output: several lines separated
 * by '\n' (no trailing newline needed). For producers of many lines: one event
 * per batch instead of one per line. */
void byoc_task_output_text(byoc_task *t, const char *text, size_t len);
void byoc_task_status(byoc_task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void byoc_task_progress(byoc_task *t, const char *key, int64_t current, int64_t total,
                        const char *text);
/* A CHECK event (never coalesced, unlike PROGRESS). fix may be NULL. */
void byoc_task_check(byoc_task *t, const char *name, int status, const char *finding, const char *fix);

/* A DATA event carrying data (ownership moves to the event; freed with data_free when nobody
 * takes it). what tells the consumer the payload's type (the producer's enum). Waits for room
 * like LOG. The producer makes its text printable itself where it will be shown. */
void byoc_task_data(byoc_task *t, int what, void *data, void (*data_free)(void *));

/* Run fn synchronously on the calling thread with a task handle (so cancellation
 * and progress still work) and forward its events to `sink` as they come, for
 * the CLI. sink may be NULL. Returns fn's return value. */
typedef void (*byoc_event_sink)(const byoc_event *ev, void *ud);
int byoc_task_run_sync(const char *name, byoc_task_fn fn, void *arg, void **result,
                       void (**result_free)(void *), byoc_err *err, byoc_event_sink sink, void *ud);

#endif
