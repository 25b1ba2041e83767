#include "byoc/libgit2_api.h"

#include <pthread.h>

#include "core/dynlib.h"

/* The soname of the libgit2 byoc was built against (libgit2 changes ABI between minor versions). */
#define LIBGIT2_SONAME "libgit2.so." LIBGIT2_SOVERSION

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static byoc_git_api api;
static const byoc_git_api *loaded;
static char why[256];

static void load(void)
{
    void *lib = byoc_dynlib_open(LIBGIT2_SONAME, why, sizeof why);
    if (!lib)
        return;
#define BYOC_GIT_LOAD(fn)                                                                          \
    if (!(api.fn = (__typeof__(api.fn))byoc_dynlib_sym(lib, #fn, why, sizeof why)))                \
        return;
    BYOC_GIT_FUNCS(BYOC_GIT_LOAD)
#undef BYOC_GIT_LOAD
    loaded = &api;
}

const byoc_git_api *byoc_git_api_get(byoc_err *err)
{
    pthread_once(&load_once, load);
    if (!loaded)
        byoc_err_set(err, BYOC_E_ENV, "libgit2", "cannot load %s (%s); install it: apt-get install libgit2-%s",
                     LIBGIT2_SONAME, why, LIBGIT2_SOVERSION);
    return loaded;
}
