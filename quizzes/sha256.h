/* sha256.h — SHA-256 (FIPS 180-4), for the quizzes' salted answer hashes
 * and the key stream that obscures their explanations (quiz_seal.c). */
#ifndef SHA256_H
#define SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t nbuf;
} sha256_ctx;

void sha256_init(sha256_ctx *s);
void sha256_add(sha256_ctx *s, const void *data, size_t n);
void sha256_end(sha256_ctx *s, unsigned char out[32]); /* the digest; s is spent */

#endif
