/* yard_lt_layer.h — week 18, given (support/yard_lt_layer.cu): the yardstick
 * cuBLASLt of w18.layer-speed and w18.bf16-speed, the library's own fused
 * layer, on fp32_linear's layout: y (batch x out) = ReLU(x (batch x in) W^T
 * + b), row-major, the bias and the ReLU in cuBLASLt's epilogue
 * (CUBLASLT_EPILOGUE_RELU_BIAS). In three types:
 *   YARD_LT_F32   x, W, b, y FP32; FP32 matmul (CUBLAS_COMPUTE_32F: no TF32)
 *   YARD_LT_BF16  x, W bfloat16 bits; b, y FP32; FP32 accumulation
 *                 (CUBLAS_COMPUTE_32F), the tensor cores
 *   YARD_LT_I8    x, W int8, y int32: the integer GEMM alone (CUBLAS_COMPUTE_32I,
 *                 the tensor cores' IMMA), no bias, no ReLU, b unused: cuBLASLt
 *                 has no float epilogue for an int32 output. Row-major x and W
 *                 are cuBLASLt's "TN" case, the one its IMMA kernels take in
 *                 the ordinary layout; in must be a multiple of 4. */
#ifndef W18_YARD_LT_LAYER_H
#define W18_YARD_LT_LAYER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yard_lt_layer yard_lt_layer;
typedef enum { YARD_LT_F32 = 0, YARD_LT_BF16 = 1, YARD_LT_I8 = 2 } yard_lt_type;

/* Describe the layer on these device arrays and pick cuBLASLt's first
 * heuristic algorithm (32 MiB of workspace). NULL, with why, on failure. */
yard_lt_layer *yard_lt_layer_open(const float *x, const float *W, const float *b, float *y, int batch, int in,
                                  int out, char *why, size_t why_size);
/* The same in another type (above): x, W and y of that type's elements. */
yard_lt_layer *yard_lt_layer_open_as(yard_lt_type type, const void *x, const void *W, const float *b, void *y,
                                     int batch, int in, int out, char *why, size_t why_size);
/* Enqueue the layer on the default stream; 0, or -1 with why. */
int yard_lt_layer_run(yard_lt_layer *p, char *why, size_t why_size);
void yard_lt_layer_close(yard_lt_layer *p);

#ifdef __cplusplus
}
#endif
#endif
