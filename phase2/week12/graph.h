/* graph.h — week 12: launch overhead, eager launches against a CUDA graph. */
#ifndef GRAPH_H
#define GRAPH_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Given (support/tiny.cu): one tiny kernel, d[i] += 1.0f for i < n, on
 * stream s; and (support/yard_eager.cu, the yardstick EAGER) k of them
 * launched eagerly on the default stream. */
cudaError_t tiny_add(float *d, int n, cudaStream_t s);
cudaError_t yard_tiny_eager(float *d, int n, int k);

/* Yours: capture k launches of tiny_add(d, n, ...) into a graph and
 * instantiate it in *exec (d and n are baked into the graph). */
cudaError_t graph_create(float *d, int n, int k, cudaGraphExec_t *exec);
/* Replay it once on the default stream (asynchronous). */
cudaError_t graph_launch(cudaGraphExec_t exec);
cudaError_t graph_destroy(cudaGraphExec_t exec);

#ifdef __cplusplus
}
#endif
#endif
