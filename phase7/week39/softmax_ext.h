/* softmax_ext.h — week 39: a row softmax for three storage types, behind a C API.
 *
 * x and y are rows x cols, row-major and contiguous, in the storage type
 * `dtype` names (FP32, FP16 or BF16); each row is normalised on its own:
 *
 *   y[r][j] = exp(x[r][j] - m) / sum_k exp(x[r][k] - m),  m = max_k x[r][k]
 *
 * Values are loaded, converted to float, reduced and exponentiated in float,
 * and rounded once to the storage type on the store: FP16 and BF16 lose
 * nothing but that last rounding. A row holding a NaN or a +Inf gives a row
 * of NaN, as torch.softmax does; -Inf elements give 0, and a row of -Inf
 * only gives NaN (0 / 0), as in torch.
 *
 * Contract: x and y are device pointers of rows * cols elements (y may not
 * overlap x); rows == 0 or cols == 0 does nothing and returns cudaSuccess;
 * rows < 0, cols < 0, or a dtype that is not one of the three returns
 * cudaErrorInvalidValue and launches nothing. The kernel is launched on
 * `stream` (0: the legacy default stream) without waiting; the return value
 * is the launch's error. */
#ifndef SOFTMAX_EXT_H
#define SOFTMAX_EXT_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SOFTMAX_F32 = 0, SOFTMAX_F16 = 1, SOFTMAX_BF16 = 2 } softmax_dtype;

cudaError_t softmax_ext(const void *x, void *y, long long rows, long long cols, softmax_dtype dtype,
                        cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
