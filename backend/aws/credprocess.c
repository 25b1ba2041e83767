#include "aws/credprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aws/shlex.h"
#include "core/buf.h"
#include "core/log.h"

extern char **environ;

#define OUTPUT_MAX (1024 * 1024)
#define CANCEL_POLL_MS 100

static int fail(byoc_err *err, const char *profile, const char *fmt, const char *a, const char *b)
{
    char msg[600];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    return byoc_err_set(err, BYOC_E_ENV, "credential_process", "profile %s: %s", profile, msg);
}

int byoc_aws_credential_process_parse(const char *profile, const char *text, byoc_aws_creds *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    json_t *j = json_loads(text, 0, &jerr);
    if (!json_is_object(j)) {
        json_decref(j);
        return fail(err, profile, "the process output is not a JSON object%s%s", "", "");
    }
    json_t *version = json_object_get(j, "Version");
    if (!json_is_integer(version) || json_integer_value(version) != 1) {
        char got[64];
        if (json_is_integer(version))
            snprintf(got, sizeof got, "%lld", (long long)json_integer_value(version));
        else
            snprintf(got, sizeof got, "%s", json_is_string(version) ? json_string_value(version) : "(none)");
        json_decref(j);
        return fail(err, profile, "unsupported Version %s in the process output (only 1 is supported)%s", got, "");
    }
    const char *akid = json_string_value(json_object_get(j, "AccessKeyId"));
    const char *secret = json_string_value(json_object_get(j, "SecretAccessKey"));
    const char *token = json_string_value(json_object_get(j, "SessionToken"));
    const char *expiration = json_string_value(json_object_get(j, "Expiration"));
    if (secret)
        byoc_secret_register(secret);
    if (token)
        byoc_secret_register(token);
    if (!akid || !*akid || !secret || !*secret) {
        const char *missing = !akid || !*akid ? "AccessKeyId" : "SecretAccessKey";
        json_decref(j);
        return fail(err, profile, "the process output lacks %s%s", missing, "");
    }
    time_t exp = 0;
    if (expiration && byoc_aws_parse_time(expiration, &exp) != 0) {
        int rc = fail(err, profile, "the process output has an unreadable Expiration \"%.40s\"%s", expiration, "");
        json_decref(j);
        return rc;
    }
    out->access_key_id = byoc_xstrdup(akid);
    out->secret_access_key = byoc_xstrdup(secret);
    out->session_token = token && *token ? byoc_xstrdup(token) : NULL;
    out->expiration = exp;
    json_decref(j);
    return 0;
}

/* Read both pipes to their end (bounded), so neither side can block the other.
 * true when task was cancelled first. */
static bool drain(int outfd, int errfd, const byoc_task *task, byoc_buf *out, byoc_buf *errb, bool *too_big)
{
    struct pollfd p[2] = {{.fd = outfd, .events = POLLIN}, {.fd = errfd, .events = POLLIN}};
    char chunk[4096];
    int open_fds = 2;
    bool cancelled = false;
    while (open_fds > 0 && !(cancelled = byoc_task_cancelled(task))) {
        if (poll(p, 2, task ? CANCEL_POLL_MS : -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(p[i].fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                p[i].fd = -1;
                open_fds--;
                continue;
            }
            byoc_buf *dst = i == 0 ? out : errb;
            if (dst->len + (size_t)n > OUTPUT_MAX)
                *too_big = true;
            else
                byoc_buf_append(dst, chunk, (size_t)n);
        }
    }
    byoc_wipe(chunk, sizeof chunk);
    return cancelled;
}

int byoc_aws_credential_process(const char *profile, const char *command_line, byoc_task *task, byoc_aws_creds *out,
                                byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_strv words = BYOC_STRV_INIT;
    if (byoc_shlex_split(command_line, &words, err) != 0) {
        char why[sizeof err->message];
        memcpy(why, err->message, sizeof why);
        return byoc_err_set(err, BYOC_E_ENV, "credential_process", "profile %s: cannot split the command line: %.200s",
                            profile, why);
    }
    if (words.n == 0) {
        return fail(err, profile, "the command line is empty%s%s", "", "");
    }
    int outp[2], errp[2];
    if (pipe2(outp, O_CLOEXEC) != 0) {
        byoc_strv_clear(&words);
        return fail(err, profile, "cannot create a pipe: %s%s", strerror(errno), "");
    }
    if (pipe2(errp, O_CLOEXEC) != 0) {
        close(outp[0]);
        close(outp[1]);
        byoc_strv_clear(&words);
        return fail(err, profile, "cannot create a pipe: %s%s", strerror(errno), "");
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, outp[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, errp[1], STDERR_FILENO);
    pid_t pid;
    int src = posix_spawnp(&pid, words.v[0], &fa, NULL, words.v, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(outp[1]);
    close(errp[1]);
    if (src != 0) {
        close(outp[0]);
        close(errp[0]);
        int rc = fail(err, profile, "cannot run %s: %s", words.v[0], strerror(src));
        byoc_strv_clear(&words);
        return rc;
    }
    byoc_buf so = BYOC_BUF_INIT, se = BYOC_BUF_INIT;
    bool too_big = false;
    bool cancelled = drain(outp[0], errp[0], task, &so, &se, &too_big);
    close(outp[0]);
    close(errp[0]);
    /* Cancelled: only the process byoc started is killed; one it started in
     * turn may hold on, but nothing waits for it. A process that closed its
     * output but runs on is waited for until cancelled, too. */
    if (cancelled)
        kill(pid, SIGKILL);
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, task ? WNOHANG : 0);
        if (r == pid || (r < 0 && errno != EINTR))
            break;
        if (r == 0) {
            if (!cancelled && byoc_task_cancelled(task)) {
                cancelled = true;
                kill(pid, SIGKILL);
            }
            poll(NULL, 0, CANCEL_POLL_MS);
        }
    }
    int rc;
    if (cancelled) {
        rc = byoc_err_set(err, BYOC_E_CANCELLED, "credential_process", "profile %s: cancelled while %s ran", profile,
                          words.v[0]);
    } else if (WIFSIGNALED(status)) {
        char sig[32];
        snprintf(sig, sizeof sig, "%d", WTERMSIG(status));
        rc = fail(err, profile, "%s was killed by signal %s", words.v[0], sig);
    } else if (WEXITSTATUS(status) != 0) {
        char detail[400];
        byoc_redact_inplace(se.data); /* before the cut below: a cut secret is not recognised */
        se.len = se.data ? strlen(se.data) : 0;
        size_t n = se.len;
        while (n && (se.data[n - 1] == '\n' || se.data[n - 1] == '\r' || se.data[n - 1] == ' '))
            n--;
        snprintf(detail, sizeof detail, "exit status %d%s%.*s", WEXITSTATUS(status), n ? ": " : "",
                 (int)(n > 300 ? 300 : n), n ? se.data : "");
        for (char *c = detail; *c; c++)
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        /* Where posix_spawn is fork+exec underneath (valgrind, some libcs), an
         * exec failure shows only as a silent exit 127, as in a shell. */
        if (WEXITSTATUS(status) == 127 && n == 0 && so.len == 0)
            rc = fail(err, profile, "cannot run %s: not found or not executable (exit status 127)%s", words.v[0], "");
        else
            rc = fail(err, profile, "%s failed with %s", words.v[0], detail);
    } else if (too_big) {
        rc = fail(err, profile, "%s printed more than 1 MiB%s", words.v[0], "");
    } else {
        rc = byoc_aws_credential_process_parse(profile, byoc_buf_str(&so), out, err);
        if (rc != 0) {
            /* "profile p: why" -> "profile p: <program>: why" */
            char why[sizeof err->message];
            size_t skip = strlen("profile ") + strlen(profile) + 2;
            snprintf(why, sizeof why, "%s", strlen(err->message) > skip ? err->message + skip : err->message);
            byoc_err_set(err, BYOC_E_ENV, "credential_process", "profile %s: %s: %s", profile, words.v[0], why);
        }
    }
    byoc_buf_clear(&so);
    byoc_buf_clear(&se);
    byoc_strv_clear(&words);
    return rc;
}
