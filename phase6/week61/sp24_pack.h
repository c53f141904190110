/* sp24_pack.h — week 61: 2:4 structured sparsity on the CPU. Prune a dense
 * FP16 weight matrix to 2:4, compress it to its kept values and the 2-bit
 * metadata the sparse tensor cores read, and expand it back. */
#ifndef SP24_PACK_H
#define SP24_PACK_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The matrices are W, `rows` x K, row-major FP16 bits (uint16_t), host
 * memory. A group is 4 consecutive k of one row: k = 4q .. 4q+3.
 *
 * 2:4 means every group holds at most two nonzero values. A value is zero
 * when its bits without the sign are 0 (+0 and -0); its magnitude is its
 * bits without the sign, compared as integers (for finite values that is
 * |w|; Inf and NaN count as larger than any finite value).
 *
 * THE COMPRESSED FORM (sp24_pack_compress's output, sp24_gemm's input):
 *
 *   vals  FP16, rows x K/2, row-major: group q of row r keeps two positions
 *         i0 < i1 (0..3); vals[r][2q] = W[r][4q + i0], vals[r][2q+1] =
 *         W[r][4q + i1].
 *   meta  uint32, (rows/16) x (K/64) blocks of 32 words, block (b, j) at
 *         meta + (b * (K/64) + j) * 32. Word 4g + t of block (b, j)
 *         (g = 0..7, t = 0..3) holds the positions of 16 k of two rows,
 *         k = 64j + 16t .. 64j + 16t + 15:
 *           bits  0..15  row 16b + g
 *           bits 16..31  row 16b + g + 8
 *         and in each 16 bits, group u (k = 64j + 16t + 4u ..) at bits
 *         4u .. 4u+3 of that half: i0 in the lower two bits, i1 in the upper
 *         two. So the word of lane 4g + t of a warp is exactly the
 *         metadata register that thread gives mma.sp.m16n8k32 (f16): with
 *         sparsity selector 0 for k 64j .. 64j+31 (threads t = 0, 1), 1 for
 *         k 64j+32 .. 64j+63 (t = 2, 3).
 *
 * Example: row 0 of W starts 0, 0.5, 0, -2 | ...: positions 1 and 3,
 * i0 = 1, i1 = 3, nibble 0b1101 = 0xD in bits 0..3 of word 0 of block
 * (0, 0); vals[0][0] = 0.5, vals[0][1] = -2.
 *
 * Every function returns cudaSuccess, or cudaErrorInvalidValue for what it
 * refuses (then its output is unspecified). rows == 0 or K == 0 does
 * nothing. Pointers may be NULL only when there is nothing to do. */

/* Keep, in every group of wp, the two values of largest magnitude and make
 * the other two +0; ties go to the lower k (of equal magnitudes, the one
 * at the lower position is kept). wp may be w (in place). Refused: rows or
 * K < 0, K not a multiple of 4. */
cudaError_t sp24_pack_prune(const uint16_t *w, uint16_t *wp, int rows, int K);

/* Compress a 2:4 matrix wp into vals and meta (above). The kept positions
 * of a group are its nonzero ones, completed with its zero positions from
 * the lowest k up until there are two, so a group with fewer than two
 * nonzeros still gets two distinct positions (i0 < i1). Refused: rows or
 * K < 0, rows not a multiple of 16, K not a multiple of 64, a group with
 * three or four nonzero values. */
cudaError_t sp24_pack_compress(const uint16_t *wp, uint16_t *vals, uint32_t *meta, int rows, int K);

/* The inverse: w[r][4q + i0] = vals[r][2q], w[r][4q + i1] = vals[r][2q+1],
 * +0 at the two other positions. Refused: the shapes compress refuses, and
 * metadata whose positions are not i0 < i1 (0b0000, 0b0101, 0b1010, 0b1111
 * and the descending pairs). */
cudaError_t sp24_pack_decompress(const uint16_t *vals, const uint32_t *meta, uint16_t *w, int rows, int K);

#ifdef __cplusplus
}
#endif
#endif
