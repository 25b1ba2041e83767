/* vendor: a project's private dependencies, cloned into its build context so the image can
 * install them without a key (`byoc vendor`).
 *
 * A job cannot fetch a private dependency (git+ssh://, git@host:..., credentials in a URL) at
 * start, and a build should not hold a key. byoc clones each private git dependency of the
 * context's requirements.txt with the user's ssh-agent into <context>/vendor/<name>/ (no .git),
 * and writes <context>/vendor/requirements.txt: the same list with each of them replaced by its
 * path inside the image, /opt/byoc/vendor/<name>, where the recipe's Dockerfile copies vendor/
 * and installs from that list. */
#ifndef BYOC_BYOC_VENDOR_H
#define BYOC_BYOC_VENDOR_H

#include "core/err.h"
#include "core/strv.h"
#include "core/task.h"

#define BYOC_VENDOR_DIR "vendor"
#define BYOC_VENDOR_IMAGE_DIR "/opt/byoc/vendor"

typedef struct byoc_vendor_result {
    byoc_strv vendored;  /* names cloned now */
    byoc_strv kept;      /* names whose vendor/<name>/ was there already (remove it to fetch again) */
    byoc_strv skipped;   /* private requirements that are not git URLs ("line N: why") */
    char *requirements;  /* the list written, relative to the context ("vendor/requirements.txt"), or NULL */
} byoc_vendor_result;

void byoc_vendor_result_clear(byoc_vendor_result *r);

/* The private git dependencies of requirements text, each as its name and the text to write in
 * its place; for callers that only look (lint). Returns how many. */
size_t byoc_vendor_private_count(const char *text, size_t len);

/* Vendor the private dependencies of context_dir/requirements.txt (see the top). No
 * requirements.txt, or none private: 0 with nothing written. A vendor/ that is a link, or a file,
 * is refused. Progress and cancellation through task (may be NULL). */
int byoc_vendor_project(const char *context_dir, byoc_task *task, byoc_vendor_result *out, byoc_err *err);

#endif
