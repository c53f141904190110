/* streams.h — week 05: ordering work on two streams with an event. */
#ifndef STREAMS_H
#define STREAMS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue y[i] = x[i] * x[i] on stream a, then z[i] = y[i] + 1 on stream b,
 * which must not start before a's kernel has finished. `ev` is an event the
 * caller created for you to use. The host must not wait (no synchronise
 * call): the function returns as soon as the work is enqueued. Returns the
 * first error. */
cudaError_t two_stream_chain(const float *x, float *y, float *z, size_t n, cudaStream_t a, cudaStream_t b,
                             cudaEvent_t ev);

/* Given (support/spin.cu): a kernel on stream s that spins for about `ms`
 * milliseconds, to make a stream busy. */
cudaError_t w05_spin(cudaStream_t s, double ms);

#ifdef __cplusplus
}
#endif
#endif
