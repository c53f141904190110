/* momentum.h — week 51, exercise 1: one optimizer step, op by op.
 *
 * A model's parameters are many tensors, most of them small (biases, norm
 * weights). Momentum SGD updates each with two element-wise ops, the way a
 * framework runs them one kernel at a time:
 *     v = mu v + g        (k_momentum)
 *     p = p - lr v        (k_apply)
 * With dozens of tensors a step is a hundred tiny kernels: the GPU spends
 * the step waiting for launches, which is what a CUDA graph (exercise 2)
 * removes. */
#ifndef MOMENTUM_H
#define MOMENTUM_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The parameter set: nt tensors; tensor t has len[t] floats (0 allowed) at
 * the device pointers p[t], g[t], v[t]. The arrays of pointers are on the
 * host. */
typedef struct {
    int          nt;
    float      **p;
    float      **g;
    float      **v;
    const int   *len;
} opt_set;

/* Yours: the two kernels for one tensor of n floats on stream s, in that
 * order (nothing is launched for n == 0); the launch error, if any. */
cudaError_t momentum_tensor(float *p, const float *g, float *v, int n, float lr, float mu, cudaStream_t s);

/* Yours: one step of the whole set, tensor after tensor, on stream s. */
cudaError_t momentum_step(const opt_set *set, float lr, float mu, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
