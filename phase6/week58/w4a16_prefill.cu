/* w4a16_prefill.cu — week 58: y = x dequant(W) for many rows (prefill), on
 * the tensor cores, with the 4-bit weights dequantised into shared memory
 * inside the mainloop.
 *
 * Week 26's kernel with B replaced. One block of 256 threads (8 warps, 2 x 4)
 * computes a 128 x 256 tile of y; each warp 64 x 64 of it, 4 x 8 mma tiles of
 * m16n8k16, 128 FP32 accumulators a thread. K advances 64 at a time through
 * a ring of STAGES shared-memory stages filled by cp.async; a stage holds the
 * k-tile of x (128 x 64 halves, XOR-swizzled as in week 26), the packed
 * words of W (8 word-rows x 256 columns: 8 KB where FP16 would be 32) and
 * the scales and zeros of its group (one group is two k-tiles).
 *
 * The dequantised tile lives in a second, double buffer: Bh, 256 columns x
 * 64 halves, n-major (a column's 64 k contiguous, the 16-byte chunks XOR-
 * swizzled with the column's low 3 bits). While the tensor cores work on
 * k-tile kt from Bh[kt & 1], every thread dequantises one column of k-tile
 * kt + 1 into Bh[(kt + 1) & 1]: per k-step two words, 16 weights, two
 * 16-byte stores. n-major makes each word's 8 weights one contiguous chunk
 * (after a __byte_perm back into k order), and B's fragments then come from
 * ldmatrix without .trans, as K's do in attention (week 38).
 *
 * One __syncthreads a k-tile covers both rings: at the top of iteration kt,
 * tile kt + 1 has landed (cp.async.wait_group STAGES-3), Bh[kt & 1] is
 * complete, and nobody still reads the stage or Bh buffer about to be
 * overwritten. Rows past M are zero-filled by cp.async (0 source bytes),
 * columns past N likewise (q = z = s = 0 dequantise to 0); stores are
 * guarded. */
#include <string.h>
#include <cuda_fp16.h>
#include "w4a16_prefill.h"

#define BM 128
#define BN 256
#define BK 64
#define STAGES 4
#define THREADS 256
#define GROUP_M 8
#define ST_A (BM * BK * 2)       /* bytes of a stage: x's k-tile */
#define ST_P (BK / 8 * BN * 4)   /* ... the packed words */
#define ST_SZ (2 * BN * 2)       /* ... the scales, then the zeros */
#define ST_BYTES (ST_A + ST_P + ST_SZ)
#define BH_BYTES (BN * BK * 2)   /* one dequantised tile */
#define SMEM_BYTES (STAGES * ST_BYTES + 2 * BH_BYTES)

/* TODO: the prefill kernel. Suggested shape: week 26's (256 threads, a
 * 128 x 256 tile of y, warps 2 x 4 of 64 x 64, m16n8k16, a cp.async ring
 * of stages), with each stage holding x's k-tile, the k-tile's packed
 * words (8 word-rows x 256 columns) and its group's scales and zeros.
 *  1. Dequantise inside the mainloop: every thread takes one column of
 *     the next k-tile and writes its weights as FP16 into a second,
 *     double-buffered tile that the mmas read (n-major: a column's k
 *     contiguous, so that a word's 8 weights are one 16-byte store; then B
 *     comes from ldmatrix without .trans).
 *  2. One __syncthreads a k-tile is enough if the packed tile kt + 1 has
 *     landed before iteration kt (cp.async.wait_group STAGES - 3).
 *  3. Rows past M and columns past N: cp.async with 0 source bytes writes
 *     zeros; q = z = s = 0 dequantises to 0. Guard the stores. */

cudaError_t w4a16_prefill(const uint16_t *x_, const uint32_t *wq, const uint16_t *scales_, const uint16_t *zeros_,
                          uint16_t *y_, int M, int N, int K)
{
    (void)x_, (void)wq, (void)scales_, (void)zeros_, (void)y_, (void)M, (void)N, (void)K;
    return cudaSuccess;
}
