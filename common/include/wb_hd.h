/* wb_hd.h — what the host and the device compute alike (header only).
 *
 *   wb_hash_bits(seed, i)              splitmix64's finaliser over (seed, i):
 *                                      element i's 64 random bits, no state;
 *   wb_hash_uniform(seed, i, lo, hi)   those bits as a float in [lo, hi): the
 *                                      value wb_dfill_uniform_f32 writes at i
 *                                      and wb_hash_uniform_f32 returns, the
 *                                      same bits on either side;
 *   wb_close_hd(got, ref, atol, rtol)  wb_close's rule (wb_compare.h).
 *
 * One copy, so a fill on the GPU, its re-derivation on the host and a check
 * on the GPU (the grader's judges) can never drift apart. In C these are
 * plain static inline functions; under nvcc they are __host__ __device__. */
#ifndef WB_HD_H
#define WB_HD_H

#include <math.h>
#include <stddef.h>

#ifdef __CUDACC__
#define WB_HD __host__ __device__
#else
#define WB_HD
#endif

static inline WB_HD unsigned long long wb_hash_bits(unsigned long long seed, size_t i)
{
    unsigned long long z = seed ^ ((unsigned long long)i * 0x9E3779B97F4A7C15ull);
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline WB_HD float wb_hash_uniform(unsigned long long seed, size_t i, float lo, float hi)
{
    float u = (float)(wb_hash_bits(seed, i) >> 40) * (1.0f / 16777216.0f); /* exact: 24 bits */
#ifdef __CUDA_ARCH__
    return __fadd_rn(lo, __fmul_rn(hi - lo, u)); /* no FMA contraction */
#else
    volatile float prod = (hi - lo) * u; /* nor here */
    return lo + prod;
#endif
}

/* NaN only for NaN, an infinity only for the same one, else finite and
 * |got - ref| <= atol + rtol |ref| (in double; a float converts exactly). */
static inline WB_HD int wb_close_hd(double got, double ref, double atol, double rtol)
{
    if (isnan(ref)) return isnan(got);
    if (isinf(ref)) return isinf(got) && (got > 0) == (ref > 0);
    if (!isfinite(got)) return 0;
    return fabs(got - ref) <= atol + rtol * fabs(ref);
}

#endif
