/* Heap bytes in use, for the benchmarks' retained-memory figures (glibc's mallinfo2): the arena
   plus mmapped chunks, where glibc puts large blocks such as a big dictionary's storage. */
#ifndef LINNET_CMALLOCINFO_SHIM_H
#define LINNET_CMALLOCINFO_SHIM_H
#include <malloc.h>
static inline size_t cmi_heap_in_use(void) { struct mallinfo2 m = mallinfo2(); return m.uordblks + m.hblkhd; }
/* Gives freed heap back to the system (a benchmark that forks after freeing a large store). */
static inline int cmi_trim(void) { return malloc_trim(0); }
#endif
