/* yard_bias_relu.h — week 18, given (support/yard_bias_relu.cu): the unfused half of
 * a layer, for the fusion benchmark. */
#ifndef W18_YARD_BIAS_RELU_H
#define W18_YARD_BIAS_RELU_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In place, y[r][c] = act(y[r][c] + b[c]) for a rows x cols row-major y
 * (act: ReLU when relu != 0). What a layer without a fused epilogue must
 * do after its GEMM: read all of y back and write it again. Default
 * stream, no wait; returns the launch's error. */
cudaError_t yard_bias_relu_pass(float *y, const float *b, int rows, int cols, int relu);

#ifdef __cplusplus
}
#endif
#endif
