/* hgemm_wmma.cu — week 25: HGEMM on the tensor cores through nvcuda::wmma.
 *
 * A warp-wide API: a fragment is a 16 x 16 tile spread over the 32 lanes of a
 * warp in a layout you do not see; load_matrix_sync fills one from memory,
 * mma_sync multiplies two (FP16 in, FP32 accumulate) and store_matrix_sync
 * writes one back.
 *
 * One block of 256 threads (8 warps as 2 x 4) computes a 128 x 128 tile of C;
 * each warp owns 64 x 32 of it, 4 x 2 accumulator fragments. K advances 32 at
 * a time through shared memory, double-buffered through registers: the loads
 * of the next k-tile are issued before the tensor cores work on this one, and
 * stored to the other buffer after. Rows of the shared tiles are padded by 8
 * halves (16 bytes) so the 8 rows a fragment load reads fall on different
 * banks. Loads are 16 bytes a thread where the row allows it, element by
 * element (zero beyond M, N, K) elsewhere, so any shape works. */
#include <cuda_fp16.h>
#include <mma.h>
#include "hgemm_wmma.h"

//@solution
using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define PAD 8
#define THREADS 256

struct Tiles {
    __half a[2][BM][BK + PAD]; /* 20480 bytes */
    __half b[2][BK][BN + PAD]; /* 17408 bytes */
    float out[8][16 * 16];     /* per-warp staging for edge tiles, 8192 bytes */
};

/* 8 halves of row `row` from column `col` of a rows x cols row-major matrix,
 * zeros outside; one 16-byte load when `vec` and the 8 are all inside. */
static __device__ __forceinline__ uint4 load8(const __half *M_, int rows, int cols, int row, int col, bool vec)
{
    if (vec && row < rows && col + 8 <= cols) return __ldg((const uint4 *)(M_ + (size_t)row * cols + col));
    union { uint4 u; __half h[8]; } v;
#pragma unroll
    for (int j = 0; j < 8; j++)
        v.h[j] = (row < rows && col + j < cols) ? M_[(size_t)row * cols + col + j] : __float2half(0.f);
    return v.u;
}

static __global__ void __launch_bounds__(THREADS, 2)
    hgemm_wmma_kernel(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C, int M, int N,
                      int K, bool vec_a, bool vec_b, bool direct_ok)
{
    __shared__ __align__(128) Tiles s;
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / 4, wn = warp % 4;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.f);

    /* Who loads what: A tile 128 x 32 = 512 chunks of 8 halves, B tile
     * 32 x 128 = 512 chunks; two of each per thread. */
    uint4 ra[2], rb[2];
    auto load_global = [&](int kt) {
#pragma unroll
        for (int i = 0; i < 2; i++) {
            int id = threadIdx.x + i * THREADS;
            ra[i] = load8(A, M, K, m0 + id / 4, kt * BK + (id % 4) * 8, vec_a);
            rb[i] = load8(B, K, N, kt * BK + id / 16, n0 + (id % 16) * 8, vec_b);
        }
    };
    auto store_shared = [&](int buf) {
#pragma unroll
        for (int i = 0; i < 2; i++) {
            int id = threadIdx.x + i * THREADS;
            *(uint4 *)&s.a[buf][id / 4][(id % 4) * 8] = ra[i];
            *(uint4 *)&s.b[buf][id / 16][(id % 16) * 8] = rb[i];
        }
    };

    int KT = (K + BK - 1) / BK;
    if (KT > 0) {
        load_global(0);
        store_shared(0);
    }
    __syncthreads();
    for (int kt = 0; kt < KT; kt++) {
        int buf = kt & 1;
        if (kt + 1 < KT) load_global(kt + 1); /* in flight while the tensor cores work */
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[2];
#pragma unroll
            for (int i = 0; i < 4; i++) wmma::load_matrix_sync(fa[i], &s.a[buf][wm * 64 + i * 16][kk], BK + PAD);
#pragma unroll
            for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &s.b[buf][kk][wn * 32 + j * 16], BN + PAD);
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        if (kt + 1 < KT) store_shared(buf ^ 1); /* the other buffer: nobody reads it now */
        __syncthreads();
    }

    /* Epilogue: whole tiles straight to C when rows are 32-byte aligned;
     * edge tiles through the warp's staging square, element by element. */
    bool full = direct_ok && m0 + BM <= M && n0 + BN <= N;
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) {
            int r0 = m0 + wm * 64 + i * 16, c0 = n0 + wn * 32 + j * 16;
            if (full) {
                wmma::store_matrix_sync(C + (size_t)r0 * N + c0, acc[i][j], N, wmma::mem_row_major);
                continue;
            }
            wmma::store_matrix_sync(s.out[warp], acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 256; e += 32) {
                int r = r0 + e / 16, c = c0 + e % 16;
                if (r < M && c < N) C[(size_t)r * N + c] = s.out[warp][e];
            }
            __syncwarp();
        }
}
//@starter
//| /* TODO: the kernel. Suggested shape: 256 threads (8 warps as 2 x 4) per
//|  * 128 x 128 tile of C, each warp 64 x 32 = 4 x 2 accumulator fragments
//|  * (wmma::fragment<wmma::accumulator, 16, 16, 16, float>).
//|  *  1. Stage a 128 x 32 tile of A and a 32 x 128 tile of B in shared memory
//|  *     (pad each row by 8 halves), zeros outside M, N, K.
//|  *  2. Per 16-wide slice of k: wmma::load_matrix_sync the A and B fragments
//|  *     (matrix_a / matrix_b, row_major), wmma::mma_sync into the accumulators.
//|  *  3. wmma::store_matrix_sync to C; guard the edges of C.
//|  * Then overlap: load the next k-tile into registers before computing. */
//@end

cudaError_t hgemm_wmma(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K)
{
    //@solution
    if (M < 0 || N < 0 || K < 0) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    bool vec_a = K % 8 == 0 && ((uintptr_t)A & 15) == 0, vec_b = N % 8 == 0 && ((uintptr_t)B & 15) == 0;
    bool direct_ok = N % 8 == 0 && ((uintptr_t)C & 31) == 0;
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    hgemm_wmma_kernel<<<grid, THREADS>>>((const __half *)A, (const __half *)B, C, M, N, K, vec_a, vec_b, direct_ok);
    return cudaGetLastError();
    //@starter
    //| (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
    //| return cudaSuccess;
    //@end
}
