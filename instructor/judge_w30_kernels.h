/* judge_w30_kernels.h — week 30's judge's own kernel (judge_w30_kernels.cu),
 * linked into judge-w30 alone. */
#ifndef JUDGE_W30_KERNELS_H
#define JUDGE_W30_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The expected values of a timed softmax's look: out[j] (j < npos, device
 * doubles) = exp(x[i] - m) / sum_row exp(x - m), in double, for i = idx[j]
 * (device), x[k] = wb_hash_uniform_f32(seed, k, lo, hi), rows of cols
 * floats, m the max of i's row. On stream st, not waited for. */
cudaError_t jd_w30_softmax_at(const unsigned long long *idx, int npos, int cols, unsigned long long seed, float lo,
                              float hi, double *out, cudaStream_t st);

#ifdef __cplusplus
}
#endif
#endif
