// Byte scanning for the JSON reader: finding the quote or backslash that stops a string sixteen
// bytes per compare, and checking UTF-8. Static inline so Swift inlines it at the call; SSE2 is
// part of every x86-64, other machines take the plain loops.
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

/// Copies n bytes from `from` to `to`; nonzero when any is above 0x7F. Sixteen bytes per step
/// where the machine has SSE2 (a run between escapes is often a space or a word).
static inline int linnet_copy_noting_high(uint8_t *to, const uint8_t *from, long n) {
    long i = 0;
    int high = 0;
#if defined(__SSE2__)
    __m128i seen = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(from + i));
        _mm_storeu_si128((__m128i *)(to + i), v);
        seen = _mm_or_si128(seen, v);
    }
    high = _mm_movemask_epi8(seen);
#endif
    uint8_t rest = 0;
    for (; i < n; i++) {
        to[i] = from[i];
        rest |= from[i];
    }
    return high | (rest & 0x80);
}

/// Whether p[0..<n] is well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no
/// surrogates, nothing past U+10FFFF). ASCII runs are passed sixteen bytes per compare; each
/// other sequence is checked by its lead byte's row of the table.
static inline int linnet_utf8_valid(const uint8_t *p, long n) {
    long i = 0;
    while (i < n) {
        uint8_t b = p[i];
        if (b < 0x80) {
            // An ASCII run: sixteen bytes per compare, then byte by byte to its end.
            i++;
#if defined(__SSE2__)
            while (i + 16 <= n) {
                int mask = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(p + i)));
                if (mask != 0) {
                    i += __builtin_ctz((unsigned)mask);
                    break;
                }
                i += 16;
            }
#endif
            while (i < n && p[i] < 0x80) i++;
            continue;
        }
        // Text in other scripts goes from sequence to sequence without the ASCII pass.
        if (b < 0xC2) return 0;  // a continuation byte, or an overlong two-byte lead
        if (b < 0xE0) {
            if (i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) return 0;
            i += 2;
        } else if (b < 0xF0) {
            if (i + 2 >= n) return 0;
            uint8_t c = p[i + 1];
            uint8_t lo = b == 0xE0 ? 0xA0 : 0x80;  // not overlong
            uint8_t hi = b == 0xED ? 0x9F : 0xBF;  // not a surrogate
            if (c < lo || c > hi || (p[i + 2] & 0xC0) != 0x80) return 0;
            i += 3;
        } else if (b < 0xF5) {
            if (i + 3 >= n) return 0;
            uint8_t c = p[i + 1];
            uint8_t lo = b == 0xF0 ? 0x90 : 0x80;  // not overlong
            uint8_t hi = b == 0xF4 ? 0x8F : 0xBF;  // not past U+10FFFF
            if (c < lo || c > hi || (p[i + 2] & 0xC0) != 0x80 || (p[i + 3] & 0xC0) != 0x80) return 0;
            i += 4;
        } else {
            return 0;
        }
    }
    return 1;
}

/// How many bytes of p[0..<n] continue a UTF-8 sequence (10xxxxxx): a text's bytes less these
/// are its code points. Sixteen bytes per compare, counted in byte lanes (at most 255 blocks
/// before they are summed).
static inline long linnet_utf8_continuations(const uint8_t *p, long n) {
    long i = 0;
    long count = 0;
#if defined(__SSE2__)
    const __m128i below = _mm_set1_epi8((char)0xC0);  // signed, -64: 0x80 to 0xBF are less
    while (i + 16 <= n) {
        __m128i lanes = _mm_setzero_si128();
        for (int blocks = 0; blocks < 255 && i + 16 <= n; blocks++, i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            lanes = _mm_sub_epi8(lanes, _mm_cmpgt_epi8(below, v));
        }
        __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
        count += _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
    }
#endif
    for (; i < n; i++) count += (p[i] & 0xC0) == 0x80;
    return count;
}

// CRC-32C for the timeline cache with SSE4.2's crc32 instruction, eight bytes a step; asked of
// the processor once (cpuid), so the same binary runs where it is missing. Builtins, not the
// <nmmintrin.h> wrappers: Swift does not emit those inline wrappers' bodies.
#if defined(__x86_64__)
#include <cpuid.h>
#include <string.h>
static inline int linnet_has_crc32c(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & bit_SSE4_2) != 0;
}

/// Continues `crc` (not inverted here) over p[0..<n]; only where linnet_has_crc32c() says so.
__attribute__((target("sse4.2"))) static inline uint32_t linnet_crc32c(uint32_t crc, const uint8_t *p, long n) {
    uint64_t c = crc;
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        c = __builtin_ia32_crc32di(c, v);
    }
    uint32_t c32 = (uint32_t)c;
    for (; i < n; i++) c32 = __builtin_ia32_crc32qi(c32, p[i]);
    return c32;
}
#else
static inline int linnet_has_crc32c(void) { return 0; }
static inline uint32_t linnet_crc32c(uint32_t crc, const uint8_t *p, long n) {
    (void)p;
    (void)n;
    return crc;
}
#endif
#endif
