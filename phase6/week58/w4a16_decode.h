/* w4a16_decode.h — week 58: y = x dequant(W) for a few rows of x (decode),
 * 4-bit weights, FP16 activations, FP32 accumulation, FP16 out. */
#ifndef W4A16_DECODE_H
#define W4A16_DECODE_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y (M x N) = x (M x K) * dequant(W) (K x N), row-major, the layout of
 * support/w4_quant.h: wq uint32 [K/8][N], scales and zeros FP16 [K/128][N].
 * x and y hold IEEE halves (their bit patterns, as uint16_t); the products
 * are accumulated in float and y is rounded to half once at the end.
 * Device pointers, each 16-byte aligned. 0 <= M <= 16; K >= 0 a multiple
 * of 128; N >= 0 a multiple of 8. M == 0 or N == 0 writes nothing; K == 0
 * gives y = 0. Anything else (M > 16, K or N not a multiple, a pointer not
 * 16-byte aligned) returns cudaErrorInvalidValue before anything is
 * launched. Nothing outside y[0 .. M*N) is written. Launches on the default
 * stream without waiting and returns the first error (cudaSuccess if none);
 * calls on other streams at the same time are not supported. */
cudaError_t w4a16_decode(const uint16_t *x, const uint32_t *wq, const uint16_t *scales, const uint16_t *zeros,
                         uint16_t *y, int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
