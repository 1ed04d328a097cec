// Byte scanning for the JSON reader: finding the quote or backslash that stops a string sixteen
// bytes per compare. Static inline so Swift inlines it at the call; SSE2 is part of every
// x86-64, other machines take the plain loop.
#ifndef LINNET_CSCAN_H
#define LINNET_CSCAN_H
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Offset of the first '"' or '\\' in p[from..<end], or end when there is none.
static inline long linnet_quote_or_backslash(const uint8_t *p, long from, long end) {
    long i = from;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    while (i + 16 <= end) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        int mask = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (mask != 0) return i + __builtin_ctz((unsigned)mask);
        i += 16;
    }
#endif
    while (i < end && p[i] != '"' && p[i] != '\\') i++;
    return i;
}
#endif
