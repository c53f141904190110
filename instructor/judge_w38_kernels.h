/* judge_w38_kernels.h — week 38's judge's own kernels (judge_w38_kernels.cu),
 * linked into judge-w38 alone: the bf16 rounding of the timed inputs, the
 * attention reference in double on the GPU (one warp a query row), its
 * check of every element of O and lse, and its values at the look's
 * positions. */
#ifndef JUDGE_W38_KERNELS_H
#define JUDGE_W38_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* h[i] = f[i] rounded to bf16, to nearest even (finite values). */
cudaError_t jd_w38_to_bf16(const float *f, uint16_t *h, size_t n, cudaStream_t st);

/* Every row of O (bf16, B H S D) and, where lse is not NULL, of lse (B H S
 * floats) against softmax(scale Q K^T [causal]) V and m + log(l) in double
 * from Q, K and V (bf16, B H S D each, device memory the runner cannot
 * reach): |got - ref| <= atol + rtol |ref| for O, latol + lrtol |ref| for
 * lse, NaN never passing. bad[0]: the wrong elements, bad[1]: the first, as
 * an index into O's n = B H S D elements, then n + row for lse (the words
 * are set here before the launch). D is 64 or 128. */
cudaError_t jd_w38_attn_check(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const uint16_t *O,
                              const float *lse, int BH, int S, int D, int causal, double scale, double atol,
                              double rtol, double latol, double lrtol, unsigned long long *bad, cudaStream_t st);

/* The reference at npos positions idx[] of the output words of the timed
 * call (O's bf16 pairs, n / 2 words, then lse, one float a word): for a
 * word of O, the value of its second element (the upper half of the word,
 * which read as a float is that bf16 and a few low bits more); for a word
 * of lse, the row's lse. out[j] for idx[j]. */
cudaError_t jd_w38_attn_at(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const unsigned long long *idx,
                           int npos, int BH, int S, int D, int causal, double scale, float *out, cudaStream_t st);

#ifdef __cplusplus
}
#endif
#endif
