/* images_model: the image browser's tables, from what the engine reports
 * (pure: no curses calls, no I/O).
 *
 * The images table has one row per repository:tag, like `docker images`
 * (an untagged image is one "<none>" row): Repository, Tag, ID (12 hex),
 * Size (IEC units, sorts by bytes), Created (local "YYYY-MM-DD HH:MM",
 * sorts by time) and ECR ("pushed" once ECR confirmed that it lists one of
 * the image's RepoDigests; ecr_model.h). Each row's data is a tui_image_entry. The layers table
 * lists an image's history, newest first: Size, Created and the command
 * that made the layer ("RUN ...", "COPY ...", as `docker history` words it). */
#ifndef BYOC_TUI_IMAGES_VIEW_H
#define BYOC_TUI_IMAGES_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "docker/images.h"
#include "ecr_model.h"
#include "image_text.h"
#include "list.h"

typedef struct tui_image_entry {
    char *repository;    /* "<none>" for an untagged image */
    char *tag;           /* "<none>" likewise */
    char *ref;           /* what to act on: "repository:tag", or the id when untagged */
    char *id;            /* "sha256:..." */
    char *digest;        /* the repository's digest, or NULL */
    int64_t size;
    int64_t created;
    size_t image_refs;   /* how many repository:tag rows this image has in all */
    char **repo_digests; /* every RepoDigest of the image ("host/repo@sha256:..."), NULL-terminated */
    size_t n_repo_digests;
    bool pushed;         /* ECR lists one of them */
} tui_image_entry;

void tui_image_entry_free(void *entry);

/* Columns of the two tables (for tui_list_init). */
extern const tui_column tui_images_columns[6];
extern const tui_column tui_layers_columns[3];

/* Refill l (made with tui_images_columns; its data_free is set) from a
 * listing; the filter, the sort and, when it is still there, the selected
 * ref are kept. */
void tui_images_fill(tui_list *l, const byoc_image_list *images);
/* Refill l (made with tui_layers_columns) from a history; each row's data
 * is the layer's created_by as the engine reports it (a string). */
void tui_layers_fill(tui_list *l, const byoc_image_history *h);
/* Mark the rows whose image has a RepoDigest in pushed (what ECR confirmed)
 * and clear the others; returns how many rows are marked. */
size_t tui_images_mark_pushed(tui_list *l, const tui_ecr_refs *pushed);
/* Select the row whose ref is ref; false if none shows it. */
bool tui_images_select_ref(tui_list *l, const char *ref);

/* What made a layer: "/bin/sh -c #(nop) CMD x" -> "CMD x", "/bin/sh -c echo
 * hi" -> "RUN echo hi", "|1 A=b /bin/sh -c echo" (a RUN with build args) ->
 * "RUN echo", "" -> "-". */
void tui_layer_command(const char *created_by, char *buf, size_t size);

#endif
