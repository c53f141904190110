/* fp8_fill.h — week 60, given: E4M3 matrices of small integers times a
 * power of two, made on the device and replayable on the host, for the
 * large tests and the speed checkpoint (support/fp8_fill.cu).
 *
 * Element i of a matrix filled from `seed` with `range` and exponent e is
 * the E4M3 code of v * 2^e, v = fp8_fill_int(seed, i, range), an integer
 * in -range .. range (0 included). Every such value is exact in E4M3 for
 * |v| <= 3 and -9 <= e <= 7 (2^-9 is the least subnormal, 3 * 2^7 = 384 <=
 * 448), so the host can replay any element without the device's data, and
 * a product of two is an integer times 2^(ea + eb): the README says why
 * the test wants such data (sums that any accumulator of 12 or more bits
 * adds exactly). Pure integer arithmetic, the same on both sides. */
#ifndef W60_FP8_FILL_H
#define W60_FP8_FILL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __CUDACC__
#define FP8_FILL_HD __host__ __device__
#else
#define FP8_FILL_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A 64-bit mix of (seed, i): splitmix64's finaliser on seed's stream. */
static inline FP8_FILL_HD uint64_t fp8_fill_hash(unsigned long long seed, size_t i)
{
    uint64_t z = (uint64_t)seed * 0x9e3779b97f4a7c15ull + (uint64_t)i * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Element i's integer, uniform in -range .. range (range 0 .. 3). */
static inline FP8_FILL_HD int fp8_fill_int(unsigned long long seed, size_t i, int range)
{
    return (int)((fp8_fill_hash(seed, i) >> 32) % (uint64_t)(2 * range + 1)) - range;
}

/* The E4M3 code of v * 2^e, |v| <= 3, -9 <= e <= 7 (exact: no rounding).
 * |v| = 1, 2, 3 is (1 + m/8) 2^E with m = 0, 0, 4 and E = e, e + 1, e + 1;
 * below the least normal exponent (-6) it is the subnormal (8 + m) 2^(E + 6)
 * units of 2^-9. */
static inline FP8_FILL_HD uint8_t fp8_fill_code(int v, int e)
{
    if (v == 0) return 0;
    const unsigned a = (unsigned)(v < 0 ? -v : v), m = a == 3 ? 4u : 0u;
    const int E = e + (a >= 2);
    const unsigned mag = E >= -6 ? (unsigned)(E + 7) << 3 | m : (8u + m) >> (-6 - E);
    return (uint8_t)(mag | (v < 0 ? 0x80u : 0u));
}

/* Fill d[0 .. n) on the device (stream 0, asynchronous): element i is
 * fp8_fill_code(fp8_fill_int(seed, i, range), e). The launch's error. */
cudaError_t fp8_fill_small(uint8_t *d, size_t n, unsigned long long seed, int range, int e);

#ifdef __cplusplus
}
#endif
#endif
