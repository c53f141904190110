/* yard_sdpa_bwd_cudnn.h — week 59's yardstick: cuDNN's fused attention (SDPA)
 * backward, built with the cuDNN frontend's graph API, cuDNN loaded at run
 * time (week 38's mechanism, with the backward graph). */
#ifndef W59_YARD_SDPA_BWD_CUDNN_H
#define W59_YARD_SDPA_BWD_CUDNN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The same operation as flash_bwd (flash_bwd.h) on the same inputs: Q, K, V,
 * O, dO and the outputs [B][H][S][D] bf16, lse [B][H][S] FP32 (natural log
 * of the scaled logits: cuDNN's "stats"), the same mask (causal: key j > query
 * i masked), on the default stream without waiting. The first call for a
 * shape builds and caches its cuDNN graph (up to seconds); later calls only
 * enqueue it. 1 when enqueued, 0 when cuDNN cannot do it here (not
 * loadable, no engine for the shape, a frontend error), with why. */
int yard_sdpa_bwd_cudnn(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const uint16_t *O,
                        const uint16_t *dO, const float *lse, uint16_t *dQ, uint16_t *dK, uint16_t *dV, int B, int H,
                        int S, int D, int causal, float scale, char *why, size_t why_size);

/* Build (or find) the graph for a shape without running it: 1, or 0 and why. */
int yard_sdpa_bwd_cudnn_prepare(int B, int H, int S, int D, int causal, float scale, char *why, size_t why_size);

/* Free the cached graphs, their workspaces and the cuDNN handle. */
void yard_sdpa_bwd_cudnn_release(void);

#ifdef __cplusplus
}
#endif
#endif
