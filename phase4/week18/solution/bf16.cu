/* bf16.cu — week 18, exercise 6: the layer on the tensor cores.
 *
 * A tensor core multiplies small matrices in one instruction: here 16 x 16
 * tiles of BF16 (8 significant bits, float's exponent range), accumulated
 * in FP32. CUDA C++ reaches them through nvcuda::wmma (mma.h): a fragment
 * is a 16 x 16 tile spread over the 32 lanes of a warp in a layout you do
 * not see; load_matrix_sync fills one from memory, mma_sync multiplies and
 * accumulates, store_matrix_sync writes one back.
 *
 * One block of 256 threads (8 warps as 2 x 4) owns a 128 x 128 tile of Y;
 * each warp 64 x 32 of it, 4 x 2 accumulator fragments. K moves 32 at a time
 * through two shared-memory stages filled by cp.async (16 bytes a copy,
 * global to shared without passing through registers): the copy of the
 * next k-tile is in flight while the tensor cores work on this one. Shared
 * rows are padded by 8 bf16 (16 bytes), so the 8 rows a fragment load
 * reads at once fall on different banks. The epilogue is where the fusion
 * happens, but an accumulator fragment's layout is not ours to read: each
 * warp stores its fragments one at a time into a 16 x 16 float square in
 * shared memory, and the lanes add the bias, apply the ReLU and write Y from
 * there. */
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <mma.h>
#include <limits.h>
#include "bf16.h"

//@solution
static __global__ void f32_to_bf16_kernel(const float *__restrict__ src, __nv_bfloat16 *__restrict__ dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = __float2bfloat16_rn(src[i]);
}
//@end

cudaError_t bf16_from_f32(const float *src, uint16_t *dst, size_t n)
{
    //@solution
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    f32_to_bf16_kernel<<<(unsigned)(blocks < 65535u * 16 ? blocks : 65535u * 16), 256>>>(src, (__nv_bfloat16 *)dst,
                                                                                           n);
    return cudaGetLastError();
    //@starter
    //| /* TODO: a grid-stride loop; __float2bfloat16_rn(v) (cuda_bf16.h) rounds
    //|  * a float to the nearest bfloat16; store it through a __nv_bfloat16
    //|  * pointer. */
    //| (void)src, (void)dst, (void)n;
    //| return cudaSuccess;
    //@end
}

//@solution
using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define PAD 8          /* bf16 a shared row: 80-byte rows */
#define LDS (BK + PAD) /* the shared tiles' leading dimension */
#define THREADS 256

/* Two stages of the X tile (128 rows x 32 k) and the W tile (128 outputs x
 * 32 k, W's own layout: for the tensor cores it is B = W^T read column-major).
 * The epilogue's squares reuse the same bytes once the last k-tile is done. */
union Smem {
    struct {
        __nv_bfloat16 x[BM][LDS];
        __nv_bfloat16 w[BN][LDS];
    } st[2];                /* 40960 bytes */
    float out[8][16][16];   /* a square a warp, 8192 bytes */
};

/* Start the copy of k-tile kt into stage s: 128 rows x 4 pieces of 16 bytes
 * (8 bf16) for each of X and W, two of each a thread. A piece outside batch,
 * out or in is zero-filled (a copy of 0 bytes and 16 of zeros): in is a
 * multiple of 8, so a piece is all inside or all outside K. */
static __device__ __forceinline__ void load_tile(Smem &s, int st, const __nv_bfloat16 *__restrict__ x,
                                                 const __nv_bfloat16 *__restrict__ W, int batch, int in, int out,
                                                 int m0, int n0, int kt)
{
#pragma unroll
    for (int i = 0; i < 2; i++) {
        int id = threadIdx.x + i * THREADS, r = id / 4, c = (id % 4) * 8, gk = kt * BK + c;
        bool kin = gk < in, xin = kin && m0 + r < batch, win = kin && n0 + r < out;
        const __nv_bfloat16 *px = xin ? x + (size_t)(m0 + r) * in + gk : x;
        const __nv_bfloat16 *pw = win ? W + (size_t)(n0 + r) * in + gk : W;
        __pipeline_memcpy_async(&s.st[st].x[r][c], px, 16, xin ? 0 : 16);
        __pipeline_memcpy_async(&s.st[st].w[r][c], pw, 16, win ? 0 : 16);
    }
    __pipeline_commit();
}

template <bool RELU>
static __global__ void __launch_bounds__(THREADS, 2)
    linear_bf16_kernel(const __nv_bfloat16 *__restrict__ x, const __nv_bfloat16 *__restrict__ W,
                       const float *__restrict__ b, float *__restrict__ y, int batch, int in, int out, int n_tiles)
{
    __shared__ __align__(128) Smem s;
    /* consecutive blocks share an X tile (the output tiles of one row of
     * tiles), so X is read from DRAM about once; W is small and stays in L2 */
    int m0 = (blockIdx.x / n_tiles) * BM, n0 = (blockIdx.x % n_tiles) * BN;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / 4, wn = warp % 4;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.f);

    int KT = (in + BK - 1) / BK;
    load_tile(s, 0, x, W, batch, in, out, m0, n0, 0);
    for (int kt = 0; kt < KT; kt++) {
        int st = kt & 1;
        __pipeline_wait_prior(0); /* this thread's pieces of tile kt have landed */
        __syncthreads();          /* everyone's have, and nobody still reads stage st ^ 1 */
        if (kt + 1 < KT) load_tile(s, st ^ 1, x, W, batch, in, out, m0, n0, kt + 1);
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb[2];
#pragma unroll
            for (int i = 0; i < 4; i++) wmma::load_matrix_sync(fa[i], &s.st[st].x[wm * 64 + i * 16][kk], LDS);
#pragma unroll
            for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &s.st[st].w[wn * 32 + j * 16][kk], LDS);
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
    }
    __syncthreads(); /* the stages become the epilogue's squares */

    /* the fused epilogue: bias and ReLU on the way out, one store of Y */
    float(*sq)[16] = s.out[warp];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) {
            int r0 = m0 + wm * 64 + i * 16, c0 = n0 + wn * 32 + j * 16;
            wmma::store_matrix_sync(&sq[0][0], acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
#pragma unroll
            for (int e = lane; e < 256; e += 32) {
                int r = r0 + e / 16, c = c0 + e % 16;
                if (r < batch && c < out) {
                    float v = sq[e / 16][e % 16] + b[c];
                    if (RELU) v = v < 0.f ? 0.f : v; /* NaN stays */
                    y[(size_t)r * out + c] = v;
                }
            }
            __syncwarp();
        }
}
//@starter
//| /* TODO: the kernel, with nvcuda::wmma (mma.h) and BF16 fragments:
//|  *   wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major>   a 16 x 16 piece of X
//|  *   wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major>   of W^T: W's rows as columns
//|  *   wmma::fragment<wmma::accumulator, 16, 16, 16, float>
//|  * Suggested shape: 256 threads (8 warps as 2 x 4) a 128 x 128 tile of y,
//|  * each warp 64 x 32 of it (4 x 2 accumulators). K moves 32 at a time
//|  * through shared tiles x[128][32 + 8] and w[128][32 + 8] (the pad spreads
//|  * the rows over the banks), filled with __pipeline_memcpy_async
//|  * (cuda_pipeline.h, 16 bytes a copy, zero-filled outside batch, out, in),
//|  * two stages so the next k-tile loads while this one is multiplied.
//|  * Epilogue: store_matrix_sync each accumulator into a 16 x 16 float square
//|  * in shared memory, then add b[c], apply the ReLU and write y from there,
//|  * guarded by batch and out. */
//@end

cudaError_t bf16_linear(const uint16_t *x, const uint16_t *W, const float *b, float *y, int batch, int in, int out,
                        int relu)
{
    //@solution
    if (batch < 0 || in < 1 || out < 1 || in % 8 != 0) return cudaErrorInvalidValue;
    if (((uintptr_t)x & 15) || ((uintptr_t)W & 15)) return cudaErrorInvalidValue;
    if (batch == 0) return cudaSuccess;
    long long m_tiles = (batch + (long long)BM - 1) / BM, n_tiles = (out + BN - 1) / BN;
    if (m_tiles * n_tiles > INT_MAX) return cudaErrorInvalidValue;
    unsigned blocks = (unsigned)(m_tiles * n_tiles);
    const __nv_bfloat16 *xb = (const __nv_bfloat16 *)x, *Wb = (const __nv_bfloat16 *)W;
    if (relu) linear_bf16_kernel<true><<<blocks, THREADS>>>(xb, Wb, b, y, batch, in, out, (int)n_tiles);
    else linear_bf16_kernel<false><<<blocks, THREADS>>>(xb, Wb, b, y, batch, in, out, (int)n_tiles);
    return cudaGetLastError();
    //@starter
    //| /* TODO: refuse what the contract excludes (bf16.h: sizes, in % 8,
    //|  * x and W 16-byte aligned) with cudaErrorInvalidValue, launch nothing for
    //|  * batch == 0, then enough blocks to cover batch x out. */
    //| (void)x, (void)W, (void)b, (void)y, (void)batch, (void)in, (void)out, (void)relu;
    //| return cudaSuccess;
    //@end
}
