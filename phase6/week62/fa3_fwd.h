/* fa3_fwd.h — week 62: an attention forward built the Hopper way (TMA, wgmma,
 * a producer warp and two consumer warpgroups): FlashAttention-3's structure. */
#ifndef FA3_FWD_H
#define FA3_FWD_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* O = softmax(scale * Q K^T [+ causal mask]) V for every (batch, head), and
 * the log-sum-exp of every query row: week 38's operation and contract.
 *
 * Q, K, V and O are [B][H][S][D] arrays of bfloat16 (their bit patterns, as
 * uint16_t), rows of D contiguous, on the device, each pointer 16-byte
 * aligned. D is 128 (the one head size this kernel is built for; any other
 * is refused). Queries and keys have the same length S, any S >= 1 (tails
 * of the 128-row tiles are masked). causal != 0 masks key j for query i
 * when j > i. scale > 0 and finite. Scores, softmax and sums are FP32; P is
 * rounded to bf16 for the P V product; O is rounded to bf16.
 *
 * lse: a [B][H][S] array of FP32 on the device (4-byte aligned), required:
 * lse[i] = m_i + log(l_i) in natural log, m_i = max_j s_ij, l_i = sum_j
 * exp(s_ij - m_i), s_ij = scale q_i . k_j, from the FP32 scores and sum.
 *
 * B, H or S == 0 is nothing to do. Nothing outside O[0 .. B*H*S*D) and
 * lse[0 .. B*H*S) is written. Launches on the default stream without
 * waiting and returns the first error: cudaErrorInvalidValue for D != 128, a
 * negative size, B * H above 65535 (the grid's y), a scale that is not a
 * positive finite number, a NULL or misaligned pointer. The kernel is
 * sm_90a code: it runs on a compute capability 9.0 GPU (H100, H200) only. */
cudaError_t fa3_fwd(const uint16_t *Q, const uint16_t *K, const uint16_t *V, uint16_t *O, float *lse, int B, int H,
                    int S, int D, int causal, float scale);

/* The shared-memory matrix descriptors of the kernel's wgmma operands
 * (week 54's descriptor format: start address >> 4 in bits 0-13, leading
 * byte offset >> 4 in 16-29, stride byte offset >> 4 in 32-45, base offset
 * 49-51, swizzle 62-63, 1 = 128B). A tile of 128 rows x D = 128 bf16 sits
 * in shared memory as TMA writes it with the 128B swizzle: two halves of
 * 128 rows x 64 columns (128-byte rows, 16 KiB each), columns 0-63 at
 * tile_addr, columns 64-127 at tile_addr + 16384.
 *
 *   FA3_DESC_QK: k16 step kk (0..7, columns 16kk..16kk+15) of a Q or K tile
 *     as a K-major operand (S = Q K^T: D is the K dimension): start
 *     tile_addr + 16384 (kk / 4) + 32 (kk % 4), leading byte offset 16
 *     (unused by a swizzled K-major layout, 1 by convention), stride byte
 *     offset 1024 (from one 8-row group to the next), swizzle 128B.
 *   FA3_DESC_V: k16 step kk (0..7, keys 16kk..16kk+15) of a V tile as the
 *     MN-major B operand of O += P V (the keys are K, D is N and
 *     contiguous): start tile_addr + 2048 kk (16 rows of 128 bytes), leading
 *     byte offset 16384 (from D columns 0-63 to 64-127: the next half),
 *     stride byte offset 1024 (from one 8-key group to the next), swizzle 128B.
 *
 * Base offset 0 in both (every start stays on the 1024-byte repeat of the
 * swizzle, or 32 bytes into a row of it, as week 54's slices do). 0 and
 * *desc filled; -1 and *desc untouched when desc is NULL, operand is
 * neither, kk is not 0..7, or tile_addr is not a multiple of 1024 or leaves
 * the tile's last byte at or past 2^18 (the field's range). */
enum { FA3_DESC_QK = 0, FA3_DESC_V = 1 };
int fa3_fwd_desc(int operand, uint32_t tile_addr, int kk, uint64_t *desc);

#ifdef __cplusplus
}
#endif
#endif
