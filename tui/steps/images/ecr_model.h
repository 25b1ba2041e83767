/* ecr_model: the ECR half of the image browser as tables, and which images
 * are both local and in ECR (pure: no curses calls, no I/O).
 *
 * Repositories table: Name, URI, Images (how many, "-" when not counted),
 * Created (local "YYYY-MM-DD HH:MM"), Tags (MUTABLE / IMMUTABLE) and Scan
 * (scan on push: yes / no); each row's data is a tui_ecr_repo_entry.
 * Images table of one repository: Tags ("v1, v2", or "<untagged>"), Digest
 * (12 hex), Size (compressed, IEC units), Pushed, Scan (the scan status) and
 * Local ("local" when an image on the engine has this repository@digest in
 * its RepoDigests); each row's data is a tui_ecr_image_entry. Both refills
 * keep the filter, the sort and the selection (by name, by digest).
 * An image that is an OCI index or Docker manifest list has platforms, read
 * apart from the listing (ecr_tasks.h); a refill keeps those of the same
 * digest until they are read again, as a digest's content never changes.
 *
 * "Pushed" and "local" are the same fact seen from either side: a local
 * image whose RepoDigests hold "<registry>/<repository>@<digest>" where ECR
 * lists <digest> in that repository. */
#ifndef BYOC_TUI_ECR_VIEW_H
#define BYOC_TUI_ECR_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aws/ecr.h"
#include "docker/images.h"
#include "list.h"

/* ---- a sorted set of image references ("host/repo@sha256:...") ---- */

typedef struct tui_ecr_refs {
    char **items;
    size_t n, cap;
} tui_ecr_refs;

void tui_ecr_refs_add(tui_ecr_refs *s, const char *ref);
bool tui_ecr_refs_has(const tui_ecr_refs *s, const char *ref);
void tui_ecr_refs_clear(tui_ecr_refs *s);
/* Every RepoDigest of the local images, added to out. */
void tui_ecr_local_refs(const byoc_image_list *l, tui_ecr_refs *out);

/* ---- repositories ---- */

typedef struct tui_ecr_repo_entry {
    char *name;
    char *uri;
    char *mutability;
    double created;
    bool scan_on_push;
    long images;              /* -1: not counted */
} tui_ecr_repo_entry;

void tui_ecr_repo_entry_free(void *entry);
extern const tui_column tui_ecr_repo_columns[6];

/* Refill l (made with tui_ecr_repo_columns) from DescribeRepositories;
 * image_counts (may be NULL) has n entries, -1 for unknown. */
void tui_ecr_repos_fill(tui_list *l, const byoc_ecr_repository *repos, size_t n, const long *image_counts);
/* Set the image counts of the rows named names[i] (counts[i], -1: "-");
 * rows not named keep theirs. */
void tui_ecr_repos_set_counts(tui_list *l, const char *const *names, const long *counts, size_t n);

/* ---- one repository's images ---- */

typedef struct tui_ecr_image_entry {
    char *digest;
    char *tags;               /* "v1, v2" or "<untagged>" */
    char *uri;                /* repository URI ":" first tag, or "@" digest */
    int64_t size;             /* -1 unknown */
    double pushed_at;
    char *scan;               /* the scan status, or NULL */
    char *findings;           /* the findings summary, or NULL */
    bool local;
    bool index;               /* an OCI index or Docker manifest list */
    char *platforms;          /* an index's platforms (byoc/imageplatforms.h), printable; NULL until read */
} tui_ecr_image_entry;

void tui_ecr_image_entry_free(void *entry);
extern const tui_column tui_ecr_image_columns[6];

/* Refill l (made with tui_ecr_image_columns) from DescribeImages of the
 * repository at repo_uri; local: the local RepoDigests (may be NULL). */
void tui_ecr_images_fill(tui_list *l, const char *repo_uri, const byoc_ecr_image_list *images,
                         const tui_ecr_refs *local);
/* How many rows are marked local. */
size_t tui_ecr_images_local_count(const tui_list *l);
/* How many rows are indexes. */
size_t tui_ecr_images_index_count(const tui_list *l);
/* Set the platforms of the rows whose digest is digests[i] to texts[i]
 * (made printable; NULL leaves the row as it is). */
void tui_ecr_images_set_platforms(tui_list *l, const char *const *digests, const char *const *texts, size_t n);
/* What to say of e's platforms: its text once read, "reading..." while a
 * read runs, "not read" after one that said nothing of it; NULL for an
 * image that is not an index. */
const char *tui_ecr_image_platforms(const tui_ecr_image_entry *e, bool reading);

/* "2024-05-01 14:03" in local time from epoch seconds, "-" for 0. */
void tui_ecr_time(double t, char *buf, size_t size);

#endif
