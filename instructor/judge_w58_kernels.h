/* judge_w58_kernels.h — week 58's judge's own kernels (judge_w58_kernels.cu),
 * linked into judge-w58 alone: the timed decode's inputs made from a seed,
 * the exact output of those inputs, its check of every element of a timed
 * output and its values at the look's positions.
 *
 * The timed inputs (one buffer: x | wq | scales | zeros, judge_w58.h's w58_timed_layout)
 * are a pure function of the rep's seed: x small integers -3 .. 3 (FP16),
 * the words random bits, each scale 2^-8 or 2^-7, each zero an integer
 * 0 .. 15. Every product x (q - z) s is then a multiple of 2^-8 and every
 * partial sum at K = 16384 below 2^21 of those units, exact in FP32 in any
 * order: y is the exact sum rounded to FP16 (nearest even) once, whatever
 * the kernel's order of accumulation, so outputs are compared bit for bit. */
#ifndef JUDGE_W58_KERNELS_H
#define JUDGE_W58_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "judge_w58.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rep's input from seed into in (device, laid out as w58_timed_layout). */
cudaError_t jd_w58_fill(unsigned char *in, int M, int N, int K, unsigned long long seed, cudaStream_t st);

/* Every element of y (M x N halves) against the exact output of seed's
 * inputs, bit for bit (an output of -0 for +0 passes). bad[0]: the wrong
 * elements, bad[1]: the first (set here before the launch). */
cudaError_t jd_w58_check(const uint16_t *y, int M, int N, int K, unsigned long long seed, unsigned long long *bad,
                         cudaStream_t st);

/* The exact output at npos 4-byte words idx[] of y (its FP16 pairs): the
 * word's bits (element 2w + 1 above element 2w) as a float; out[j] for idx[j]. */
cudaError_t jd_w58_at(int M, int N, int K, unsigned long long seed, const unsigned long long *idx, int npos,
                      float *out, cudaStream_t st);

/* The same layer as jd_w58_fill's for cuBLAS: x (M x K halves) at in, then
 * dequant(W) dense (K x N halves, row-major) at w58_dense_at(M, K). */
static inline size_t w58_dense_at(size_t M, size_t K) { return (M * K * 2 + 255) & ~(size_t)255; }
cudaError_t jd_w58_fill_dense(unsigned char *in, int M, int N, int K, unsigned long long seed, cudaStream_t st);

/* A layer of the test's kind at the same places (x uniform in [-1, 1], the
 * dequantised weights of random words, scales in [2^-9, 2^-6], integer
 * zeros): not exact; what the judge times cuBLAS on, since cuBLAS's FP16
 * GEMM ran 9 % faster on the exact layer's small integers than on these on
 * an H200 while the week's kernel ran within 1 % on both. */
cudaError_t jd_w58_fill_dense_test(unsigned char *in, int M, int N, int K, unsigned long long seed, cudaStream_t st);

/* y against ref (n halves each) bit for bit (+0 and -0 alike): bad[0] the
 * wrong elements, bad[1] the first (set here before the launch). */
cudaError_t jd_w58_same(const uint16_t *y, const uint16_t *ref, size_t n, unsigned long long *bad, cudaStream_t st);

#ifdef __cplusplus
}
#endif
#endif
