/* libcrypto by dlopen, when the first signature, hash or random bytes are asked for: linked, it
   was bound before main at every start (DECISIONS.md, 2026-11-27). */
#include "COpenSSL.h"
#include "CLoading.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdio.h>

struct table {
    __typeof__(HMAC) *hmac;
    __typeof__(EVP_sha1) *evp_sha1;
    __typeof__(SHA256) *sha256;
    __typeof__(RAND_bytes) *rand_bytes;
};
static struct table fn;

/* The soname of OpenSSL 3 (Debian's libssl3), the one the headers match. */
#define COPENSSL_LIBRARY "libcrypto.so.3"

static const char *const names[] = {"HMAC", "EVP_sha1", "SHA256", "RAND_bytes"};

/* Opens `name` and fills `into` (NULL: a probe) only when every call is found: NULL, or what
   went wrong in words (in `text`). */
static const char *bind_library(const char *name, struct table *into, char *text, size_t size) {
    struct table scratch, *t = into ? into : &scratch;
    void **const slots[] = {(void **)&t->hmac, (void **)&t->evp_sha1, (void **)&t->sha256, (void **)&t->rand_bytes};
    const char *why = NULL;
    size_t missing = 0;
    switch (cl_bind(name, names, into ? slots : NULL, sizeof names / sizeof names[0], &why, &missing)) {
    case CL_NOT_OPENED:
        snprintf(text, size, "libcrypto could not be loaded (%s): install libssl3, then start Linnet again", why ? why : name);
        return text;
    case CL_CALL_MISSING:
        snprintf(text, size, "%s has no %s: OpenSSL 3's libcrypto is needed", name, names[missing]);
        return text;
    }
    return NULL;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *problem;
static char problem_text[512];

static void load(void) { problem = bind_library(COPENSSL_LIBRARY, &fn, problem_text, sizeof problem_text); }

const char *copenssl_load(void) {
    pthread_once(&once, load);
    return problem;
}

const char *copenssl_failure(void) {
    const char *why = copenssl_load();
    return why ? why : "a libcrypto call failed";
}

const char *copenssl_probe(const char *name, char *text, size_t size) { return bind_library(name, NULL, text, size); }

int copenssl_hmac_sha1(const void *key, int keyLen, const unsigned char *msg, size_t msgLen, unsigned char *out) {
    if (copenssl_load()) return 0;
    unsigned int len = 0;
    return fn.hmac(fn.evp_sha1(), key, keyLen, msg, msgLen, out, &len) != NULL && len == 20;
}

int copenssl_sha256(const unsigned char *msg, size_t msgLen, unsigned char *out) {
    if (copenssl_load()) return 0;
    return fn.sha256(msg, msgLen, out) != NULL;
}

int copenssl_random(unsigned char *buf, int n) {
    if (copenssl_load()) return 0;
    return fn.rand_bytes(buf, n) == 1;
}
