/* judge_w32_kernels.h — week 32's own kernels for its judge (judge_w32.c;
 * the shared ones are judge_kernels.h's): the references of the timed
 * LayerNorm backward calls, from the judge's hashed inputs, in double, and
 * the full checks of their outputs.
 *
 * A timed call's inputs, element i of each from wb_hash_uniform_f32
 * (wb_dfill_uniform_f32's values): x[i] from sx in [-1, 1), dy[i] from sdy
 * in [-1, 1), gamma[j] from sg in [0.5, 1.5), mean[r] from sm in
 * [-0.01, 0.01), rstd[r] from sr in [1.70, 1.76) (w32_checks.h's ranges). */
#ifndef JUDGE_W32_KERNELS_H
#define JUDGE_W32_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned long long sx, sdy, sg, sm, sr;
    int                rows, cols;
} jd32_inputs;

/* For every row r: c[2r] = (1/cols) sum_j g_j and c[2r + 1] = (1/cols)
 * sum_j g_j xhat_j, g_j = dy gamma_j, xhat_j = (x - mean[r]) rstd[r], in
 * double (on stream s, not waited for). */
cudaError_t jd32_dx_rowsums(const jd32_inputs *in, double *c, cudaStream_t s);
/* Every dx[r][j] against rstd (g_j - c1 - xhat_j c2), its row's sums
 * computed afresh, within atol + rtol |ref|: bad[0] how many differ, bad[1]
 * the first (on stream s, not waited for). */
cudaError_t jd32_dx_check(const float *dx, const jd32_inputs *in, double atol, double rtol, unsigned long long *bad,
                          cudaStream_t s);
/* sums[j] = sum_r dy[r][j] (x[r][j] - mean[r]) rstd[r] (dgamma) and
 * sums[cols + j] = sum_r dy[r][j] (dbeta), in double (on stream s, not
 * waited for). */
cudaError_t jd32_dgb_colsums(const jd32_inputs *in, double *sums, cudaStream_t s);
/* Every out[k] (k < 2 cols: dgamma then dbeta) against sums[k] (device,
 * jd32_dgb_colsums's) within atol + rtol |ref|: bad as jd32_dx_check's. */
cudaError_t jd32_dgb_check(const float *out, const double *sums, int cols, double atol, double rtol,
                           unsigned long long *bad, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
