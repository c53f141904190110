/* judge_w37_kernels.h — week 37's judge kernels (judge_w37_kernels.cu),
 * linked into judge-w37 alone: the double reference's softmax between the
 * judge's two cublasDgemm products, and the look's gather. */
#ifndef JUDGE_W37_KERNELS_H
#define JUDGE_W37_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rows rows of scaled logits in double (sc, row i at sc + i * kv), row i
 * the query r0 + i of its head: the keys it sees are j < kv, or causal
 * j <= r0 + i (kv covers them). Each row becomes P in place, exp(s - m) / l
 * with m the row's largest logit (fmax: a NaN logit is skipped for the max
 * and makes the row NaN through exp) and l the sum of exp(s - m); keys it
 * does not see become 0. lse[i] = m + log(l). On stream st, not waited for. */
cudaError_t jd_w37_softmax_f64(double *sc, int rows, int kv, int r0, int causal, double *lse, cudaStream_t st);

/* out[j] = idx[j] < n ? o[idx[j]] : lse[idx[j] - n], j < m (the look's
 * expected values of an output that is O, n floats, then lse). On stream
 * st, not waited for. */
cudaError_t jd_w37_gather_f64(const double *o, size_t n, const double *lse, const unsigned long long *idx, int m,
                              double *out, cudaStream_t st);

#ifdef __cplusplus
}
#endif
#endif
