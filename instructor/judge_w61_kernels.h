/* judge_w61_kernels.h — week 61's judge's own kernels (judge_w61_kernels.cu,
 * linked into judge-w61 alone): the timed inputs' fill from the hidden
 * seeds (judge_w61.h's values) and the check of every timed output. */
#ifndef JUDGE_W61_KERNELS_H
#define JUDGE_W61_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The timed call's input on the default stream: x (M x K FP16) at 0 from
 * seed_x and, from seed_w, W's compressed form (vals at W61_V_AT, meta at
 * W61_E_AT: sp24_pack.h's layout) or, dense 1, W itself (N x K FP16,
 * the pruned values decompressed, at W61_V_AT: cuBLAS's input). dense 2:
 * the same places and 2:4 pattern with values of the test's kind (x
 * uniform in [-1, 1], each row of W an amplitude 1 to 2^-6 times uniform
 * values), not exact: what cuBLAS's time is taken on. */
cudaError_t jd_w61_fill(uint8_t *in, int M, int N, int K, unsigned long long seed_x, unsigned long long seed_w,
                        int dense);
/* The same values as integers (x: 8 x, W: 16 W, dense, N x K) on stream. */
cudaError_t jd_w61_ints(int8_t *xi, int8_t *wi, int M, int N, int K, unsigned long long seed_x,
                        unsigned long long seed_w, cudaStream_t stream);
/* Every output of y (M x N FP16) against the exact sum P / 128 (P =
 * sum_k xi wi) with the test's tolerance (sp_close: 2^-11 sqrt(sum (x w)^2)
 * + 2^-10 |ref| + 2^-24, a non-finite output never passes): bad[0] the
 * count wrong, bad[1] the first index. M and N multiples of 32, K of 64. */
cudaError_t jd_w61_check(const int8_t *xi, const int8_t *wi, const uint16_t *y, int M, int N, int K,
                         unsigned long long *bad, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
