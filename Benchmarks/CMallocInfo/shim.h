/* Heap bytes in use, for the benchmarks' retained-memory figures (glibc's mallinfo2). */
#ifndef LINNET_CMALLOCINFO_SHIM_H
#define LINNET_CMALLOCINFO_SHIM_H
#include <malloc.h>
static inline size_t cmi_heap_in_use(void) { return mallinfo2().uordblks; }
#endif
