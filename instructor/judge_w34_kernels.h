/* judge_w34_kernels.h — week 34's judge kernel (judge_w34_kernels.cu),
 * linked into judge-w34 alone. */
#ifndef JUDGE_W34_KERNELS_H
#define JUDGE_W34_KERNELS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every element of P (rows x L floats, device) against the row softmax of x
 * (rows x L doubles, device: the scores the judge wrote from their seed,
 * widened; jd_hash_fill_f64) in double, at test_week34.c's softmax_ref
 * tolerance: 1e-12 + ref 2^-24 (16 + 2 |x - max| + L), a finite value where
 * a number is due; -inf entries and rows of nothing but -inf exactly 0, a
 * row holding a NaN all NaN. bad[0]: the wrong elements, bad[1]: the first
 * (reset here). On stream s, not waited for. */
cudaError_t jd_w34_softmax_check_f32(const float *P, const double *x, size_t rows, int L, unsigned long long *bad,
                                     cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
