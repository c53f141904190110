/* transpose.h — week 06: out = in^T, three ways. */
#ifndef TRANSPOSE_H
#define TRANSPOSE_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* in is rows x cols row-major, out is cols x rows row-major:
 * out[c * rows + r] = in[r * cols + c]. Device pointers, no overlap; nothing
 * outside out[0 .. rows*cols) is written; rows or cols 0 means no work.
 * Launch on the default stream, return the launch's error. */
cudaError_t transpose_naive(const float *in, float *out, int rows, int cols);
cudaError_t transpose_tiled(const float *in, float *out, int rows, int cols);  /* shared tile [32][32] */
cudaError_t transpose_padded(const float *in, float *out, int rows, int cols); /* shared tile [64][65], blocks of 32 x 16 threads (README: start at [32][33]) */

#ifdef __cplusplus
}
#endif
#endif
