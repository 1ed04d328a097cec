/* libcurl by dlopen: linked, it and the 30 libraries it brings were bound before main, about
   6 ms of every start (DECISIONS.md, 2026-11-26). */
#include "CCurl.h"
#include <dlfcn.h>
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

/* Opens `name` and fills `into` only when every call is found: NULL, or what went wrong in
   words (in `text`). */
static const char *bind_library(const char *name, struct table *into, char *text, size_t size) {
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(text, size, "libcurl could not be loaded (%s): install libcurl4, then start Linnet again", why ? why : name);
        return text;
    }
    struct table found, *t = &found;
    struct { void **slot; const char *name; } need[] = {
        {(void **)&t->global_init, "curl_global_init"},
        {(void **)&t->easy_init, "curl_easy_init"},
        {(void **)&t->easy_cleanup, "curl_easy_cleanup"},
        {(void **)&t->easy_strerror, "curl_easy_strerror"},
        {(void **)&t->easy_pause, "curl_easy_pause"},
        {(void **)&t->easy_setopt, "curl_easy_setopt"},
        {(void **)&t->slist_append, "curl_slist_append"},
        {(void **)&t->slist_free_all, "curl_slist_free_all"},
        {(void **)&t->multi_init, "curl_multi_init"},
        {(void **)&t->multi_cleanup, "curl_multi_cleanup"},
        {(void **)&t->multi_add_handle, "curl_multi_add_handle"},
        {(void **)&t->multi_remove_handle, "curl_multi_remove_handle"},
        {(void **)&t->multi_perform, "curl_multi_perform"},
        {(void **)&t->multi_poll, "curl_multi_poll"},
        {(void **)&t->multi_wakeup, "curl_multi_wakeup"},
        {(void **)&t->multi_info_read, "curl_multi_info_read"},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        *need[i].slot = dlsym(lib, need[i].name);
        if (!*need[i].slot) {
            /* curl_multi_wakeup is the newest call used (7.68.0). */
            snprintf(text, size, "%s has no %s: libcurl 7.68.0 or later is needed", name, need[i].name);
            dlclose(lib);
            return text;
        }
    }
    *into = found;
    return NULL;
}

static void load(void) { problem = bind_library(CCURL_LIBRARY, &fn, problem_text, sizeof problem_text); }

const char *ccurl_load(void) {
    pthread_once(&once, load);
    return problem;
}

const char *ccurl_probe(const char *name, char *text, size_t size) {
    struct table scratch;
    return bind_library(name, &scratch, text, size);
}

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
