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

//@solution
template <int BM, int BN, int BK, int WM, int WN, int MINB, bool CHECKED>
static __global__ void __launch_bounds__(WT_THREADS(BM, BN, WM, WN), MINB)
    sgemm_warptile_kernel(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
                          float *__restrict__ C)
{
    constexpr int NT = WT_THREADS(BM, BN, WM, WN);
    constexpr int WMI = WM / 16, WNI = WN / 32;   /* 4 x 4 sub-tiles per lane */
    constexpr int TM = 4 * WMI, TN = 4 * WNI;     /* results per lane */
    constexpr int LA = BM * BK / 4 / NT, LB = BK * BN / 4 / NT; /* float4 loads per thread per step */
    static_assert(WM % 16 == 0 && WN % 32 == 0 && BM % WM == 0 && BN % WN == 0, "warp tile shape");
    static_assert(LA * NT * 4 == BM * BK && LB * NT * 4 == BK * BN && BK % 4 == 0, "tile loads");
    __shared__ __align__(16) float As[2][BK][BM + WT_PAD]; /* transposed: As[k][m] */
    __shared__ __align__(16) float Bs[2][BK][BN];

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;
    const int lm = (lane >> 3) * 4, ln = (lane & 7) * 4;
    int r0, c0;
    block_tile<BM, BN>(r0, c0);
    const int nk = (K + BK - 1) / BK;

    float acc[TM][TN] = {};
    float4 a[LA], b[LB];

    auto load = [&](int k0) {
#pragma unroll
        for (int l = 0; l < LA; l++) {
            int idx = tid + l * NT, r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
            a[l] = ld4<CHECKED>(A, r0 + r, k0 + c, M, K);
        }
#pragma unroll
        for (int l = 0; l < LB; l++) {
            int idx = tid + l * NT, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
            b[l] = ld4<CHECKED>(B, k0 + r, c0 + c, K, N);
        }
    };
    auto store = [&](int s) {
#pragma unroll
        for (int l = 0; l < LA; l++) {
            int idx = tid + l * NT, r = idx / (BK / 4), c = (idx % (BK / 4)) * 4;
            As[s][c + 0][r] = a[l].x, As[s][c + 1][r] = a[l].y, As[s][c + 2][r] = a[l].z, As[s][c + 3][r] = a[l].w;
        }
#pragma unroll
        for (int l = 0; l < LB; l++) {
            int idx = tid + l * NT, r = idx / (BN / 4), c = (idx % (BN / 4)) * 4;
            *reinterpret_cast<float4 *>(&Bs[s][r][c]) = b[l];
        }
    };

    /* Register fragments, double-buffered too: while the FMAs of step k run
     * on frag[k & 1], frag[(k + 1) & 1] is read from shared memory. At the
     * last step of a tile the next tile is stored, one barrier, and its
     * step 0 is read, so the FMAs never wait for a shared-memory load. */
    float rm[2][TM], rn[2][TN];
    auto frag = [&](int buf, int s, int k) {
#pragma unroll
        for (int i = 0; i < WMI; i++) {
            float4 v = *reinterpret_cast<const float4 *>(&As[s][k][wm + i * 16 + lm]);
            rm[buf][i * 4 + 0] = v.x, rm[buf][i * 4 + 1] = v.y, rm[buf][i * 4 + 2] = v.z, rm[buf][i * 4 + 3] = v.w;
        }
#pragma unroll
        for (int j = 0; j < WNI; j++) {
            float4 v = *reinterpret_cast<const float4 *>(&Bs[s][k][wn + j * 32 + ln]);
            rn[buf][j * 4 + 0] = v.x, rn[buf][j * 4 + 1] = v.y, rn[buf][j * 4 + 2] = v.z, rn[buf][j * 4 + 3] = v.w;
        }
    };

    if (nk > 0) {
        load(0);
        store(0);
    }
    __syncthreads();
    if (nk > 0) frag(0, 0, 0);
    for (int kt = 0; kt < nk; kt++) {
        const int s = kt & 1;
        const bool more = kt + 1 < nk;
        if (more) load((kt + 1) * BK);
#pragma unroll
        for (int k = 0; k < BK; k++) {
            if (k + 1 < BK) {
                frag((k + 1) & 1, s, k + 1);
            } else if (more) {
                /* stage s ^ 1 was last read before the previous barrier */
                store(s ^ 1);
                __syncthreads();
                frag(0, s ^ 1, 0); /* BK is even: step 0 uses frag[0] */
            }
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] += rm[k & 1][i] * rn[k & 1][j];
        }
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int r = r0 + wm + (i / 4) * 16 + lm + i % 4;
#pragma unroll
        for (int j = 0; j < WNI; j++)
            st4<CHECKED>(C, r, c0 + wn + j * 32 + ln, M, N,
                         make_float4(acc[i][j * 4 + 0], acc[i][j * 4 + 1], acc[i][j * 4 + 2], acc[i][j * 4 + 3]));
    }
}
//@starter
//| /* TODO: dbuf.cu's double-buffered kernel with warp tiles. For the default
//|  * configuration (BM = BN = 128, BK = 8, WM = WN = 64: 4 warps, 128 threads):
//|  *   take the block's tile with block_tile<BM, BN>(r0, c0);
//|  *   warp w owns rows wm = (w / 2) * 64 .. +64, columns wn = (w % 2) * 64 .. +64;
//|  *   lane owns rows wm + lm + {0, 16, 32, 48} + 0..3 and columns
//|  *   wn + ln + {0, 32} + 0..3, with lm = (lane / 8) * 4 and ln = (lane % 8) * 4.
//|  * Per k: four float4 of A (As[s][k][wm + i*16 + lm]), two of B
//|  * (Bs[s][k][wn + j*32 + ln]), 128 FMAs. Store C with st4<CHECKED>. Write it
//|  * for the general template (WM/16 x WN/32 sub-tiles) to tune it. */
//| template <int BM, int BN, int BK, int WM, int WN, int MINB, bool CHECKED>
//| static __global__ void sgemm_warptile_kernel(int M, int N, int K, const float *A, const float *B, float *C)
//| {
//| }
//@end

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
