/* yard_sdpa_cudnn.h — the yardstick of weeks 38 and 62 (w38.fwd-speed,
 * w62.fwd-speed): cuDNN's fused attention (SDPA) forward, built with the cuDNN
 * frontend's graph API, cuDNN loaded at run time. Phase 6 code that needs the
 * frontend's headers (phaseP/common/NAME/: the top Makefile's rule). */
#ifndef PHASE6_YARD_SDPA_CUDNN_H
#define PHASE6_YARD_SDPA_CUDNN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The same operation as flash_attn_fwd (flash_attn.h), same layout
 * ([B][H][S][D] bf16), same mask (causal: key j > query i masked), on the
 * default stream without waiting. The first call for a shape builds and
 * caches its cuDNN graph (that takes up to seconds); later calls only enqueue
 * the execution. Returns 1 when the work was enqueued, 0 when cuDNN cannot do
 * it on this machine (not loadable, no engine for the shape, a frontend
 * error), with the reason in why. */
int yard_sdpa_cudnn_fwd(const uint16_t *Q, const uint16_t *K, const uint16_t *V, uint16_t *O, int B, int H, int S,
                        int D, int causal, float scale, char *why, size_t why_size);

/* Build (or find) the graph for a shape without running it: 1, or 0 and why. */
int yard_sdpa_cudnn_prepare(int B, int H, int S, int D, int causal, float scale, char *why, size_t why_size);

/* Free the cached graphs, their workspaces and the cuDNN handle. */
void yard_sdpa_cudnn_release(void);

#ifdef __cplusplus
}
#endif
#endif
