/* container_files: files in and out of a container, over containers.h's
 * archive GET and PUT, knowing nothing of what the container runs:
 *   - read one small file (its first regular entry, bounded)
 *   - put a list of directories, in-memory files and host files in as one
 *     tar, made by libarchive as the engine reads the body (memory stays at
 *     one chunk), owned by a given uid/gid
 *   - stream a path's tar into a socket from a thread, for a reader that may
 *     stop early (an unpacker with limits): nothing is spooled. */
#ifndef BYOC_DOCKER_CONTAINER_FILES_H
#define BYOC_DOCKER_CONTAINER_FILES_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"

/* The first regular entry of the archive of path (GET at most tar_max bytes
 * of the tar), up to max bytes of it: 1 with *content (malloc'd,
 * NUL-terminated) and *len (len may be NULL), 0 when the tar holds no regular
 * file, -1 on errors (a path that does not exist too: err->http_status 404). */
int byoc_container_read_entry(byoc_engine *e, byoc_task *t, const char *id, const char *path, size_t tar_max,
                              size_t max, char **content, size_t *len, byoc_err *err);
/* The same, all the file that max bytes of tar hold; 0 also when the path does not exist. */
int byoc_container_read_file(byoc_engine *e, byoc_task *t, const char *id, const char *path, size_t max,
                             char **content, byoc_err *err);

typedef enum { BYOC_PUT_DIR, BYOC_PUT_MEM, BYOC_PUT_FILE } byoc_put_kind;

/* One entry of the tar. */
typedef struct byoc_put_item {
    byoc_put_kind kind;
    char *path;          /* relative to the directory it is put into (dirs end in '/') */
    char *host;          /* BYOC_PUT_FILE: the file to read */
    char *data;          /* BYOC_PUT_MEM */
    size_t len;
} byoc_put_item;

typedef struct byoc_put_list {
    byoc_put_item *items;
    size_t n;
} byoc_put_list;

/* A directory is listed once however often it is added. */
void byoc_put_list_add(byoc_put_list *l, byoc_put_kind kind, const char *path, const char *host, const char *data,
                       size_t len);
/* path/ as a directory entry. */
void byoc_put_list_add_dir(byoc_put_list *l, const char *path);
/* base/ and every directory between it and rel_file. */
void byoc_put_list_add_dir_chain(byoc_put_list *l, const char *base, const char *rel_file);
void byoc_put_list_clear(byoc_put_list *l);

/* PUT the list as one tar into dir of the container, every entry owned by uid:gid. */
int byoc_container_put_list(byoc_engine *e, byoc_task *t, const char *id, const char *dir, const byoc_put_list *l,
                            unsigned uid, unsigned gid, byoc_err *err);

/* The tar of a container path (archive GET), downloaded by a thread into one
 * end of a socket pair: read it from fd. The download stops at its next
 * block once the reader has stopped (byoc_container_feed_end). */
typedef struct byoc_container_feed {
    int fd;              /* read the tar here */
    bool started;        /* false: the thread did not start, fd gives EOF at once */
    /* after byoc_container_feed_end: */
    int rc;              /* the download's result */
    bool stopped;        /* it failed because the reader stopped reading first */
    byoc_err err;
    /* private */
    byoc_engine *engine;
    const char *id, *path;
    int write_fd;
    pthread_t th;
} byoc_container_feed;

/* -1 with errno when there is no socket pair (nothing to end then). */
int byoc_container_feed_start(byoc_container_feed *f, byoc_engine *e, const char *id, const char *path);
void byoc_container_feed_end(byoc_container_feed *f);

#endif
