/* warptile.cu — week 24, exercise 3: warp tiling.
 *
 * dbuf.cu's kernel, with the results of a thread no longer one contiguous
 * block. The 128 x 128 block tile is split among the warps, each owning a
 * WM x WN warp tile (the default: 64 x 64, 2 x 2 warps, 128 threads).
 * Inside a warp, lane (lm = lane / 8, ln = lane % 8) owns (WM/16) x (WN/32)
 * sub-tiles of 4 x 4: rows lm*4 + {0, 16, 32, ...} + 0..3 and columns
 * ln*4 + {0, 32, ...} + 0..3 of the warp tile. Why this layout:
 *   - at step k the 8 lanes of a quarter-warp read B at 8 consecutive float4
 *     (128 contiguous bytes: no bank conflict) and A at one float4 (a
 *     broadcast); in dbuf.cu the B reads are 32 bytes apart, two lanes per
 *     bank;
 *   - a warp touches a WM x WN region, so its shared-memory traffic per
 *     step is WM + WN floats for WM * WN FMAs;
 *   - C is stored as float4 rows of 8 lanes x 16 bytes: full 128-byte lines.
 * The register fragments are double-buffered as well: step k+1's values are
 * read from shared memory while step k's FMAs run.
 * The register arrays are indexed by constants only (full unrolling), so
 * acc[][] and the fragments live in registers: `make sass` shows no LDL. */
#include <stdint.h>
#include "warptile.h"

/* The configuration warptile_sgemm uses: block 128 x 128 x 8, warps 64 x 64,
 * 128 threads, 16 x 8 results per thread, up to 2 blocks per SM, blocks
 * ordered in groups of 8 block-rows (block_tile below). */
#define WT_BM 128
#define WT_BN 128
#define WT_BK 8
#define WT_WM 64
#define WT_WN 64
#define WT_MINB 2
#define WT_GROUP 8
#define WT_PAD 4

/* Given: 4 consecutive floats of a contiguous row-major matrix (rows x
 * cols) starting at (row, col). CHECKED reads them one by one, 0.0f
 * outside the matrix; otherwise one aligned float4 load. */
template <bool CHECKED>
static __device__ __forceinline__ float4 ld4(const float *__restrict__ p, int row, int col, int rows, int cols)
{
    if constexpr (!CHECKED) {
        return *reinterpret_cast<const float4 *>(p + (size_t)row * cols + col);
    } else {
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; j++) v[j] = (row < rows && col + j < cols) ? p[(size_t)row * cols + col + j] : 0.0f;
        return make_float4(v[0], v[1], v[2], v[3]);
    }
}

template <bool CHECKED>
static __device__ __forceinline__ void st4(float *__restrict__ p, int row, int col, int rows, int cols, float4 v)
{
    if constexpr (!CHECKED) {
        *reinterpret_cast<float4 *>(p + (size_t)row * cols + col) = v;
    } else {
        const float w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (row < rows && col + j < cols) p[(size_t)row * cols + col + j] = w[j];
    }
}

/* Given: the tile of C (top-left r0, c0) block blockIdx computes. Blocks
 * are launched in order of blockIdx.x first; taken row by row, the blocks
 * running at once would read all of B (64 MiB at 4096, past the 50 MB L2)
 * for a few rows of A. Numbered instead column by column inside groups of
 * WT_GROUP block-rows, the blocks in flight share a few panels of A and of
 * B, which stay in L2. */
template <int BM, int BN>
static __device__ __forceinline__ void block_tile(int &r0, int &c0)
{
    const int bid = blockIdx.y * gridDim.x + blockIdx.x, per = WT_GROUP * gridDim.x;
    const int first = (bid / per) * WT_GROUP, rows = min((int)gridDim.y - first, WT_GROUP);
    r0 = (first + (bid % per) % rows) * BM;
    c0 = ((bid % per) / rows) * BN;
}

#define WT_THREADS(BM, BN, WM, WN) (((BM) / (WM)) * ((BN) / (WN)) * 32)

/* TODO: dbuf.cu's double-buffered kernel with warp tiles. For the default
 * configuration (BM = BN = 128, BK = 8, WM = WN = 64: 4 warps, 128 threads):
 *   take the block's tile with block_tile<BM, BN>(r0, c0);
 *   warp w owns rows wm = (w / 2) * 64 .. +64, columns wn = (w % 2) * 64 .. +64;
 *   lane owns rows wm + lm + {0, 16, 32, 48} + 0..3 and columns
 *   wn + ln + {0, 32} + 0..3, with lm = (lane / 8) * 4 and ln = (lane % 8) * 4.
 * Per k: four float4 of A (As[s][k][wm + i*16 + lm]), two of B
 * (Bs[s][k][wn + j*32 + ln]), 128 FMAs. Store C with st4<CHECKED>. Write it
 * for the general template (WM/16 x WN/32 sub-tiles) to tune it. */
template <int BM, int BN, int BK, int WM, int WN, int MINB, bool CHECKED>
static __global__ void sgemm_warptile_kernel(int M, int N, int K, const float *A, const float *B, float *C)
{
}

/* Launch one configuration: the float4 path when the sizes are multiples of
 * the block tile and the pointers 16-byte aligned, the checked one if not. */
template <int BM, int BN, int BK, int WM, int WN, int MINB>
static cudaError_t launch_warptile(int M, int N, int K, const float *A, const float *B, float *C)
{
    if (M <= 0 || N <= 0) return cudaSuccess;
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    int full = M % BM == 0 && N % BN == 0 && K % BK == 0 && (((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) & 15) == 0;
    if (full) sgemm_warptile_kernel<BM, BN, BK, WM, WN, MINB, false><<<grid, WT_THREADS(BM, BN, WM, WN)>>>(M, N, K, A, B, C);
    else sgemm_warptile_kernel<BM, BN, BK, WM, WN, MINB, true><<<grid, WT_THREADS(BM, BN, WM, WN)>>>(M, N, K, A, B, C);
    return cudaGetLastError();
}

cudaError_t warptile_sgemm(int M, int N, int K, const float *A, const float *B, float *C)
{
    return launch_warptile<WT_BM, WT_BN, WT_BK, WT_WM, WT_WN, WT_MINB>(M, N, K, A, B, C);
}
