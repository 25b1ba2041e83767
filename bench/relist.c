/* The Monitor's relist, as bench/relist.sh measures it: N runs of the jobs module's list task
 * (byoc/jobs.h), each on its own task as the screen starts one every few seconds.
 *
 *   relist pooled N   every task takes its client from one pool (aws/clients.h): what the app does
 *   relist fresh N    every task gets a client made for it: what the Monitor did before the pool
 *
 * Prints "<rows of the last list> <CPU seconds of the N lists> <clients made>" on stdout: the CPU
 * of the lists alone (getrusage around the loop, the process's and its children's: a
 * credential_process), so that the process's start is not counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "aws/client.h"
#include "aws/clients.h"
#include "byoc/jobs.h"
#include "net/http.h"

/* This process's and its children's (a credential_process) */
static double cpu_seconds(void)
{
    double s = 0;
    int who[] = {RUSAGE_SELF, RUSAGE_CHILDREN};
    for (int i = 0; i < 2; i++) {
        struct rusage ru;
        getrusage(who[i], &ru);
        s += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
             ru.ru_stime.tv_usec / 1e6;
    }
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "pooled") != 0 && strcmp(argv[1], "fresh") != 0) || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: relist pooled|fresh N\n");
        return 2;
    }
    bool pooled = strcmp(argv[1], "pooled") == 0;
    int rounds = atoi(argv[2]);
    byoc_http_global_init();
    byoc_aws_clients *pool = byoc_aws_clients_new();
    size_t rows_seen = 0;
    double t0 = cpu_seconds();
    unsigned long made0 = byoc_aws_client_count_made();
    for (int i = 0; i < rounds; i++) {
        byoc_jobs_args *a;
        if (pooled) {
            a = byoc_jobs_args_pooled(pool, NULL, NULL, NULL, NULL);
        } else {
            byoc_aws_client *c = NULL;
            byoc_err err;
            if (byoc_aws_client_new(NULL, &c, &err) != 0) {
                fprintf(stderr, "relist: %s\n", err.message);
                return 1;
            }
            a = byoc_jobs_args_new(c, NULL);
            byoc_aws_client_free(c);
        }
        byoc_jobs_lister *l = byoc_jobs_lister_new();
        a->lister = byoc_jobs_lister_ref(l);
        /* on a thread of its own, as the screen's tasks run */
        byoc_evq *q = byoc_evq_new();
        byoc_task *t = byoc_task_start(q, "list jobs", byoc_jobs_list_task, a, byoc_jobs_args_free);
        bool over = false;
        while (!over) {
            byoc_evq_wait(q, 1000);
            byoc_event ev;
            while (byoc_evq_pop(q, &ev)) {
                if (ev.kind == BYOC_EV_ERROR) {
                    fprintf(stderr, "relist: %s\n", ev.err.message);
                    return 1;
                }
                over |= ev.kind == BYOC_EV_DONE;
                byoc_event_release(&ev);
            }
        }
        byoc_task_release(t);
        byoc_evq_free(q);
        byoc_job_rows rows;
        byoc_job_rows_init(&rows);
        rows_seen = byoc_jobs_lister_take(l, &rows);
        byoc_job_rows_clear(&rows);
        byoc_jobs_lister_unref(l);
    }
    double cpu = cpu_seconds() - t0;
    printf("%zu %.4f %lu\n", rows_seen, cpu, byoc_aws_client_count_made() - made0);
    byoc_aws_clients_free(pool);
    byoc_http_global_cleanup();
    return 0;
}
