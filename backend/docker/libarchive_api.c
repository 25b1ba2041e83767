#include "docker/libarchive_api.h"

#include <pthread.h>

#include "core/dynlib.h"

/* libarchive's soname has been .13 since libarchive 3.0; Debian's package follows it. */
#define LIBARCHIVE_SONAME "libarchive.so.13"

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static byoc_archive_api api;
static const byoc_archive_api *loaded;
static char why[256];

static void load(void)
{
    void *lib = byoc_dynlib_open(LIBARCHIVE_SONAME, why, sizeof why);
    if (!lib)
        return;
#define BYOC_ARCHIVE_LOAD(fn)                                                                      \
    if (!(api.fn = (__typeof__(api.fn))byoc_dynlib_sym(lib, #fn, why, sizeof why)))                \
        return;
    BYOC_ARCHIVE_FUNCS(BYOC_ARCHIVE_LOAD)
#undef BYOC_ARCHIVE_LOAD
    loaded = &api;
}

const byoc_archive_api *byoc_archive_api_get(byoc_err *err)
{
    pthread_once(&load_once, load);
    if (!loaded)
        byoc_err_set(err, BYOC_E_ENV, "libarchive", "cannot load %s (%s); install it: apt-get install libarchive13",
                     LIBARCHIVE_SONAME, why);
    return loaded;
}
