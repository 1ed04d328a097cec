/* Wide-character ncurses for Swift. The defines must come before any include (docs/BINDINGS.md N2, N3). */
#ifndef LINNET_CNCURSESW_SHIM_H
#define LINNET_CNCURSESW_SHIM_H
#define _DEFAULT_SOURCE 1
#define _XOPEN_SOURCE 600
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* C globals are not concurrency-safe in Swift 6 (N4): read them through functions. */
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_LINES(void) { return LINES; }
static inline int cn_COLS(void) { return COLS; }
static inline void cn_getmaxyx(WINDOW *w, int *y, int *x) { int a, b; getmaxyx(w, a, b); *y = a; *x = b; }
static inline int cn_KEY_F(int n) { return KEY_F(n); }
static inline int cn_COLORS(void) { return COLORS; }
static inline int cn_COLOR_PAIRS(void) { return COLOR_PAIRS; }
static inline attr_t cn_A_BOLD(void) { return A_BOLD; }
static inline attr_t cn_A_REVERSE(void) { return A_REVERSE; }
static inline attr_t cn_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline attr_t cn_A_DIM(void) { return A_DIM; }
static inline attr_t cn_A_ITALIC(void) { return A_ITALIC; }
/* Draws one grapheme (up to 5 scalars, the cchar_t limit) at y,x. */
static inline int cn_mvadd_cluster(int y, int x, const unsigned int *scalars, int count, attr_t a, short pair) {
    cchar_t cc; wchar_t wc[CCHARW_MAX + 1]; int i;
    if (count > CCHARW_MAX) count = CCHARW_MAX;
    for (i = 0; i < count; i++) wc[i] = (wchar_t)scalars[i];
    wc[count] = 0;
    if (setcchar(&cc, wc, a, pair, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cc);
}
#endif
