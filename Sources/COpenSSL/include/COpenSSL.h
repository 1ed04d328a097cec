/* libcrypto for Swift: HMAC-SHA1 for OAuth signatures, SHA-256 for PKCE, random bytes for
   nonces. The library is opened when the first of them is asked for (copenssl.c); OpenSSL's
   headers give the calls' types at build time only. */
#ifndef LINNET_COPENSSL_H
#define LINNET_COPENSSL_H
#include <stddef.h>

/* Opens libcrypto once (later calls give the first answer): NULL, or what went wrong in words.
   The calls below answer 0 until it is NULL. */
const char *copenssl_load(void);
/* Why a call below answered 0: libcrypto missing (as copenssl_load said), or the call itself. */
const char *copenssl_failure(void);
/* What copenssl_load would answer for the library file `name`; nothing is kept (for the tests). */
const char *copenssl_probe(const char *name, char *text, size_t size);

/* One-shot HMAC-SHA1; out must hold 20 bytes. Returns 1 on success. */
int copenssl_hmac_sha1(const void *key, int keyLen, const unsigned char *msg, size_t msgLen, unsigned char *out);
/* SHA-256 of msg; out must hold 32 bytes. Returns 1 on success. */
int copenssl_sha256(const unsigned char *msg, size_t msgLen, unsigned char *out);
/* Cryptographically strong random bytes. Returns 1 on success. */
int copenssl_random(unsigned char *buf, int n);
#endif
