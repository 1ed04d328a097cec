#include "CLoading.h"

#include <dlfcn.h>

int cl_bind(const char *file, const char *const *names, void **const *slots, size_t count, const char **why, size_t *missing) {
    void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        *why = dlerror();
        return CL_NOT_OPENED;
    }
    void *found[64];
    for (size_t i = 0; i < count; i++) {
        found[i] = i < 64 ? dlsym(lib, names[i]) : NULL;
        if (!found[i]) {
            *missing = i;
            dlclose(lib);
            return CL_CALL_MISSING;
        }
    }
    if (slots)
        for (size_t i = 0; i < count; i++) *slots[i] = found[i];
    else
        dlclose(lib);
    return CL_BOUND;
}
