/* adopt: the user's code in a directory `byoc init` scaffolds into, so that the
 * scaffold points at it instead of adding a sample: for each language the
 * manifest the launcher builds from (CMakeLists.txt, Cargo.toml, Project.toml
 * with a .jl program) or the Python package or script and its requirements.txt /
 * pyproject.toml, at the top or one directory down. Reads names only (and a
 * Python file's first 256 KiB to see whether it defines main); follows no link. */
#ifndef BYOC_BYOC_ADOPT_H
#define BYOC_BYOC_ADOPT_H

#include <stdbool.h>

#include "byoc/recipe.h"

typedef struct byoc_adopt {
    bool found;              /* the directory has code in that language */
    char *source_module;     /* relative to dir: "." or a subdirectory or a .py file */
    char *entry_point;       /* as the launcher takes it: "<name>/CMakeLists.txt", "pkg.main:main" */
    char *manifest;          /* the file that showed the code ("CMakeLists.txt", "src/pkg/__init__.py") */
    char *requirements;      /* Python: requirements.txt relative to dir, or NULL */
    char *pyproject;         /* Python: pyproject.toml relative to dir, or NULL */
    char *cargo_toml;        /* Rust: the manifest the Dockerfile prebuilds, or NULL */
    char *cargo_lock;        /* Rust: Cargo.lock beside it, or NULL */
    char *julia_project;     /* Julia: Project.toml, or NULL */
    char *julia_manifest;    /* Julia: (Julia)Manifest.toml beside it (the pinned versions), or NULL */
} byoc_adopt;

/* Look at dir for code in language l. Never fails: found is false when there is none. */
void byoc_adopt_find(const char *dir, byoc_language l, byoc_adopt *out);
void byoc_adopt_clear(byoc_adopt *a);

#endif
