/* libcrypto for Swift: HMAC-SHA1 for OAuth signatures, SHA-256 for PKCE, random bytes for nonces. */
#ifndef LINNET_COPENSSL_SHIM_H
#define LINNET_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>

/* One-shot HMAC-SHA1; out must hold 20 bytes. Returns 1 on success. */
static inline int copenssl_hmac_sha1(const void *key, int keyLen, const unsigned char *msg, size_t msgLen, unsigned char *out) {
    unsigned int len = 0;
    return HMAC(EVP_sha1(), key, keyLen, msg, msgLen, out, &len) != NULL && len == 20;
}
/* SHA-256 of msg; out must hold 32 bytes. Returns 1 on success. */
static inline int copenssl_sha256(const unsigned char *msg, size_t msgLen, unsigned char *out) {
    return SHA256(msg, msgLen, out) != NULL;
}
/* Cryptographically strong random bytes. Returns 1 on success. */
static inline int copenssl_random(unsigned char *buf, int n) { return RAND_bytes(buf, n); }
#endif
