/* split.cu — week 36, exercise 3: the softmax split along the keys.
 *
 * For a few long rows (decoding: one query a head, a long key cache) one
 * block a row leaves most SMs idle. Here a block owns a chunk of
 * SPLIT_CHUNK keys of one row, in two kernels:
 *
 *   split_stats: the chunk's (max, sum of exp(z - max)), online, 8 loads in
 *                flight per thread, merged over the block; one pair to tmp.
 *   split_norm:  every block of a row merges the row's pairs (a few hundred
 *                at most, from L2) in the same order, so all agree on the
 *                row's (M, S); then it writes its chunk of exp(z - M) / S.
 *
 * 12 bytes a score (S twice, P once) against the fused kernel's 8, but
 * batch * rows * chunks blocks: the whole machine works. */
#include <math.h>
#include <stddef.h>
#include "split.h"

/* TODO: two kernels of 256-thread blocks, block b owning chunk b % chunks
 * (SPLIT_CHUNK keys) of row b / chunks, with chunks = ceil(cols /
 * SPLIT_CHUNK):
 *   stats:     the chunk's max m and sum s of exp(z - m) over its kept keys
 *              (smx.h: z, the mask), reduced over the block, written to tmp;
 *   normalise: merge the row's pairs (M = max m, S = sum s exp(m - M)),
 *              then write the chunk's exp(z - M) / S (0 for the whole row
 *              when M is -Inf).
 * A chunk with nothing kept has m = -Inf and s = 0: merging it must give
 * no NaN (-Inf - -Inf is NaN). */

size_t split_smx_tmp_bytes(int batch, int rows, int cols)
{
    /* TODO: one (max, sum) pair of floats per chunk of every row; 0 when
     * there is nothing to do. */
    (void)batch, (void)rows, (void)cols;
    return 0;
}

cudaError_t split_smx(const float *S, float *P, int batch, int rows, int cols, float scale, int causal, void *tmp)
{
    /* TODO: nothing to do for an empty shape; otherwise launch stats, then
     * normalise (the same stream orders them), and return the first error. */
    (void)S, (void)P, (void)batch, (void)rows, (void)cols, (void)scale, (void)causal, (void)tmp;
    return cudaSuccess;
}
