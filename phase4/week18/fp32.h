/* fp32.h — week 18: one layer of the MLP in FP32, bias and ReLU fused, and
 * the softmax/argmax that turns logits into a class. */
#ifndef FP32_H
#define FP32_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[r][o] = act(sum_k x[r][k] W[o][k] + b[o]) for r < batch, o < out:
 * x is batch x in, W is out x in (a row per output, as the model file keeps
 * it), b has out floats, y is batch x out, all row-major FP32 device arrays
 * (any float alignment). act is ReLU (v < 0 ? 0 : v, so NaN stays NaN) when
 * relu != 0, nothing otherwise. Any batch >= 0, in >= 1, out >= 1; nothing
 * outside y[0 .. batch*out) is written. Default stream, no wait; returns
 * the launch's error (cudaErrorInvalidValue for a negative or zero size). */
cudaError_t fp32_linear(const float *x, const float *W, const float *b, float *y, int batch, int in, int out,
                        int relu);

/* For each row r < batch of logits (batch x classes, row-major):
 * probs[r][c] = exp(l[r][c] - max) / sum_c exp(l[r][c] - max) (probs may be
 * NULL: not written) and pred[r] = the first c where l[r][c] is largest.
 * A row holding a NaN gives NaN probabilities and pred -1. -Inf is a
 * logit like any other (probability 0) as long as the row has a finite one;
 * +Inf is not defined. Any batch >= 0, classes >= 1. Default stream, no
 * wait; returns the launch's error. */
cudaError_t fp32_softmax_argmax(const float *logits, float *probs, int *pred, int batch, int classes);

#ifdef __cplusplus
}
#endif
#endif
