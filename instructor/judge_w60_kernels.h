/* judge_w60_kernels.h — week 60's judge's own kernels (judge_w60_kernels.cu,
 * linked into judge-w60 alone): the timed inputs' fill and the check of
 * every output of a timed call against the exact sums of the fill's
 * integers. */
#ifndef JUDGE_W60_KERNELS_H
#define JUDGE_W60_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The timed call's input (judge_w60.h, W60_FN_TIMED) on the default
 * stream: A from seed_a and B from seed_b as support/fp8_fill.h fills them
 * (range, exponents ea and eb), scale_a and scale_b at their places. */
cudaError_t jd_w60_fill(uint8_t *in, int M, int N, int K, unsigned long long seed_a, unsigned long long seed_b,
                        int range, int ea, int eb, float sa, float sb);
/* The fill's integers themselves (v, not codes), n of them, on stream. */
cudaError_t jd_w60_ints(int8_t *v, size_t n, unsigned long long seed, int range, cudaStream_t stream);
/* Every output of D (M x N BF16, ldd N) against s P, P the exact sum of
 * av's row i times bv's row j (M, N multiples of 64, K of 32), within
 * test_week60.c's tolerance (its out_ok, with ref_dot's allowance for the
 * accumulation counted in the fill's units: s is scale_a scale_b 2^(ea + eb)).
 * bad[0] the wrong outputs, bad[1] the first one's index (i N + j); zeroed
 * here first. On stream. */
cudaError_t jd_w60_check(const int8_t *av, const int8_t *bv, const uint16_t *D, int M, int N, int K, double s,
                         unsigned long long *bad, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
