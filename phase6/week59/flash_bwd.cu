/* flash_bwd.cu — week 59: the FlashAttention-2 backward pass with BF16 mma.sync.
 *
 * Three kernels on the default stream:
 *  1. fb_prep: per query row, Drow = sum_d dO o O (FP32), lse2 = lse log2 e
 *     (so that P = 2^(s sl2 - lse2), one FFMA and one ex2), and the row of
 *     the FP32 dQ accumulator set to zero. Rows past S (up to a whole query
 *     tile) get lse2 = +inf: their P is exactly 0, no mask needed.
 *  2. fb_main: one block per 128 keys of one (batch, head), 8 warps of 16
 *     keys. K and V stay in shared memory; the block walks the query tiles
 *     (64 rows) with Q, dO, lse2 and Drow double-buffered by cp.async. A warp
 *     computes S^T = K Q^T and dP^T = dO-side V dO^T for its 16 keys (keys are
 *     the M of the mma), so P^T and dS^T come out in the accumulator layout
 *     that is the A operand of dV += P^T dO and dK += dS^T Q: both stay in
 *     registers over the whole walk. dS^T goes to shared memory (bf16) once a
 *     tile, and the block computes that tile's dQ part, dS K (BM x D), which it
 *     adds into the FP32 accumulator with vector reductions (red.v2.f32).
 *  3. fb_dq_convert: dQ = bf16(scale x accumulator).
 * dK = scale sum dS^T Q and dV are rounded to bf16 once, at the end. */
#include <math.h>
#include "flash_bwd.h"
#include "support/bf16_mma.cuh"

#define FB_BM 64      /* query rows a tile (and the padding unit of the workspace rows) */
#define FB_BN 128     /* keys a block: 8 warps of 16 */
#define FB_THREADS 256

/* The workspace: [BH][S_pad][D] FP32 dQ accumulator, then [BH][S_pad] lse2,
 * then [BH][S_pad] Drow, S_pad = S rounded up to a whole query tile. */
static size_t fb_spad(int S) { return ((size_t)S + FB_BM - 1) / FB_BM * FB_BM; }

size_t flash_bwd_workspace_bytes(int B, int H, int S, int D)
{
    if (B <= 0 || H <= 0 || S <= 0 || (D != 64 && D != 128)) return 0;
    return (size_t)B * H * fb_spad(S) * ((size_t)D + 2) * sizeof(float);
}

/* TODO: three kernels (README, "Tasks"):
 *  1. a small one: per query row, Drow = sum_d dO o O in FP32, the lse in
 *     base 2 (lse * log2 e, +INFINITY for rows past S up to the padding),
 *     and the row of the FP32 dQ accumulator set to zero (the workspace
 *     comes in full of garbage);
 *  2. the main one: a block of 8 warps per 128 keys of one (batch, head),
 *     K and V in shared memory for the whole walk over the query tiles
 *     (64 rows, Q, dO, lse2, Drow double-buffered with cp_async16). A warp
 *     owns 16 keys: S^T = K Q^T and dP^T = V dO^T by mma_bf16_16816,
 *     P^T = fast_exp2(s * sl2 - lse2) (masked: 0), dS^T = P^T o (dP^T -
 *     Drow); the accumulators of P^T and dS^T are the A operands of
 *     dV += P^T dO and dK += dS^T Q (ldmatrix_x4_trans for dO and Q);
 *     dS^T to shared memory, a barrier, then dQ += dS K for the tile,
 *     added into the accumulator with red_add_f32x2;
 *  3. dQ = bf16(scale * accumulator).
 * The helpers (swz, cp_async16, ldmatrix_x4, mma_bf16_16816, ...) are in
 * support/bf16_mma.cuh. */

cudaError_t flash_bwd(const uint16_t *Q_, const uint16_t *K_, const uint16_t *V_, const uint16_t *O_,
                      const uint16_t *dO_, const float *lse, uint16_t *dQ_, uint16_t *dK_, uint16_t *dV_,
                      void *workspace, int B, int H, int S, int D, int causal, float scale)
{
    if (B < 0 || H < 0 || S < 0 || (D != 64 && D != 128) || !(scale > 0.f) || !isfinite(scale))
        return cudaErrorInvalidValue;
    if (B == 0 || H == 0 || S == 0) return cudaSuccess;
    if (!Q_ || !K_ || !V_ || !O_ || !dO_ || !lse || !dQ_ || !dK_ || !dV_ || !workspace ||
        (((uintptr_t)Q_ | (uintptr_t)K_ | (uintptr_t)V_ | (uintptr_t)O_ | (uintptr_t)dO_ | (uintptr_t)dQ_ |
          (uintptr_t)dK_ | (uintptr_t)dV_ | (uintptr_t)workspace) &
         15) ||
        ((uintptr_t)lse & 3))
        return cudaErrorInvalidValue;
    /* TODO: pick D (64 or 128) and the mask, launch the three kernels (see above). */
    (void)workspace;
    return cudaSuccess;
}
