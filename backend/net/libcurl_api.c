#include "net/libcurl_api.h"

#include <pthread.h>

#include "core/dynlib.h"

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static byoc_curl_api api;
static const byoc_curl_api *loaded;
static char why[256];

static void load(void)
{
    void *lib = byoc_dynlib_open(BYOC_LIBCURL_SONAME, why, sizeof why);
    if (!lib)
        return;
#define BYOC_CURL_LOAD(fn)                                                                         \
    if (!(api.fn = (__typeof__(api.fn))byoc_dynlib_sym(lib, #fn, why, sizeof why)))                \
        return;
    BYOC_CURL_FUNCS(BYOC_CURL_LOAD)
#undef BYOC_CURL_LOAD
    loaded = &api;
}

const byoc_curl_api *byoc_curl_api_get(byoc_err *err)
{
    pthread_once(&load_once, load);
    if (!loaded)
        byoc_err_set(err, BYOC_E_ENV, "libcurl", "cannot load %s (%s); install it: apt-get install libcurl4",
                     BYOC_LIBCURL_SONAME, why);
    return loaded;
}
