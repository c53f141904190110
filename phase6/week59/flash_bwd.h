/* flash_bwd.h — week 59: the FlashAttention-2 backward pass on the tensor cores
 * (BF16 in, FP32 accumulate). */
#ifndef FLASH_BWD_H
#define FLASH_BWD_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of device workspace flash_bwd needs for this shape (0 when B, H or
 * S is 0, or the shape is refused): the FP32 dQ accumulator and the per-row
 * vectors (D = rowsum(dO o O), the log-sum-exp in base 2), each padded to a
 * whole number of query tiles. */
size_t flash_bwd_workspace_bytes(int B, int H, int S, int D);

/* The gradients of O = softmax(scale Q K^T [+ causal mask]) V with respect to
 * Q, K and V, given dO = dL/dO:
 *     P  = exp(scale Q K^T - lse)      (recomputed tile by tile, never stored)
 *     dV = P^T dO
 *     dP = dO V^T
 *     dS = P o (dP - Drow),  Drow_i = sum_d dO_id O_id
 *     dQ = scale dS K,       dK = scale dS^T Q
 *
 * Q, K, V, O, dO and the outputs dQ, dK, dV are [B][H][S][D] bfloat16 bit
 * patterns on the device, 16-byte aligned (cudaMalloc's are); O is the
 * forward's output and lse[b][h][i] its log-sum-exp of row i (natural log,
 * scaled logits, FP32, [B][H][S]: attn_fwd_lse's, or the "stats" of cuDNN's
 * SDPA). D is 64 or 128; causal != 0 masks key j for query i when j > i, as
 * the forward did; scale > 0 is the forward's. workspace holds
 * flash_bwd_workspace_bytes(B, H, S, D) bytes, 16-byte aligned, contents
 * ignored (it is overwritten). dQ, dK and dV are rounded to bf16 once, from
 * FP32 sums (dQ from its FP32 accumulator in the workspace).
 *
 * B, H or S == 0 is nothing to do. Nothing outside dQ, dK, dV and the
 * workspace is written. Launches on the default stream without waiting and
 * returns the first error: cudaErrorInvalidValue for another D, a negative
 * size, a scale that is not a positive finite number, a NULL or misaligned
 * pointer. */
cudaError_t flash_bwd(const uint16_t *Q, const uint16_t *K, const uint16_t *V, const uint16_t *O, const uint16_t *dO,
                      const float *lse, uint16_t *dQ, uint16_t *dK, uint16_t *dV, void *workspace, int B, int H,
                      int S, int D, int causal, float scale);

#ifdef __cplusplus
}
#endif
#endif
