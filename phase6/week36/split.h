/* split.h — week 36: the same softmax split along the keys, for few long rows.
 *
 * Decoding attends one query (rows = 1) per head to thousands or millions of
 * keys: batch * rows is a few dozen rows. A one-kernel softmax that gives each
 * row to one block (smx_fused) then runs on a few dozen of the 132 SMs. The
 * split version cuts every row into chunks of SPLIT_CHUNK keys, one block a
 * chunk, in two kernels (the idea of Flash-Decoding):
 *
 *   1. stats:     block (row r, chunk c) computes its chunk's max m_c and
 *                 sum s_c = sum exp(z - m_c) over the kept keys, and writes
 *                 the pair to tmp;
 *   2. normalise: block (r, c) merges the row's pairs into the row's max and
 *                 sum, M = max m_c, S = sum s_c exp(m_c - M), then writes its
 *                 chunk of P = exp(z - M) / S.
 *
 * It reads S twice (12 bytes a score against smx_fused's 8), and wins anyway
 * where the rows are few and long: every SM has work.
 *
 * Semantics are smx_fused's (smx.h): the same z, mask, zeros for a row with
 * no kept score, NaN and Inf the same way. */
#ifndef SPLIT_H
#define SPLIT_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPLIT_CHUNK 16384 /* keys per block in both kernels */

/* Bytes of device scratch split_smx needs for this shape: one (max, sum)
 * pair of floats per chunk of every row, batch * rows * ceil(cols /
 * SPLIT_CHUNK) pairs (0 when there is nothing to do). A CPU function. */
size_t split_smx_tmp_bytes(int batch, int rows, int cols);

/* Yours: P = softmax(mask(scale * S)) in the two kernels above. S and P as in
 * smx_fused (any float alignment, nothing written outside P); tmp is a device
 * buffer of at least split_smx_tmp_bytes(batch, rows, cols) bytes whose
 * contents on entry mean nothing. Default stream; the launches' error. */
cudaError_t split_smx(const float *S, float *P, int batch, int rows, int cols, float scale, int causal, void *tmp);

#ifdef __cplusplus
}
#endif
#endif
