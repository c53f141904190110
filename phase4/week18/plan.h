/* plan.h — week 18: the whole network on the device, through one memory
 * plan: two ping-pong activation buffers serve every layer.
 *
 * Layer 0 reads the input x and writes buffer A; layer 1 reads A and writes
 * B; layer 2 reads B and writes A; ...; the last layer writes the logits,
 * which belong to the caller. A buffer must hold the widest hidden layer for
 * the whole batch, so the plan's peak is
 *
 *   2 * batch * max(dims[1], ..., dims[L-1]) * sizeof(float) bytes
 *
 * (0 for a one-layer model: no hidden layer). For the shipped model
 * (64-128-64-10) that is 1024 bytes a sample: 64 MiB at a batch of 65536.
 * Nothing is allocated per layer or per call: the caller allocates the
 * workspace once, at the plan's size for the largest batch it will run. */
#ifndef PLAN_H
#define PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "model_io.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MLP_FP32 = 0, MLP_FP16 = 1, MLP_INT8 = 2 };

/* The model on the device, in the form each precision reads (device
 * pointers; a precision's arrays may be NULL when it is not used). */
typedef struct {
    int             n_layers;
    int             dims[MLP_MAX_LAYERS + 1];
    const float    *W32[MLP_MAX_LAYERS];   /* FP32: dims[l+1] x dims[l] */
    const uint16_t *W16[MLP_MAX_LAYERS];   /* FP16: the same, as half bits */
    const int8_t   *W8[MLP_MAX_LAYERS];    /* INT8: dims[l+1] x I8_LD(dims[l]) (int8.h) */
    const float    *sw8[MLP_MAX_LAYERS];   /* INT8: dims[l+1] per-output-channel scales */
    const float    *b[MLP_MAX_LAYERS];     /* biases, FP32, every precision */
} mlp_dev;

/* The plan's workspace in bytes for `batch` samples (the formula above).
 * Host function: no CUDA call. 0 for batch <= 0 or n_layers <= 1. */
size_t plan_mlp_bytes(const int *dims, int n_layers, int batch);

/* The forward pass of `batch` samples x (batch x dims[0], device) in
 * precision prec (MLP_FP32, MLP_FP16 or MLP_INT8): logits (batch x
 * dims[L]) and pred (batch ints, fp32_softmax_argmax's rule), both device arrays,
 * every hidden activation in work (device, work_bytes bytes) as the plan
 * says and nowhere else. Returns cudaErrorInvalidValue, launching nothing,
 * when work_bytes < plan_mlp_bytes(dims, L, batch) or prec is unknown;
 * batch 0 launches nothing. Default stream, no wait; the first error. */
cudaError_t plan_mlp_forward(const mlp_dev *m, int prec, const float *x, int batch, float *logits, int *pred,
                             void *work, size_t work_bytes);

#ifdef __cplusplus
}
#endif
#endif
