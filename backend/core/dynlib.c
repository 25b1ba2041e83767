#include "core/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

void *byoc_dynlib_open(const char *soname, char *why, size_t why_size)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, why_size, "%s", e ? e : soname);
    }
    return lib;
}

void *byoc_dynlib_sym(void *lib, const char *name, char *why, size_t why_size)
{
    dlerror();
    void *p = dlsym(lib, name);
    if (!p)
        snprintf(why, why_size, "no function %s in it", name);
    return p;
}
