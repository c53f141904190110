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

//@solution
static_assert(BM * Y_LD * 2 <= 2 * ST_BYTES, "the epilogue tile reuses the stages (two at least)");

static __device__ __forceinline__ void cp_async16(uint32_t saddr, const void *g)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(g));
}
static __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> static __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

static __device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

/* c += A (16 x 32, 2:4: a holds the 16 x 16 kept values) * B (32 x 8). e is
 * this thread's metadata word; SEL says which thread pair of each quad
 * supplies it (0: threads 0, 1; 1: threads 2, 3). */
template <int SEL>
static __device__ __forceinline__ void mma_sp(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[4], uint32_t e)
{
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, %13;\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e),
                   "n"(SEL));
}

/* Byte offsets in a stage: W's chunk c (0..3) of row r, x's chunk c (0..7) of row r. */
static __device__ __forceinline__ uint32_t w_off(int r, int c) { return r * 64 + ((c ^ ((r >> 1) & 3)) << 4); }
static __device__ __forceinline__ uint32_t x_off(int r, int c) { return ST_W + ST_E + r * 128 + ((c ^ (r & 7)) << 4); }

/* Copy k-tile kt into the stage at shared address st: 4 chunks of x and 4
 * of W a thread, and threads 0..127 one chunk of metadata each. */
static __device__ __forceinline__ void load_stage(uint32_t st, const __half *x, const __half *vals, const uint32_t *meta,
                                                  int M, int N, int K, int m0, int n0, int kt)
{
    const int tid = threadIdx.x;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const int r = (tid >> 3) + 32 * i, c = tid & 7;
        cp_async16(st + x_off(r, c), x + (size_t)min(m0 + r, M - 1) * K + kt * BK + c * 8);
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const int r = (tid >> 2) + 64 * i, c = tid & 3;
        cp_async16(st + w_off(r, c), vals + (size_t)min(n0 + r, N - 1) * (K / 2) + kt * (BK / 2) + c * 8);
    }
    if (tid < 128) {
        const int b = min(n0 / 16 + (tid >> 3), N / 16 - 1);
        cp_async16(st + ST_W + (tid >> 3) * 128 + (tid & 7) * 16, meta + ((size_t)b * (K / 64) + kt) * 32 + (tid & 7) * 4);
    }
}

/* NST stages: STAGES where the GPU has the shared memory, fewer where it
 * has not (99 KB a block on compute capability 8.6 and 8.9: two). */
template <int NST>
static __global__ void __launch_bounds__(THREADS, 1)
    sp24_kernel(const __half *__restrict__ x, const __half *__restrict__ vals, const uint32_t *__restrict__ meta,
                __half *__restrict__ y, int M, int N, int K, int tiles_m, int tiles_n)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    __trap(); /* mma.sp and cp.async need sm_80 (the tests skip older GPUs) */
#else
    extern __shared__ __align__(128) unsigned char smem[];
    /* Grouped order: GROUP_M row-tiles of x in a row share their W tiles in L2. */
    const int pid = blockIdx.x, per_group = GROUP_M * tiles_n, first = (pid / per_group) * GROUP_M;
    const int rows_here = min(tiles_m - first, GROUP_M);
    const int m0 = (first + (pid % per_group) % rows_here) * BM, n0 = ((pid % per_group) / rows_here) * BN;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, wn = warp & 3, wm = warp >> 2;
    const uint32_t s_base = (uint32_t)__cvta_generic_to_shared(smem);

    float acc[4][8][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int q = 0; q < 4; q++) acc[i][j][q] = 0.f;

    /* ldmatrix addresses, step s of a stage (k 32 s .. 32 s + 31). A: lane l
     * reads row l % 16 of a 16-row slab of W, chunk 2 s + l / 16: registers
     * rows 0-7 | 8-15 of compressed k 0-7, then of k 8-15 (the A fragment).
     * B: lane l reads row l % 8 of an 8-row slab of x, chunk 4 s + l / 8:
     * registers k 0-7, 8-15, 16-23, 24-31 (the B fragment of k32). Slabs
     * start at multiples of 8 rows, so the swizzle is the lane's. */
    uint32_t a_s[2], b_s[2];
#pragma unroll
    for (int s = 0; s < 2; s++) {
        a_s[s] = w_off(wn * 64 + (lane & 15), 2 * s + (lane >> 4));
        b_s[s] = x_off(wm * 64 + (lane & 7), 4 * s + (lane >> 3));
    }

    const int KT = K / BK;
#pragma unroll
    for (int s = 0; s < NST - 1; s++) {
        if (s < KT) load_stage(s_base + s * ST_BYTES, x, vals, meta, M, N, K, m0, n0, s);
        cp_async_commit();
    }

    uint32_t af[4][4], bf[8][4], e[4];
#pragma unroll 1
    for (int kt = 0; kt < KT; kt++) {
        cp_async_wait<NST - 2>(); /* k-tile kt has landed (this thread's copies) */
        __syncthreads();             /* ... everyone's; the stage of kt - 1 is free */
        if (kt + NST - 1 < KT)
            load_stage(s_base + ((kt + NST - 1) % NST) * ST_BYTES, x, vals, meta, M, N, K, m0, n0, kt + NST - 1);
        cp_async_commit();
        const int stage = kt % NST;
        const uint32_t sb = s_base + stage * ST_BYTES;
        const uint32_t *se = (const uint32_t *)(smem + stage * ST_BYTES + ST_W);
#pragma unroll
        for (int i = 0; i < 4; i++) e[i] = se[(wn * 4 + i) * 32 + lane];
#pragma unroll
        for (int s = 0; s < 2; s++) {
#pragma unroll
            for (int i = 0; i < 4; i++) ldsm_x4(af[i], sb + a_s[s] + i * 16 * 64);
#pragma unroll
            for (int j = 0; j < 8; j++) ldsm_x4(bf[j], sb + b_s[s] + j * 8 * 128);
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) {
                    if (s == 0) mma_sp<0>(acc[i][j], af[i], bf[j], e[i]);
                    else mma_sp<1>(acc[i][j], af[i], bf[j], e[i]);
                }
        }
    }
    cp_async_wait<0>();
    __syncthreads(); /* the stages become the epilogue tile */

    /* Thread (g, t) holds, of each 16 x 8 tile, outputs n = g and g + 8 of
     * rows m = 2t and 2t + 1: write them into y's tile [m][n], then copy
     * whole rows out, 16 bytes a thread. */
    __half *sy = (__half *)smem;
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) {
            const int n = wn * 64 + i * 16 + g, m = wm * 64 + j * 8 + 2 * t;
            sy[m * Y_LD + n] = __float2half_rn(acc[i][j][0]);
            sy[(m + 1) * Y_LD + n] = __float2half_rn(acc[i][j][1]);
            sy[m * Y_LD + n + 8] = __float2half_rn(acc[i][j][2]);
            sy[(m + 1) * Y_LD + n + 8] = __float2half_rn(acc[i][j][3]);
        }
    __syncthreads();
    const int c = tid & 31;
#pragma unroll 4
    for (int q = 0; q < BM / 8; q++) {
        const int r = (tid >> 5) + 8 * q;
        if (m0 + r < M && n0 + c * 8 < N)
            *(uint4 *)(y + (size_t)(m0 + r) * N + n0 + c * 8) = *(const uint4 *)(sy + r * Y_LD + c * 8);
    }
#endif
}
//@starter
//| /* TODO: the kernel. Suggested shape: week 26's warp tile (64 x 64, 4 x 8
//|  * mma tiles) with W as the A operand (y^T = W x^T):
//|  *  1. A ring of STAGES cp.async stages, each with W's compressed k-tile
//|  *     (BN rows x 32 halves), its metadata words (sp24_pack.h: copy them as
//|  *     they are) and x's k-tile (BM rows x 64 halves), swizzled so that
//|  *     ldmatrix is free of bank conflicts.
//|  *  2. Per 32 k: ldmatrix.x4 gives a 16 x 16 compressed A fragment (the
//|  *     dense m16n8k16 A layout) and, without .trans, an 8 x 32 B fragment
//|  *     of x; mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 with the
//|  *     metadata word and sparsity selector 0 (k 0..31 of a 64-k stage) or
//|  *     1 (k 32..63): one word a thread serves both.
//|  *  3. The accumulators are y^T: stage them through shared memory and
//|  *     store rows of y; rows past M and N are never stored. */
//@end

cudaError_t sp24_gemm(const uint16_t *x, const uint16_t *vals, const uint32_t *meta, uint16_t *y, int M, int N, int K)
{
    //@solution
    if (M < 0 || N < 0 || K < 0 || N % 16 || K % 64) return cudaErrorInvalidValue;
    if (((uintptr_t)x | (uintptr_t)vals | (uintptr_t)meta | (uintptr_t)y) & 15) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    if (K == 0) return cudaMemsetAsync(y, 0, (size_t)M * N * 2, 0);
    static int nst = 0; /* the stages this GPU has room for, found once */
    if (!nst) {
        int dev = 0, optin = 0;
        cudaError_t e = cudaGetDevice(&dev);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
        if (e != cudaSuccess) return e;
        const int want = optin >= STAGES * ST_BYTES ? STAGES : optin >= 3 * ST_BYTES ? 3 : 2;
        e = cudaFuncSetAttribute(want == 4 ? sp24_kernel<4> : want == 3 ? sp24_kernel<3> : sp24_kernel<2>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, want * ST_BYTES);
        if (e != cudaSuccess) return e;
        nst = want;
    }
    const int tm = (M + BM - 1) / BM, tn = (N + BN - 1) / BN;
    const __half *xh = (const __half *)x, *vh = (const __half *)vals;
    if (nst == 4) sp24_kernel<4><<<tm * tn, THREADS, 4 * ST_BYTES>>>(xh, vh, meta, (__half *)y, M, N, K, tm, tn);
    else if (nst == 3) sp24_kernel<3><<<tm * tn, THREADS, 3 * ST_BYTES>>>(xh, vh, meta, (__half *)y, M, N, K, tm, tn);
    else sp24_kernel<2><<<tm * tn, THREADS, 2 * ST_BYTES>>>(xh, vh, meta, (__half *)y, M, N, K, tm, tn);
    return cudaGetLastError();
    //@starter
    //| (void)x, (void)vals, (void)meta, (void)y, (void)M, (void)N, (void)K;
    //| return cudaSuccess;
    //@end
}
