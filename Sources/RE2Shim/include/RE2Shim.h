/* A C face on Debian's RE2 (linear-time regular expressions) for the reader's filters. */
#ifndef LINNET_RE2_SHIM_H
#define LINNET_RE2_SHIM_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A compiled pattern, or NULL with the reason in `error` (NUL-terminated, cut to `error_size`). */
void *linnet_re2_compile(const char *pattern, size_t length, char *error, size_t error_size);
/* 1 when the pattern matches anywhere in the UTF-8 text, else 0. Linear in the text's length. */
int linnet_re2_search(const void *compiled, const char *text, size_t length);
void linnet_re2_free(void *compiled);

#ifdef __cplusplus
}
#endif
#endif
