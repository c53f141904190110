/* w4a16_decode.cu — week 58: y = x dequant(W) for M <= 16 rows of x, the
 * decode step of a language model. The packed weights are read once, 16
 * bytes a load, and every weight serves all M rows: at the copy's speed the
 * kernel is done (the README's byte count).
 *
 * At M = 16 the arithmetic (16 multiply-adds a weight) is more than the FP32
 * CUDA cores can do at the speed the weights arrive, so the rows go through
 * the tensor cores (mma.sync.m16n8k16), the weights dequantised in registers
 * (the 0x6400 trick, README) as one operand and x as the other. Neither
 * needs a trip through shared memory in W's order, because a dot product
 * does not care in which order k runs: the k-slots of an mma are mapped onto
 * the nibbles a thread already holds, and x is paired the same way. Where
 * the column tiles are too few to fill the GPU, the groups are split over
 * blocks too (split-K): each block writes FP32 partial sums, and the last
 * block of a column tile to finish (week 08's ticket) adds them in order and
 * writes y.
 *
 * Two arrangements, both in the README. The first (its Background, and the
 * shape the TODO below suggests): x is the A operand (rows past M zero), the
 * weights B; a block of 8 warps covers 256 columns, each thread loading one
 * uint4 of a word-row for every 32 k, the next group's words loaded before
 * this group's are used. The reference, since step 9 of the README's story,
 * swaps the operands: the weights are A (16 columns x 16 k, a thread's four
 * words rows g and g + 8 of two A tiles) and x is B (16 k x 8 rows), so at
 * M <= 8 one mma does the work of two and each thread ends with its own
 * columns; x is staged once a block in shared memory, already in the B
 * fragments' order, and read with ldmatrix; the scale multiplies each
 * group's FP32 sums, not each weight; blocks of 16 warps cover 512 columns,
 * one block an SM. The story says what each step gained, and what was tried
 * and lost. */
#include <string.h>
#include <cuda_fp16.h>
#include "w4a16_decode.h"

#define DEC_THREADS 256 /* the first arrangement's block: 8 warps */
#define DEC_COLS 256 /* its columns a block: 8 warps x 32 */
#define DEC_GROUP 128
#define DEC_XS 4           /* x chunks in a shared ring (the README's step 5, variant 0) */
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
