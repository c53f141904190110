/* smx.h — week 36: scale + mask + softmax over attention scores, in one pass.
 *
 * The scores of attention, S = Q K^T, are batch x rows x cols floats:
 * batch heads (B * H), rows queries, cols keys, row-major and contiguous.
 * Before P multiplies V, every score is scaled, masked and normalised:
 *
 *     z[b][i][j] = scale * S[b][i][j]     one float multiply, rounded once
 *                  (the reference rounds it the same way: keep the exponent's
 *                  argument z - m, do not fold log2(e) into scale, which at
 *                  |z| ~ 1e3 moves p by about 1e-3)
 *     z[b][i][j] = -Inf                   when causal and j > i + (cols - rows)
 *                  (bottom-right alignment: the last query sees every key, as
 *                  in decoding and chunked prefill; rows > cols leaves the
 *                  first rows - cols queries with no key at all)
 *     m          = max_j z[b][i][j]       (a NaN is skipped, as fmaxf does)
 *     P[b][i][j] = exp(z - m) / sum_k exp(z[b][i][k] - m)
 *
 * A row whose every z is -Inf (every key masked, or -Inf scores) has no
 * distribution: it gives zeros (as FlashAttention does). Otherwise the
 * formula's own answers hold: a NaN or +Inf among the kept z makes the whole
 * row NaN, masked positions included (0 / NaN); a NaN at a masked position is
 * masked away, never read into the row. */
#ifndef SMX_H
#define SMX_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rows of up to SMX_ONCHIP_COLS keys fit on chip (one block's registers):
 * smx_fused reads them from DRAM once. Longer rows take two passes over
 * DRAM: one for the max and the sum together (online), one to write. */
#define SMX_ONCHIP_COLS 8192

/* Yours: the whole chain, scale, mask and softmax, as one kernel. S and P
 * are device pointers of any float alignment (they may be sub-arrays);
 * nothing outside P[0 .. batch*rows*cols) is written. batch, rows or cols
 * <= 0: nothing to do. Default stream, no synchronisation; returns the
 * launch's error. */
cudaError_t smx_fused(const float *S, float *P, int batch, int rows, int cols, float scale, int causal);

/* Given (support/yard_unfused.cu), the yardstick UNFUSED: the chain as a framework
 * runs it, one operation a kernel, through T (batch*rows*cols floats):
 * T = scale * S; T masked in place; P = softmax(T). Same results. */
cudaError_t yard_smx_unfused(const float *S, float *T, float *P, int batch, int rows, int cols, float scale,
                             int causal);

#ifdef __cplusplus
}
#endif
#endif
