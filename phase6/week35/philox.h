/* philox.h — week 35: the counter-based generator behind dropout, on the CPU. */
#ifndef PHILOX_H
#define PHILOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Philox4x32-10 (Salmon et al., SC 2011), the generator of curand's
 * curandStatePhilox4_32_10_t: one block maps a 128-bit counter ctr[0..3] and
 * a 64-bit key key[0..1] to 128 random bits out[0..3]. Ten rounds of
 *     hi0:lo0 = 0xD2511F53 * c0,   hi1:lo1 = 0xCD9E8D57 * c2   (32 x 32 -> 64 bits)
 *     c = { hi1 ^ c1 ^ k0,  lo1,  hi0 ^ c3 ^ k1,  lo0 }
 * with the key bumped by (0x9E3779B9, 0xBB67AE85) between rounds (nine
 * bumps). It must give curand_Philox4x32_10's words bit for bit. */
void philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* curand_uniform's map from 32 random bits to (0, 1], in float:
 *     x * 2.3283064e-10f + (2.3283064e-10f / 2.0f)      (2^-32 and 2^-33)
 * x converted to float first (round to nearest). Never 0; 1.0f at the top. */
float philox_uniform(uint32_t x);

/* The dropout mask of element i, as the device kernel of this week makes it
 * (dropout.h): 1 keep, 0 drop. With g = i / 4 and k = i % 4,
 *     curand_init(seed, g, 4 * offset, &state)  sets  counter = { lo(offset), hi(offset), lo(g), hi(g) },
 *                                                     key     = { lo(seed), hi(seed) }
 *     curand_uniform4(&state)  is philox_uniform of that block's four words,
 * and element i keeps when word k's uniform is > p. p = 0 keeps every
 * element, p = 1 drops every one. offset < 2^62. */
int philox_dropout_keep_host(unsigned long long seed, unsigned long long offset, size_t i, float p);

#ifdef __cplusplus
}
#endif
#endif
