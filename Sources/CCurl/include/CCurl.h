/* libcurl for Swift, loaded when the first transfer needs it (docs/BINDINGS.md C5), with typed
   wrappers for the variadic setopt call (C1). curl.h gives the types and constants only:
   every call goes through the ccurl_ functions below. */
#ifndef LINNET_CCURL_H
#define LINNET_CCURL_H
#include <curl/curl.h>

/* Loads libcurl once (later calls return the first answer): NULL, or what went wrong in words.
   Every other ccurl_ function needs a NULL answer first. */
const char *ccurl_load(void);
/* What ccurl_load would answer for the library file `name`, written into `text`; its table is not kept.
   The tests ask it of files that are not libcurl. */
const char *ccurl_probe(const char *name, char *text, size_t size);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *h);
const char *ccurl_easy_strerror(CURLcode code);
CURLcode ccurl_easy_pause(CURL *h, int bitmask);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *s);
void ccurl_slist_free_all(struct curl_slist *list);

CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
CURLcode ccurl_setopt_write_function(CURL *h, curl_write_callback cb);
CURLcode ccurl_setopt_header_function(CURL *h, curl_write_callback cb);
CURLcode ccurl_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback cb);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *m);
CURLMcode ccurl_multi_add_handle(CURLM *m, CURL *h);
CURLMcode ccurl_multi_remove_handle(CURLM *m, CURL *h);
CURLMcode ccurl_multi_perform(CURLM *m, int *running);
CURLMcode ccurl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int n, int timeout_ms, int *numfds);
CURLMcode ccurl_multi_wakeup(CURLM *m);
CURLMsg *ccurl_multi_info_read(CURLM *m, int *left);
#endif
