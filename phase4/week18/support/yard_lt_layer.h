/* yard_lt_layer.h — week 18, given (support/yard_lt_layer.cu): the yardstick
 * cuBLASLt of w18.layer-speed, the library's own fused layer. cuBLASLt's
 * FP32 matmul (CUBLAS_COMPUTE_32F: no TF32) with the bias and the ReLU in
 * its epilogue (CUBLASLT_EPILOGUE_RELU_BIAS), on fp32_linear's layout:
 * y (batch x out) = ReLU(x (batch x in) W^T + b), row-major. */
#ifndef W18_YARD_LT_LAYER_H
#define W18_YARD_LT_LAYER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct yard_lt_layer yard_lt_layer;

/* Describe the layer on these device arrays and pick cuBLASLt's first
 * heuristic algorithm (32 MiB of workspace). NULL, with why, on failure. */
yard_lt_layer *yard_lt_layer_open(const float *x, const float *W, const float *b, float *y, int batch, int in,
                                  int out, char *why, size_t why_size);
/* Enqueue the layer on the default stream; 0, or -1 with why. */
int yard_lt_layer_run(yard_lt_layer *p, char *why, size_t why_size);
void yard_lt_layer_close(yard_lt_layer *p);

#ifdef __cplusplus
}
#endif
#endif
