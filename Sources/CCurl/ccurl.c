/* libcurl by dlopen: linked, it and the 30 libraries it brings were bound before main, about
   6 ms of every start (DECISIONS.md, 2026-11-26). */
#include "CCurl.h"
#include "CLoading.h"
#include <pthread.h>
#include <stdio.h>

struct table {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_pause)(CURL *, int);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
};
static struct table fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *problem;
static char problem_text[512];

/* The soname of libcurl built against OpenSSL (Debian's libcurl4), the one the headers match. */
#define CCURL_LIBRARY "libcurl.so.4"

#define CCURL_CALLS(X)                                                                                                    \
    X(global_init) X(easy_init) X(easy_cleanup) X(easy_strerror) X(easy_pause) X(easy_setopt) X(slist_append)            \
    X(slist_free_all) X(multi_init) X(multi_cleanup) X(multi_add_handle) X(multi_remove_handle) X(multi_perform)          \
    X(multi_poll) X(multi_wakeup) X(multi_info_read)
#define CCURL_NAME(field) "curl_" #field,
#define CCURL_SLOT(field) (void **)&t->field,
static const char *const names[] = {CCURL_CALLS(CCURL_NAME)};

/* Opens `name` and fills `into` (NULL: a probe) only when every call is found: NULL, or what
   went wrong in words (in `text`). */
static const char *bind_library(const char *name, struct table *into, char *text, size_t size) {
    struct table scratch, *t = into ? into : &scratch;
    void **const slots[] = {CCURL_CALLS(CCURL_SLOT)};
    const char *why = NULL;
    size_t missing = 0;
    switch (cl_bind(name, names, into ? slots : NULL, sizeof names / sizeof names[0], &why, &missing)) {
    case CL_NOT_OPENED:
        snprintf(text, size, "libcurl could not be loaded (%s): install libcurl4, then start Linnet again", why ? why : name);
        return text;
    case CL_CALL_MISSING:
        /* curl_multi_wakeup is the newest call used (7.68.0). */
        snprintf(text, size, "%s has no %s: libcurl 7.68.0 or later is needed", name, names[missing]);
        return text;
    }
    return NULL;
}

static void load(void) { problem = bind_library(CCURL_LIBRARY, &fn, problem_text, sizeof problem_text); }

const char *ccurl_load(void) {
    pthread_once(&once, load);
    return problem;
}

const char *ccurl_probe(const char *name, char *text, size_t size) { return bind_library(name, NULL, text, size); }

CURLcode ccurl_global_init(long flags) { return fn.global_init(flags); }
CURL *ccurl_easy_init(void) { return fn.easy_init(); }
void ccurl_easy_cleanup(CURL *h) { fn.easy_cleanup(h); }
const char *ccurl_easy_strerror(CURLcode code) { return fn.easy_strerror(code); }
CURLcode ccurl_easy_pause(CURL *h, int bitmask) { return fn.easy_pause(h, bitmask); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *s) { return fn.slist_append(list, s); }
void ccurl_slist_free_all(struct curl_slist *list) { fn.slist_free_all(list); }

CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return fn.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) { return fn.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v) { return fn.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return fn.easy_setopt(h, o, v); }
CURLcode ccurl_setopt_write_function(CURL *h, curl_write_callback cb) { return fn.easy_setopt(h, CURLOPT_WRITEFUNCTION, cb); }
CURLcode ccurl_setopt_header_function(CURL *h, curl_write_callback cb) { return fn.easy_setopt(h, CURLOPT_HEADERFUNCTION, cb); }
CURLcode ccurl_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback cb) {
    return fn.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, cb);
}

CURLM *ccurl_multi_init(void) { return fn.multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *m) { return fn.multi_cleanup(m); }
CURLMcode ccurl_multi_add_handle(CURLM *m, CURL *h) { return fn.multi_add_handle(m, h); }
CURLMcode ccurl_multi_remove_handle(CURLM *m, CURL *h) { return fn.multi_remove_handle(m, h); }
CURLMcode ccurl_multi_perform(CURLM *m, int *running) { return fn.multi_perform(m, running); }
CURLMcode ccurl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int n, int timeout_ms, int *numfds) {
    return fn.multi_poll(m, fds, n, timeout_ms, numfds);
}
CURLMcode ccurl_multi_wakeup(CURLM *m) { return fn.multi_wakeup(m); }
CURLMsg *ccurl_multi_info_read(CURLM *m, int *left) { return fn.multi_info_read(m, left); }
