/* sp24_gemm.cu — week 61: y = x W^T with W 2:4-sparse, on the sparse tensor
 * cores: mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32.
 *
 * The sparse operand of mma.sp is A, so W is A and the kernel computes
 * y^T = W x^T: an mma tile is 16 outputs n (rows of W) by 8 rows m of x,
 * over 32 k, of which W holds 16 values (its compressed row) and 2-bit
 * positions in the metadata register.
 *
 * One block of 256 threads (8 warps, 4 along n x 2 along m) computes a
 * 256 (n) x 128 (m) tile of y^T; each warp 64 x 64 of it, 4 x 8 mma tiles,
 * 128 FP32 accumulators a thread (week 26's warp tile). K advances 64 a
 * stage through a ring of STAGES shared-memory stages filled by cp.async
 * (fewer where the GPU has less shared memory a block);
 * a stage holds
 *   - W's compressed k-tile: 256 rows x 32 halves (64 bytes a row; the
 *     16-byte chunk XORed with bits 1-2 of the row, so that the 8 rows one
 *     ldmatrix phase reads fall in distinct banks),
 *   - the metadata of those rows and k: 16 blocks of 32 words, copied as
 *     they are (sp24_pack.h's layout is the registers' layout),
 *   - x's k-tile: 128 rows x 64 halves (chunk XORed with the row's low 3
 *     bits).
 * Per 32 k a warp loads 4 A fragments (ldmatrix.x4 of a 16 x 16 compressed
 * tile: the dense m16n8k16 A layout), 8 B fragments (ldmatrix.x4 of 8 rows
 * of x by 32 k, no .trans: x is k-contiguous), and issues 32 mma.sp. One
 * metadata word a thread and m16 tile serves a whole stage: threads 0, 1 of
 * each quad hold k 0..31 (sparsity selector 0), threads 2, 3 k 32..63
 * (selector 1).
 *
 * Rows of x past M and rows of W past N are read from the last valid row
 * instead (their outputs are never stored, and the metadata stays valid);
 * K is a multiple of 64, so there are no k tails. The epilogue goes through
 * shared memory: y^T's fragments are columns of y, and a transposed tile
 * lets each warp store whole 512-byte rows of y. */
#include <cuda_fp16.h>
#include "sp24_gemm.h"

#define BN 256                  /* rows of W (outputs n) a block */
#define BM 128                  /* rows of x a block */
#define BK 64                   /* k a stage */
#define STAGES 4                /* stages on a GPU with room for them (the H100: 228 KB an SM) */
#define THREADS 256
#define GROUP_M 8
#define ST_W (BN * (BK / 2) * 2) /* bytes of a stage: W's compressed k-tile */
#define ST_E (BN / 16 * 32 * 4)  /* ... its metadata */
#define ST_X (BM * BK * 2)       /* ... x's k-tile */
#define ST_BYTES (ST_W + ST_E + ST_X)
#define SMEM_BYTES (STAGES * ST_BYTES)
#define Y_LD (BN + 8)            /* halves a row of the epilogue tile (+8: no bank conflicts) */

/* TODO: the kernel. Suggested shape: week 26's warp tile (64 x 64, 4 x 8
 * mma tiles) with W as the A operand (y^T = W x^T):
 *  1. A ring of STAGES cp.async stages, each with W's compressed k-tile
 *     (BN rows x 32 halves), its metadata words (sp24_pack.h: copy them as
 *     they are) and x's k-tile (BM rows x 64 halves), swizzled so that
 *     ldmatrix is free of bank conflicts.
 *  2. Per 32 k: ldmatrix.x4 gives a 16 x 16 compressed A fragment (the
 *     dense m16n8k16 A layout) and, without .trans, an 8 x 32 B fragment
 *     of x; mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 with the
 *     metadata word and sparsity selector 0 (k 0..31 of a 64-k stage) or
 *     1 (k 32..63): one word a thread serves both.
 *  3. The accumulators are y^T: stage them through shared memory and
 *     store rows of y; rows past M and N are never stored. */

cudaError_t sp24_gemm(const uint16_t *x, const uint16_t *vals, const uint32_t *meta, uint16_t *y, int M, int N, int K)
{
    (void)x, (void)vals, (void)meta, (void)y, (void)M, (void)N, (void)K;
    return cudaSuccess;
}
