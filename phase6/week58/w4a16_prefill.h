/* w4a16_prefill.h — week 58: y = x dequant(W) for many rows of x (prefill),
 * 4-bit weights dequantised into shared memory and fed to the tensor cores. */
#ifndef W4A16_PREFILL_H
#define W4A16_PREFILL_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The same product and layout as w4a16_decode (w4a16_decode.h,
 * support/w4_quant.h), for any M >= 0: y (M x N, FP16) = x (M x K, FP16) *
 * dequant(W), FP32 accumulation. Device pointers, each 16-byte aligned; K a
 * multiple of 128, N of 8, or cudaErrorInvalidValue before anything is
 * launched. M == 0 or N == 0 writes nothing; K == 0 gives y = 0. Nothing
 * outside y[0 .. M*N) is written. Launches on the default stream without
 * waiting and returns the first error (cudaSuccess if none). */
cudaError_t w4a16_prefill(const uint16_t *x, const uint32_t *wq, const uint16_t *scales, const uint16_t *zeros,
                          uint16_t *y, int M, int N, int K);

#ifdef __cplusplus
}
#endif
#endif
