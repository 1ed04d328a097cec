/* Libraries opened with dlopen when first needed, not linked (libcurl, libcrypto, the
   pictures'): each caller says in its own words what went wrong. */
#ifndef LINNET_CLOADING_H
#define LINNET_CLOADING_H
#include <stddef.h>

enum { CL_BOUND = 0, CL_NOT_OPENED = 1, CL_CALL_MISSING = 2 };

/* Opens `file` and finds each of `names`. CL_BOUND: every slot filled and the library kept
   open (with `slots` NULL, a probe: nothing kept). CL_NOT_OPENED: `*why` is dlerror's words
   (or NULL). CL_CALL_MISSING: `*missing` is the index of the first name not found. Slots are
   written only when every name was found. At most 64 names. */
int cl_bind(const char *file, const char *const *names, void **const *slots, size_t count, const char **why, size_t *missing);
#endif
