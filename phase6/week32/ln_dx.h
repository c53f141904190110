/* ln_dx.h — week 32: the input gradient of LayerNorm, dx, on the device.
 *
 * For every row i, with N = cols, xhat_j = (x[i][j] - mean[i]) * rstd[i]
 * and g_j = dy[i][j] * gamma[j]:
 *     dx[i][j] = rstd[i] * (g_j - (1/N) sum_k g_k - xhat_j * (1/N) sum_k g_k xhat_k)
 * (ln_host.h has the forward this differentiates). Two sums over the row,
 * then an element-wise pass: a row reduction like week 15's softmax. */
#ifndef LN_DX_H
#define LN_DX_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x, dy, dx: rows x cols, row-major and contiguous; gamma: cols; mean,
 * rstd: rows (as the forward saved them). Device pointers of any float
 * alignment. A NaN in dy makes its whole row of dx NaN (it is in both sums).
 * rows or cols <= 0 does nothing. Launches on the default stream without
 * waiting; returns the launch's error (cudaSuccess if none). */
cudaError_t ln_dx_backward(const float *x, const float *dy, const float *gamma, const float *mean,
                           const float *rstd, float *dx, int rows, int cols);

#ifdef __cplusplus
}
#endif
#endif
