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

/* A crash must not leave the terminal in the alternate screen and raw mode, with the report
   drawn over the last frame. The handler writes a restore sequence prepared in advance and the
   saved terminal modes (write and tcsetattr are async-signal-safe), then hands the signal to
   whoever had it before (Swift's backtracer, or the default action). */
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
/* The state lives in a function-local static: Swift emits a header's inline functions into
   the module that calls them, but not the header's own globals. */
struct cn_crash_state {
    struct termios modes;
    int have_modes;
    char bytes[512];
    int length;
    struct sigaction previous[65];
};
static inline struct cn_crash_state *cn_crash(void) {
    static struct cn_crash_state state;
    return &state;
}
static inline void cn_crash_handler(int sig) {
    struct cn_crash_state *c = cn_crash();
    if (c->length > 0) { ssize_t w = write(STDOUT_FILENO, c->bytes, (size_t)c->length); (void)w; }
    if (c->have_modes) tcsetattr(STDIN_FILENO, TCSANOW, &c->modes);
    if (sig > 0 && sig < 65) sigaction(sig, &c->previous[sig], NULL);
    raise(sig);
    /* The previous handler returned (a backtracer expects the fault to happen again, which a
       signal sent by kill never does): end by the signal's default action. */
    signal(sig, SIG_DFL);
    raise(sig);
}
/* Call before initscr: saves the cooked modes. */
static inline void cn_save_modes(void) {
    struct cn_crash_state *c = cn_crash();
    c->have_modes = tcgetattr(STDIN_FILENO, &c->modes) == 0;
}
/* Call after initscr with the bytes that undo it. */
static inline void cn_install_crash_restore(const char *bytes, int length) {
    static const int sigs[] = { SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT };
    struct cn_crash_state *c = cn_crash();
    unsigned i;
    if (length < 0) length = 0;
    if (length > (int)sizeof c->bytes) length = (int)sizeof c->bytes;
    memcpy(c->bytes, bytes, (size_t)length);
    c->length = length;
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = cn_crash_handler;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_NODEFER | SA_ONSTACK;
        sigaction(sigs[i], &sa, &c->previous[sigs[i]]);
    }
}
/* Window-size changes wake the loop at once: ncurses's own SIGWINCH handler runs (so the next
   read returns KEY_RESIZE), then a byte goes down the wake pipe. Whichever thread takes the
   signal, the loop's poll returns. write is async-signal-safe. */
struct cn_winch_state { int fd; int installed; struct sigaction previous; };
static inline struct cn_winch_state *cn_winch(void) {
    static struct cn_winch_state state = { -1, 0 };
    return &state;
}
static inline void cn_winch_handler(int sig) {
    struct cn_winch_state *w = cn_winch();
    if (!(w->previous.sa_flags & SA_SIGINFO) && w->previous.sa_handler != SIG_DFL && w->previous.sa_handler != SIG_IGN)
        w->previous.sa_handler(sig);
    if (w->fd >= 0) { char c = 'w'; ssize_t r = write(w->fd, &c, 1); (void)r; }
}
/* Installed once; a later call only changes the pipe (chaining to itself would recurse). */
static inline void cn_install_winch_wake(int fd) {
    struct cn_winch_state *w = cn_winch();
    struct sigaction sa;
    w->fd = fd;
    if (w->installed) return;
    w->installed = 1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cn_winch_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGWINCH, &sa, &w->previous);
}
/* A terminfo string capability, or NULL when the terminal has none. */
static inline const char *cn_tigetstr(const char *name) {
    char *s = tigetstr(name);
    return (s == NULL || s == (char *)-1) ? NULL : s;
}
/* A terminfo boolean capability: 1 when set, 0 when not, -1 when the name is not boolean. */
static inline int cn_tigetflag(const char *name) { return tigetflag(name); }
#endif
