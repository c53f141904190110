/* ln_dgb.h — week 32: the parameter gradients of LayerNorm, dgamma and
 * dbeta, on the device.
 *
 *     dgamma[j] = sum_i dy[i][j] * (x[i][j] - mean[i]) * rstd[i]
 *     dbeta[j]  = sum_i dy[i][j]
 * Column sums over all rows: a reduction across rows, for every column.
 * Yours in two stages: partial sums of row chunks into a workspace, then a
 * second kernel that adds each column's partials, always in the same order,
 * so that two runs on the same inputs give the same bits. */
#ifndef LN_DGB_H
#define LN_DGB_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The workspace ln_dgb_backward needs for this shape, in bytes (0 when it
 * needs none). It may depend on rows and cols only, never on the device:
 * the same shape gets the same partials on any GPU. */
size_t ln_dgb_workspace_bytes(int rows, int cols);

/* x, dy: rows x cols, row-major and contiguous; mean, rstd: rows; dgamma,
 * dbeta: cols; workspace: ln_dgb_workspace_bytes(rows, cols) bytes from
 * cudaMalloc (256-byte aligned), which the call may overwrite. Device
 * pointers; x, dy, mean, rstd, dgamma and dbeta of any float alignment.
 * Deterministic: the same inputs give the same bits, run after run.
 * rows <= 0 writes dgamma = dbeta = 0; cols <= 0 does nothing. A NaN in
 * dy[i][j] makes dgamma[j] and dbeta[j] NaN. Default stream, no waiting;
 * returns the first launch error (cudaSuccess if none). */
cudaError_t ln_dgb_backward(const float *x, const float *dy, const float *mean, const float *rstd,
                            float *dgamma, float *dbeta, void *workspace, int rows, int cols);

#ifdef __cplusplus
}
#endif
#endif
