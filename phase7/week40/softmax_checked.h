/* softmax_checked.h — week 40: week 39's row softmax behind a C API that
 * refuses what it cannot do.
 *
 * y[r][j] = exp(x[r][j] - m) / sum_k exp(x[r][k] - m) over each row of a
 * rows x cols, row-major, contiguous x, in FP32, FP16 or BF16 storage with
 * float arithmetic (softmax_ext.h of week 39 says the rest: NaN and +Inf rows
 * are NaN, -Inf elements give 0).
 *
 * Contract: returns cudaErrorInvalidValue, launching nothing, when
 *   - rows < 0 or cols < 0, or rows > 2^31 - 1 (one block a row);
 *   - dtype is not one of the three;
 *   - x or y is NULL while rows * cols > 0.
 * rows == 0 or cols == 0 (with valid arguments otherwise) does nothing and
 * returns cudaSuccess. y == x (in place) is allowed: a block reads its whole
 * row before it writes. The kernel runs on `stream`; the return value is the
 * launch's error. */
#ifndef SOFTMAX_CHECKED_H
#define SOFTMAX_CHECKED_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SMC_F32 = 0, SMC_F16 = 1, SMC_BF16 = 2 } smc_dtype;

cudaError_t softmax_checked(const void *x, void *y, long long rows, long long cols, smc_dtype dtype,
                            cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
