/* polyt.h — week 11: a polynomial of every element, written transposed. */
#ifndef POLYT_H
#define POLYT_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define POLYT_TERMS 16 /* degree 15 */

/* in is rows x cols, row-major; out is cols x rows, row-major:
 *   out[c * rows + r] = p(in[r * cols + c]),  p(x) = sum_j coef[j] x^j
 * coef is a host array of POLYT_TERMS floats; in and out are device
 * pointers; nothing past out[rows * cols - 1] may be written. Launches on the
 * default stream; returns the launch's error. */
cudaError_t polyt(const float *in, float *out, int rows, int cols, const float *coef);

/* Given (support/yard_slow.cu): correct, and slow in every way ncu can show. */
cudaError_t yard_polyt_given(const float *in, float *out, int rows, int cols, const float *coef);

#ifdef __cplusplus
}
#endif
#endif
