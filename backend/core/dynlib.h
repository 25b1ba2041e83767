/* dynlib: open a shared library by its soname at run time and look up its functions; the common
 * part of the lazily loaded library tables (docker/libarchive_api.h,
 * byoc/libgit2_api.h), each beside its users. */
#ifndef BYOC_CORE_DYNLIB_H
#define BYOC_CORE_DYNLIB_H

#include <stddef.h>

/* dlopen `soname` (kept open for the life of the process). NULL if it cannot be loaded; `why`
 * then holds the loader's reason. */
void *byoc_dynlib_open(const char *soname, char *why, size_t why_size);

/* The address of `name` in `lib`, or NULL (then `why` names the missing symbol). */
void *byoc_dynlib_sym(void *lib, const char *name, char *why, size_t why_size);

#endif
