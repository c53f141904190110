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

//@solution
static_assert(STAGES >= 3, "tile kt + 1 must land while kt is computed");
static_assert(BK == 64 && 128 % BK == 0, "two k-tiles a group; 8 chunks of 16 bytes a row");

static __device__ __forceinline__ __half2 as_h2(uint32_t u)
{
    __half2 h;
    memcpy(&h, &u, 4);
    return h;
}
static __device__ __forceinline__ uint32_t as_u32(__half2 h)
{
    uint32_t u;
    memcpy(&u, &h, 4);
    return u;
}
/* (w & 0x000f000f) | 0x64006400: half2(1024 + q at bits 0-3, 1024 + q at bits 16-19). */
static __device__ __forceinline__ uint32_t nibbles_to_1024q(uint32_t w)
{
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, 0xea;\n" : "=r"(r) : "r"(w), "r"(0x000f000fu), "r"(0x64006400u));
    return r;
}

/* A row of the x tile is BK = 64 halves, 8 chunks: chunk XOR row & 7. The
 * dequantised tile: column n's 64 k, the same swizzle with n. */
static __device__ __forceinline__ int sw_off(int r, int c) { return r * BK + ((c ^ (r & 7)) << 3); }

/* cp.async of 16 bytes, or of none (the 16 bytes of shared memory zeroed) when !ok. */
static __device__ __forceinline__ void cp_async16(uint32_t saddr, const void *g, bool ok)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(saddr), "l"(g), "r"(ok ? 16 : 0));
}
static __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> static __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

static __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
static __device__ __forceinline__ void mma16816(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* Copy k-tile kt into the stage at shared address st: x rows m0 .. m0+127
 * (4 chunks a thread, rows 32 apart: the same swizzle), the 8 word-rows of
 * W (2 chunks a thread), and threads 0..63 the group's scales and zeros. */
static __device__ __forceinline__ void load_tile(uint32_t st, const __half *x, const uint32_t *wq, const __half *sc,
                                                 const __half *zr, int M, int N, int K, int m0, int n0, int kt)
{
    const int tid = threadIdx.x, ra = tid >> 3, ca = tid & 7;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        const int r = ra + 32 * i;
        const bool ok = m0 + r < M;
        cp_async16(st + sw_off(r, ca) * 2, x + (size_t)(ok ? m0 + r : 0) * K + kt * BK + ca * 8, ok);
    }
    const int pc = tid & 63;
    const bool pok = n0 + pc * 4 < N;
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int kb = (tid >> 6) + 4 * i;
        cp_async16(st + ST_A + (kb * BN + pc * 4) * 4, wq + (size_t)(kt * (BK / 8) + kb) * N + (pok ? n0 + pc * 4 : 0), pok);
    }
    if (tid < 64) {
        const int c = tid & 31;
        const bool ok = n0 + c * 8 < N;
        const __half *src = (tid < 32 ? sc : zr) + (size_t)(kt * BK / 128) * N + (ok ? n0 + c * 8 : 0);
        cp_async16(st + ST_A + ST_P + (tid >> 5) * (BN * 2) + c * 16, src, ok);
    }
}

static __global__ void __launch_bounds__(THREADS, 1)
    w4_prefill_kernel(const __half *__restrict__ x, const uint32_t *__restrict__ wq, const __half *__restrict__ sc,
                      const __half *__restrict__ zr, __half *__restrict__ y, int M, int N, int K, int tiles_m,
                      int tiles_n)
{
    extern __shared__ __align__(128) unsigned char smem[];
    /* Grouped order: GROUP_M row-tiles share their W column-tiles in L2. */
    const int pid = blockIdx.x, group = GROUP_M * tiles_n, first_m = (pid / group) * GROUP_M;
    const int gsz = min(tiles_m - first_m, GROUP_M);
    const int m0 = (first_m + (pid % group) % gsz) * BM, n0 = ((pid % group) / gsz) * BN;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / 4, wn = warp % 4;
    const uint32_t s_base = (uint32_t)__cvta_generic_to_shared(smem);
    const uint32_t bh_base = s_base + STAGES * ST_BYTES;
    auto st = [&](int s) { return s_base + s * ST_BYTES; };

    float acc[4][8][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int q = 0; q < 4; q++) acc[i][j][q] = 0.f;

    /* ldmatrix addresses. A: lane l reads row l % 16 of a 16-row slab, chunk
     * 2 ks + l / 16. B (n-major, no .trans): lane l reads column
     * (l & 7) + (l >> 4) * 8 of a 16-column slab, chunk 2 ks + ((l >> 3) & 1):
     * registers 0-1 are the n8 tile of the slab's first 8 columns, 2-3 the
     * next. Slab rows start at multiples of 8, so the swizzle is the lane's. */
    const uint32_t a_lane = (wm * 64 + lane % 16) * (BK * 2);
    const uint32_t b_lane = (wn * 64 + (lane & 7) + (lane >> 4) * 8) * (BK * 2);
    uint32_t a_ks[BK / 16], b_ks[BK / 16];
#pragma unroll
    for (int ks = 0; ks < BK / 16; ks++) {
        a_ks[ks] = a_lane + (((ks * 2 + lane / 16) ^ (lane & 7)) << 4);
        b_ks[ks] = b_lane + (((ks * 2 + ((lane >> 3) & 1)) ^ (lane & 7)) << 4);
    }

    /* Dequantisation: thread tid owns column tid of the tile; k-step ks is its
     * words 2 ks and 2 ks + 1 of the stage, 16 weights, two chunks of Bh. */
    const __half2 k1024 = as_h2(0x64006400u);
    __half2 ss = k1024, zz = k1024;
    auto dequant_step = [&](int stage, int buf, int ks) {
        const unsigned char *sp = smem + stage * ST_BYTES;
        if (ks == 0) {
            const __half *szp = (const __half *)(sp + ST_A + ST_P);
            ss = __half2half2(szp[tid]);
            zz = __hadd2(__half2half2(szp[BN + tid]), k1024);
        }
        const uint32_t *pk = (const uint32_t *)(sp + ST_A);
        uint4 *bh = (uint4 *)(smem + STAGES * ST_BYTES + buf * BH_BYTES);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            const int kb = 2 * ks + u;
            const uint32_t w = pk[kb * BN + tid];
            uint32_t d[4]; /* (q0,q4), (q1,q5), (q2,q6), (q3,q7), dequantised */
#pragma unroll
            for (int i = 0; i < 4; i++) d[i] = as_u32(__hmul2(__hsub2(as_h2(nibbles_to_1024q(w >> (4 * i))), zz), ss));
            bh[sw_off(tid, kb) / 8] = make_uint4(__byte_perm(d[0], d[1], 0x5410), __byte_perm(d[2], d[3], 0x5410),
                                                 __byte_perm(d[0], d[1], 0x7632), __byte_perm(d[2], d[3], 0x7632));
        }
    };

    const int KT = K / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < KT) load_tile(st(s), x, wq, sc, zr, M, N, K, m0, n0, s);
        cp_async_commit();
    }
    cp_async_wait<STAGES - 2>(); /* tile 0 */
    __syncthreads();
#pragma unroll
    for (int ks = 0; ks < BK / 16; ks++) dequant_step(0, 0, ks);

    uint32_t af[4][4], bf[4][4];
#pragma unroll 1
    for (int kt = 0; kt < KT; kt++) {
        cp_async_wait<STAGES - 3>(); /* tile kt + 1 has landed (this thread's part) */
        __syncthreads();             /* ... everyone's; Bh[kt & 1] is complete; tile kt - 1 and Bh[(kt+1) & 1] are free */
        if (kt + STAGES - 1 < KT) load_tile(st((kt + STAGES - 1) % STAGES), x, wq, sc, zr, M, N, K, m0, n0, kt + STAGES - 1);
        cp_async_commit();
        const uint32_t sa = st(kt % STAGES), sb = bh_base + (kt & 1) * BH_BYTES;
        const bool next = kt + 1 < KT;
#pragma unroll
        for (int ks = 0; ks < BK / 16; ks++) {
#pragma unroll
            for (int mi = 0; mi < 4; mi++) ldmatrix_x4(af[mi], sa + a_ks[ks] + mi * 16 * (BK * 2));
#pragma unroll
            for (int jp = 0; jp < 4; jp++) ldmatrix_x4(bf[jp], sb + b_ks[ks] + jp * 16 * (BK * 2));
            if (next) dequant_step((kt + 1) % STAGES, (kt + 1) & 1, ks); /* fills the ldmatrix latency */
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int ni = 0; ni < 8; ni++)
                    mma16816(acc[mi][ni], af[mi], bf[ni / 2][(ni % 2) * 2], bf[ni / 2][(ni % 2) * 2 + 1]);
        }
    }
    cp_async_wait<0>();

    /* Epilogue: thread (g, t) holds rows g and g + 8, columns 2t and 2t + 1 of
     * each 16 x 8 tile: one half2 store (N is even, y 16-byte aligned). */
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int ni = 0; ni < 8; ni++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int r = m0 + wm * 64 + mi * 16 + g + h * 8, c = n0 + wn * 64 + ni * 8 + 2 * t;
                if (r < M && c < N)
                    *(__half2 *)(y + (size_t)r * N + c) = __floats2half2_rn(acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
            }
}
//@starter
//| /* TODO: the prefill kernel. Suggested shape: week 26's (256 threads, a
//|  * 128 x 256 tile of y, warps 2 x 4 of 64 x 64, m16n8k16, a cp.async ring
//|  * of stages), with each stage holding x's k-tile, the k-tile's packed
//|  * words (8 word-rows x 256 columns) and its group's scales and zeros.
//|  *  1. Dequantise inside the mainloop: every thread takes one column of
//|  *     the next k-tile and writes its weights as FP16 into a second,
//|  *     double-buffered tile that the mmas read (n-major: a column's k
//|  *     contiguous, so that a word's 8 weights are one 16-byte store; then B
//|  *     comes from ldmatrix without .trans).
//|  *  2. One __syncthreads a k-tile is enough if the packed tile kt + 1 has
//|  *     landed before iteration kt (cp.async.wait_group STAGES - 3).
//|  *  3. Rows past M and columns past N: cp.async with 0 source bytes writes
//|  *     zeros; q = z = s = 0 dequantises to 0. Guard the stores. */
//@end

cudaError_t w4a16_prefill(const uint16_t *x_, const uint32_t *wq, const uint16_t *scales_, const uint16_t *zeros_,
                          uint16_t *y_, int M, int N, int K)
{
    //@solution
    if (M < 0 || N < 0 || K < 0 || K % 128 || N % 8) return cudaErrorInvalidValue;
    if (((uintptr_t)x_ | (uintptr_t)wq | (uintptr_t)scales_ | (uintptr_t)zeros_ | (uintptr_t)y_) & 15)
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    if (K == 0) return cudaMemsetAsync(y_, 0, (size_t)M * N * 2, 0);
    static bool attr_set = false;
    if (!attr_set) {
        cudaError_t e = cudaFuncSetAttribute(w4_prefill_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
        if (e != cudaSuccess) return e;
        attr_set = true;
    }
    const int tm = (M + BM - 1) / BM, tn = (N + BN - 1) / BN;
    w4_prefill_kernel<<<tm * tn, THREADS, SMEM_BYTES>>>((const __half *)x_, wq, (const __half *)scales_,
                                                        (const __half *)zeros_, (__half *)y_, M, N, K, tm, tn);
    return cudaGetLastError();
    //@starter
    //| (void)x_, (void)wq, (void)scales_, (void)zeros_, (void)y_, (void)M, (void)N, (void)K;
    //| return cudaSuccess;
    //@end
}
