/* ln_bwd.h — week 42: the LayerNorm backward behind the autograd Function,
 * in float and in double (torch.autograd.gradcheck runs in double).
 *
 * For every row i of x (rows x cols, N = cols), with the forward's saved
 * mean[i] and rstd[i], xhat_j = (x[i][j] - mean[i]) * rstd[i] and
 * g_j = dy[i][j] * weight[j]:
 *     dx[i][j]   = rstd[i] * (g_j - (1/N) sum_k g_k - xhat_j (1/N) sum_k g_k xhat_k)
 *     dweight[j] = sum_i dy[i][j] * xhat_ij          (a sum down the rows)
 *     dbias[j]   = sum_i dy[i][j]
 *
 * Contract (both types): device pointers, row-major and contiguous, of any
 * element alignment; workspace is ln_bwd_workspace_bytes(rows, cols,
 * sizeof(T)) bytes of device memory (256-byte aligned, from cudaMalloc or
 * torch), which the call may overwrite; it depends on the shape only.
 * Deterministic: the same inputs give the same bits, run after run (no
 * atomics in the column sums). rows == 0 writes dweight = dbias = 0 (and no
 * dx); cols == 0 does nothing; rows < 0 or cols < 0 return
 * cudaErrorInvalidValue and write nothing. A NaN in a row of dy makes that
 * row of dx NaN and the dweight/dbias of its column NaN. Default stream, no
 * waiting; returns the first launch error.
 *
 * ln_bwd_fwd_f32 / _f64 (given) are the forward for this week: a plain kernel,
 * one block a row, in both types, with week 41's contract (ln_fwd.h there);
 * week 41's fast kernel is your own and stays in week 41. */
#ifndef LN_BWD_H
#define LN_BWD_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

size_t ln_bwd_workspace_bytes(int rows, int cols, size_t elem_bytes);

cudaError_t ln_bwd_f32(const float *x, const float *dy, const float *weight, const float *mean, const float *rstd,
                       float *dx, float *dweight, float *dbias, void *workspace, int rows, int cols);
cudaError_t ln_bwd_f64(const double *x, const double *dy, const double *weight, const double *mean,
                       const double *rstd, double *dx, double *dweight, double *dbias, void *workspace, int rows,
                       int cols);

cudaError_t ln_bwd_fwd_f32(const float *x, const float *weight, const float *bias, float *y, float *mean, float *rstd,
                           int rows, int cols, float eps);
cudaError_t ln_bwd_fwd_f64(const double *x, const double *weight, const double *bias, double *y, double *mean,
                           double *rstd, int rows, int cols, double eps);

#ifdef __cplusplus
}
#endif
#endif
