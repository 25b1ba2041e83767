/* The file log source (byoc/logfile.h): complete lines as the file grows, a
 * last line without its newline held until the final poll, a line longer
 * than the bound delivered in pieces, a missing file no error, a symlink not
 * followed. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byoc/logfile.h"
#include "core/buf.h"

typedef struct seen {
    byoc_buf all;   /* each line, then '|' */
    size_t lines, longest;
} seen;

static void on_line(const byoc_log_line *l, void *ud)
{
    seen *s = ud;
    byoc_buf_append(&s->all, l->message, l->len < 64 ? l->len : 64);
    byoc_buf_putc(&s->all, '|');
    s->lines++;
    if (l->len > s->longest)
        s->longest = l->len;
    CHECK(l->instance && !*l->instance);
}

static void append(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "ab");
    CHECK(f != NULL);
    fwrite(text, 1, n, f);
    fclose(f);
}

static int poll(byoc_log_source *src, bool final, seen *s, byoc_log_round *r)
{
    byoc_err err;
    byoc_err_clear(&err);
    return byoc_log_source_poll(src, NULL, final, on_line, s, r, &err);
}

static const char *text(seen *s)
{
    byoc_buf_putc(&s->all, '\0');
    s->all.len--;
    return s->all.data ? s->all.data : "";
}

int main(void)
{
    char dir[] = "/tmp/byoc-logfile-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *path = byoc_xasprintf("%s/log.txt", dir);
    byoc_log_source *src = byoc_log_source_file(path);
    seen s = {BYOC_BUF_INIT, 0, 0};
    byoc_log_round r;

    CHECK_INT(poll(src, false, &s, &r), 0);              /* no file yet */
    CHECK_INT((int)r.streams, 0);
    CHECK_INT((int)s.lines, 0);

    append(path, "one\ntwo\nthr", 11);
    CHECK_INT(poll(src, false, &s, &r), 0);
    CHECK_INT((int)r.streams, 1);
    CHECK_STR(text(&s), "one|two|");                     /* "thr" waits for its newline */
    append(path, "ee\n\nfo", 6);
    CHECK_INT(poll(src, false, &s, &r), 0);
    CHECK_STR(text(&s), "one|two|three||");
    CHECK_INT(poll(src, true, &s, &r), 0);               /* the job ended: the last piece too */
    CHECK_STR(text(&s), "one|two|three||fo|");
    CHECK_INT(poll(src, true, &s, &r), 0);
    CHECK_INT((int)r.lines, 0);

    /* A line past the bound comes in pieces of the bound; memory stays bounded. */
    size_t big = BYOC_LOGFILE_LINE_MAX * 2 + 10;
    char *blob = malloc(big + 1);
    memset(blob, 'x', big);
    blob[big] = '\n';
    append(path, blob, big + 1);
    free(blob);
    s.lines = 0;
    CHECK_INT(poll(src, false, &s, &r), 0);
    CHECK_INT((int)s.lines, 3);
    CHECK_INT((int)s.longest, (int)BYOC_LOGFILE_LINE_MAX);
    byoc_log_source_free(src);

    /* A symlink in the log's place is not followed. */
    char *link = byoc_xasprintf("%s/link.txt", dir);
    CHECK_INT(symlink(path, link), 0);
    src = byoc_log_source_file(link);
    byoc_err err;
    byoc_err_clear(&err);
    CHECK(byoc_log_source_poll(src, NULL, true, on_line, &s, &r, &err) != 0);
    CHECK(strstr(err.message, "link.txt") != NULL);
    byoc_log_source_free(src);

    unlink(link);
    unlink(path);
    rmdir(dir);
    free(link);
    free(path);
    byoc_buf_clear(&s.all);
    return check_done();
}
