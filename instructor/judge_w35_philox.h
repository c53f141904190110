/* judge_w35_philox.h — the judge's own model of week 35's mask, for the
 * host (judge_w35.c) and the device (judge_w35_kernels.cu): Philox4x32-10
 * (Salmon et al., SC 2011; Random123's philox4x32_R(10, ...), the generator
 * of curand's curandStatePhilox4_32_10_t), curand_uniform's map to (0, 1],
 * and the keep of element i as phase6/week35/dropout.h defines it:
 * curand_init(seed, i / 4, 4 * offset) sets counter { lo(offset),
 * hi(offset), lo(i / 4), hi(i / 4) } and key { lo(seed), hi(seed) }; word
 * i % 4 of that block, through the map, is kept when > p. Instructor code:
 * no student function. The judge checks it against Random123's known
 * answers before it judges anything with it (judge_w35.c, model_ok). */
#ifndef JUDGE_W35_PHILOX_H
#define JUDGE_W35_PHILOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define JD35_HD static __host__ __device__ __forceinline__
#else
#define JD35_HD static inline
#endif

JD35_HD void jd35_philox(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; round++) {
        if (round > 0) k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
        const uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
        const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1, c3 = (uint32_t)p0, c0 = n0, c2 = n2;
    }
    out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

/* x * 2^-32 + 2^-33 in float (2.3283064e-10f is 2^-32 exactly, so the
 * product is exact and a fused multiply-add gives the same float). */
JD35_HD float jd35_uniform(uint32_t x) { return (float)x * 2.3283064e-10f + (2.3283064e-10f / 2.0f); }

/* The four words of element i's group. */
JD35_HD void jd35_group(unsigned long long seed, unsigned long long offset, unsigned long long g, uint32_t w[4])
{
    const uint32_t ctr[4] = { (uint32_t)offset, (uint32_t)(offset >> 32), (uint32_t)g, (uint32_t)(g >> 32) };
    const uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };
    jd35_philox(ctr, key, w);
}

JD35_HD int jd35_keep(unsigned long long seed, unsigned long long offset, unsigned long long i, float p)
{
    uint32_t w[4];
    jd35_group(seed, offset, i / 4, w);
    return jd35_uniform(w[i % 4]) > p;
}

#endif
