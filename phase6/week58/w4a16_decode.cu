/* w4a16_decode.cu — week 58: y = x dequant(W) for M <= 16 rows of x, the
 * decode step of a language model. The packed weights are read once, 16
 * bytes a load, and every weight serves all M rows.
 *
 * At M = 16 the arithmetic (16 multiply-adds a weight) is more than the FP32
 * CUDA cores can do at the speed the weights arrive, so the rows go through
 * the tensor cores: x is the A operand of mma.sync.m16n8k16 (rows past M are
 * zeros), the weights dequantised in registers are B. Neither needs a trip
 * through shared memory in W's order, because a dot product does not care
 * in which order k runs: the k-slots of one mma are mapped onto the nibbles a
 * thread already holds, and x is permuted the same way.
 *
 * Thread (g = lane/4, t = lane%4) of warp w loads, for every 32 rows of k,
 * one uint4: word-row 4s + t of the group (s = 0..3), columns c .. c+3 with
 * c = 32w + 4g. Each word dequantises (the 0x6400 trick, README) into four
 * half2 (q_i, q_i+4), i = 0..3: (q0,q4), (q1,q5) are the two B registers of
 * one mma, (q2,q6), (q3,q7) of a second. Column c + j is column g of the
 * j-th n8 tile. The A registers are the same pairs of x (x0,x4), (x1,x5),
 * ... of rows g and g+8, taken from shared memory and paired with __byte_perm.
 * What comes out: thread (g, t) holds rows g and g+8, columns 32w + 8t ..
 * 32w + 8t + 7 of y, one 16-byte store each.
 *
 * A block of 8 warps covers 256 columns and a range of groups; x of that
 * range goes through a ring of shared-memory chunks (one group: 16 rows x
 * 128 halves) filled by cp.async, read by all 8 warps. The next group's
 * weights are loaded into registers before this group is dequantised, so
 * a thread always has 64 bytes in flight. With few column tiles (N / 256
 * below what the GPU holds at once) the groups are split over blocks too
 * (split-K): each block writes its FP32 partial sums, and the last block of
 * a column tile to finish (week 08's ticket) adds them in order and writes
 * y. */
#include <string.h>
#include <cuda_fp16.h>
#include "w4a16_decode.h"

#define DEC_THREADS 256
#define DEC_COLS 256 /* columns a block: 8 warps x 32 */
#define DEC_GROUP 128
#define DEC_XS 4           /* x chunks in the shared ring */
#define DEC_MAX_SPLITS 32  /* at most this many blocks add into one column tile */

/* TODO: the decode kernel. One suggested shape (the README's):
 *  - a block of 8 warps covers 256 columns; thread (g = lane/4, t = lane%4)
 *    of warp w loads one uint4 of packed words (word-row 4s + t of a group,
 *    columns 32w + 4g .. +3) for every 32 k: 16-byte loads, each word read
 *    once, the next group's words loaded before this group's are used;
 *  - dequantise in registers: (w >> 4i) & 0x000f000f | 0x64006400 is
 *    half2(1024 + q_i, 1024 + q_i+4); subtract 1024 + z, multiply by s;
 *  - M <= 16 rows: the rows are the A operand of mma.sync.m16n8k16 (rows
 *    past M zero), the dequantised pairs the B operand; pair x the same way
 *    (__byte_perm) so that the k-slots of A and B match;
 *  - too few column tiles to fill the GPU: split the groups over blocks
 *    and let the last block of a tile add the FP32 partials (week 08).
 * A plain shift-and-convert, one FP32 FMA a weight and row, is correct
 * too: the README says where it stops being memory-bound. */

cudaError_t w4a16_decode(const uint16_t *x_, const uint32_t *wq, const uint16_t *scales_, const uint16_t *zeros_,
                         uint16_t *y_, int M, int N, int K)
{
    (void)x_, (void)wq, (void)scales_, (void)zeros_, (void)y_, (void)M, (void)N, (void)K;
    return cudaSuccess;
}
