/* hgemm_tiled.cu — week 27: the week-26 tensor-core GEMM taken apart the
 * way CUTLASS takes a GEMM apart, then put back together.
 *
 *   TileShape  what one block and one warp compute (compile-time numbers);
 *   SmemLayout where a k-tile lives in shared memory (the XOR swizzle);
 *   Mainloop   global -> shared (cp.async ring) -> registers (ldmatrix) ->
 *              tensor cores (mma.sync), leaving the accumulators in registers;
 *   Epilogue   what happens to each accumulator on its way to C (here: store;
 *              week 28 adds bias and an activation without touching the rest);
 *   the kernel a tile scheduler (which tile this block owns) plus the three.
 *
 * The pieces are templates, so the compiler sees the same straight-line code
 * as week 26 and the speed must not drop. */
#include <cuda_fp16.h>
#include "hgemm_tiled.h"

//@solution
/* ---------------------------------------------------------------- TileShape */
template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int STAGES_, int GROUP_M_ = 8> struct TileShape {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_;
    static constexpr int GROUP_M = GROUP_M_; /* tile order: GROUP_M row-tiles share each column-tile in L2 */
    static constexpr int WARPS_M = WARPS_M_, WARPS_N = WARPS_N_, THREADS = 32 * WARPS_M * WARPS_N;
    static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N; /* warp tile */
    static constexpr int MI = WM / 16, NI = WN / 8;            /* mma tiles per warp */
    static constexpr int SMEM_A = BM * BK, SMEM_B = BK * BN;   /* halves per stage */
    static constexpr int SMEM_BYTES = STAGES * (SMEM_A + SMEM_B) * 2;
    static_assert(BK == 32 || BK == 64, "SmemLayout's A swizzle knows 64- and 128-byte rows");
    static_assert(BK / 16 % 2 == 0, "the fragment double buffer alternates over an even number of k-steps");
    static_assert(BN % 64 == 0 && WM % 16 == 0 && WN % 16 == 0, "tile shape");
    static_assert((BM * BK / 8) % THREADS == 0 && (BK * BN / 8) % THREADS == 0, "loader shape");
};

/* ---------------------------------------------------------------- SmemLayout */
template <class S> struct SmemLayout {
    /* half offset of 16-byte chunk c of row r in the A tile: rows of 128
     * bytes (BK 64) hold 8 chunks, XORed with r % 8; rows of 64 bytes (BK 32)
     * hold 4, XORed with (r / 2) % 4, so 8 rows of an ldmatrix still cover
     * all 32 banks */
    static __device__ __forceinline__ int a(int r, int c)
    {
        return r * S::BK + ((c ^ (S::BK == 64 ? r & 7 : (r >> 1) & 3)) << 3);
    }
    /* ... and of chunk c of k-row k in the B tile (BN*2-byte rows) */
    static __device__ __forceinline__ int b(int k, int c) { return k * S::BN + ((c ^ (k & 7)) << 3); }
};

/* ---------------------------------------------------------------- PTX */
namespace ptx {
__device__ __forceinline__ void cp_async16(uint32_t saddr, const void *g)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(g));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }
__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_t(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
} // namespace ptx

/* ---------------------------------------------------------------- Mainloop */
/* The swizzle spreads each ldmatrix over all 32 banks when every stage
 * starts on a 128-byte boundary: the kernel declares shared memory 128-byte
 * aligned and a stage is a multiple of 128 bytes. */
template <class S> struct Mainloop {
    using L = SmemLayout<S>;
    typedef float Acc[S::MI][S::NI][4];
    static constexpr uint32_t STAGE_BYTES = (S::SMEM_A + S::SMEM_B) * 2;
    /* global -> shared: each thread copies A_COPIES 16-byte chunks of A's
     * k-tile, A_ROWS rows apart, and B_COPIES of B's, B_ROWS k-rows apart */
    static constexpr int A_COPIES = (S::BM * S::BK / 8) / S::THREADS, A_ROWS = S::THREADS / (S::BK / 8);
    static constexpr int B_COPIES = (S::BK * S::BN / 8) / S::THREADS, B_ROWS = S::THREADS / (S::BN / 8);
    static_assert(S::THREADS % (S::BK / 8) == 0 && S::THREADS % (S::BN / 8) == 0 && A_ROWS % 8 == 0 &&
                      B_ROWS % 8 == 0,
                  "a thread's chunks must be whole multiples of 8 rows apart (same swizzle)");
    static_assert(STAGE_BYTES % 128 == 0, "every stage starts on a 128-byte boundary");

    /* Where this thread's copies come from and go to, worked out once (what
     * CUTLASS's global tile iterators hold): the byte address of its first
     * A and B chunk of k-tile 0, the row pitches in bytes, and its first
     * chunks' swizzled offsets in a stage. Its other chunks are whole
     * multiples of 8 rows further on, so they have the same swizzle: a
     * constant apart in shared memory, a multiple of the pitch in global
     * memory. Nothing of the copy is recomputed per k-tile but the k-tile's
     * own offset. */
    const char *ga, *gb;
    uint32_t lda_b, ldb_b; /* bytes from one row of A (of B) to the next */
    uint32_t sa, sb;       /* offsets of the first chunks in a stage */
    uint32_t smem;         /* shared address of stage 0 */

    __device__ __forceinline__ Mainloop(uint32_t smem_, const __half *A, const __half *B, int lda, int ldb, int m0,
                                        int n0)
    {
        const int t = threadIdx.x;
        const int ra = t / (S::BK / 8), ca = t % (S::BK / 8), kb = t / (S::BN / 8), cb = t % (S::BN / 8);
        ga = (const char *)(A + (size_t)(m0 + ra) * lda + ca * 8);
        gb = (const char *)(B + (size_t)kb * ldb + n0 + cb * 8);
        lda_b = (uint32_t)lda * 2;
        ldb_b = (uint32_t)ldb * 2;
        sa = L::a(ra, ca) * 2;
        sb = S::SMEM_A * 2 + L::b(kb, cb) * 2;
        smem = smem_;
    }

    /* global -> shared: k-tile kt into the stage at shared address st */
    __device__ __forceinline__ void load(uint32_t st, int kt) const
    {
        const uint32_t k0 = (uint32_t)kt * S::BK;
        const char *a = ga + (size_t)k0 * 2, *b = gb + (size_t)k0 * ldb_b;
#pragma unroll
        for (int i = 0; i < A_COPIES; i++)
            ptx::cp_async16(st + sa + i * A_ROWS * S::BK * 2, a + (size_t)(i * A_ROWS) * lda_b);
#pragma unroll
        for (int i = 0; i < B_COPIES; i++)
            ptx::cp_async16(st + sb + i * B_ROWS * S::BN * 2, b + (size_t)(i * B_ROWS) * ldb_b);
    }

    /* shared -> registers: the fragments of one 16-wide k-step of this
     * warp's tile (MI A tiles of 16 x 16, NI B tiles of 16 x 8, two per
     * ldmatrix.x4.trans) */
    struct Frags {
        uint32_t a[S::MI][4], b[S::NI / 2][4];
    };
    /* Where this lane's ldmatrix rows are in a stage, worked out once: lane l
     * reads row l % 16 of a 16-row slab, chunk l / 16 of the k-step; the
     * swizzle term of a row depends on the lane only (the warp's slabs start
     * at multiples of 8 rows), so every k-step's offset is known up front.
     * The mma tiles of one warp are then constants apart (immediates). */
    struct LaneAddr {
        uint32_t a[S::BK / 16];  /* A: row l % 16 of the warp's first slab, the swizzled chunk of k-step ks */
        uint32_t b[S::NI / 2];   /* B: k-row l % 16, the swizzled chunk of n-slab nj (k-step 0) */
    };
    __device__ __forceinline__ LaneAddr lane_addr(int wm, int wn, int lane) const
    {
        LaneAddr l;
        const int ra = wm * S::WM + lane % 16, kb = lane % 16;
#pragma unroll
        for (int ks = 0; ks < S::BK / 16; ks++) l.a[ks] = L::a(ra, ks * 2 + lane / 16) * 2;
#pragma unroll
        for (int nj = 0; nj < S::NI / 2; nj++)
            l.b[nj] = S::SMEM_A * 2 + L::b(kb, (wn * S::WN + nj * 16) / 8 + lane / 16) * 2;
        return l;
    }
    __device__ __forceinline__ void load_frags(Frags &f, uint32_t st, int ks, const LaneAddr &l) const
    {
#pragma unroll
        for (int mi = 0; mi < S::MI; mi++) ptx::ldsm_x4(f.a[mi], st + l.a[ks] + mi * 16 * (S::BK * 2));
#pragma unroll
        for (int nj = 0; nj < S::NI / 2; nj++) ptx::ldsm_x4_t(f.b[nj], st + l.b[nj] + ks * 16 * (S::BN * 2));
    }
    /* registers -> tensor cores: every mma of one k-step */
    __device__ __forceinline__ void mma_all(const Frags &f, Acc &acc) const
    {
#pragma unroll
        for (int mi = 0; mi < S::MI; mi++)
#pragma unroll
            for (int ni = 0; ni < S::NI; ni++)
                ptx::mma(acc[mi][ni], f.a[mi], f.b[ni / 2][(ni % 2) * 2], f.b[ni / 2][(ni % 2) * 2 + 1]);
    }

    /* The multistage pipeline over all Kp / BK k-tiles, with week 26's
     * software pipeline: the fragments of the next k-step (of this k-tile,
     * or the first of the next) are loaded before the mmas of this one, and
     * the barrier that makes the next k-tile visible sits before the last
     * k-step's mmas, so the tensor cores have work queued across it. The
     * ring is walked with two shared addresses, the stage read (rd) and the
     * stage refilled (wr, the one k-tile kt - 1 used): no kt % STAGES. */
    __device__ __forceinline__ void run(int Kp, int wm, int wn, int lane, Acc &acc) const
    {
#pragma unroll
        for (int i = 0; i < S::MI; i++)
#pragma unroll
            for (int j = 0; j < S::NI; j++)
#pragma unroll
                for (int q = 0; q < 4; q++) acc[i][j][q] = 0.f;
        const int KT = Kp / S::BK;
#pragma unroll
        for (int s = 0; s < S::STAGES - 1; s++) {
            if (s < KT) load(smem + s * STAGE_BYTES, s);
            ptx::commit();
        }
        Frags f[2];
        const LaneAddr la = lane_addr(wm, wn, lane);
        const uint32_t last = smem + (S::STAGES - 1) * STAGE_BYTES;
        uint32_t rd = smem, wr = last;
        ptx::wait<S::STAGES - 2>();
        __syncthreads();
        load_frags(f[0], rd, 0, la);
        for (int kt = 0; kt < KT; kt++) {
            const uint32_t nx = rd == last ? smem : rd + STAGE_BYTES; /* the stage k-tile kt + 1 is in */
#pragma unroll
            for (int ks = 0; ks < S::BK / 16; ks++) {
                if (ks == 0) { /* refill the stage k-tile kt - 1 used */
                    if (kt + S::STAGES - 1 < KT) load(wr, kt + S::STAGES - 1);
                    ptx::commit();
                }
                if (ks == S::BK / 16 - 1) {
                    ptx::wait<S::STAGES - 2>(); /* k-tile kt + 1 has landed */
                    __syncthreads();            /* ... for every thread; nobody reads k-tile kt any more */
                    if (kt + 1 < KT) load_frags(f[(ks + 1) % 2], nx, 0, la);
                } else {
                    load_frags(f[(ks + 1) % 2], rd, ks + 1, la);
                }
                mma_all(f[ks % 2], acc);
            }
            wr = rd;
            rd = nx;
        }
        ptx::wait<0>();
    }
};

/* ---------------------------------------------------------------- Epilogue */
/* The output functor: what one accumulator becomes (row and column given). */
struct OutputIdentity {
    __device__ __forceinline__ float operator()(float v, int, int) const { return v; }
};

/* Registers -> C, guarded by M and N, two floats a store where N is even
 * and C is 8-byte aligned (a float2 store needs an 8-byte address: C + r*N + c
 * with c even is one for every row r only then; a C at an odd float offset
 * takes two scalar stores). Thread (g = lane/4, t = lane%4) holds rows g, g+8
 * and columns 2t, 2t+1 of every 16 x 8 mma tile. */
template <class S, class Op> struct Epilogue {
    Op op;
    __device__ __forceinline__ void operator()(const typename Mainloop<S>::Acc &acc, float *C, int M, int N, int m0,
                                               int n0, int wm, int wn, int lane) const
    {
        int g = lane / 4, t = lane % 4;
        bool pair = (N % 2) == 0 && ((uintptr_t)C & 7) == 0; /* the same for the whole grid */
#pragma unroll
        for (int mi = 0; mi < S::MI; mi++)
#pragma unroll
            for (int ni = 0; ni < S::NI; ni++)
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    int r = m0 + wm * S::WM + mi * 16 + g + h * 8, c = n0 + wn * S::WN + ni * 8 + 2 * t;
                    if (r >= M) continue;
                    float v0 = op(acc[mi][ni][2 * h], r, c), v1 = op(acc[mi][ni][2 * h + 1], r, c + 1);
                    float *p = C + (size_t)r * N + c;
                    if (pair && c + 1 < N) *(float2 *)p = make_float2(v0, v1);
                    else {
                        if (c < N) p[0] = v0;
                        if (c + 1 < N) p[1] = v1;
                    }
                }
    }
};

/* ---------------------------------------------------------------- the kernel */
struct GemmParams {
    const __half *A, *B;
    float *C;
    int M, N, Kp, lda, ldb, tiles_m, tiles_n;
};

/* Tile scheduler: GROUP_M row-tiles in a row share their B column-tiles in L2. */
template <int GROUP_M> __device__ __forceinline__ void tile_of(int pid, int tiles_m, int tiles_n, int &bm, int &bn)
{
    int group = GROUP_M * tiles_n, first_m = (pid / group) * GROUP_M, gsz = min(tiles_m - first_m, GROUP_M);
    bm = first_m + (pid % group) % gsz;
    bn = (pid % group) / gsz;
}

template <class S, class Op> __global__ void __launch_bounds__(S::THREADS, 1) gemm_kernel(GemmParams p, Op op)
{
    extern __shared__ __align__(128) unsigned char smem[];
    int bm, bn;
    tile_of<S::GROUP_M>(blockIdx.x, p.tiles_m, p.tiles_n, bm, bn);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / S::WARPS_N, wn = warp % S::WARPS_N;
    Mainloop<S> ml((uint32_t)__cvta_generic_to_shared(smem), p.A, p.B, p.lda, p.ldb, bm * S::BM, bn * S::BN);
    typename Mainloop<S>::Acc acc;
    ml.run(p.Kp, wm, wn, lane, acc);
    Epilogue<S, Op> epi = { op };
    epi(acc, p.C, p.M, p.N, bm * S::BM, bn * S::BN, wm, wn, lane);
}

/* ---------------------------------------------------------------- the launcher */
/* Week 26's tuned shape (BK 64, the fragment double buffer) with 4 stages
 * (192 KiB of shared memory) and 16 row-tiles a group: measured on the H100
 * at 4096^3, 0.973-0.983 of week 26's kernel in three passes, where week
 * 26's own 3 stages and groups of 8 gave 0.964-0.982 (the README has the
 * table). */
#ifndef HT_STAGES /* -DHT_STAGES=3 -DHT_GROUP_M=8 builds week 26's setting */
#define HT_STAGES 4
#endif
#ifndef HT_GROUP_M
#define HT_GROUP_M 16
#endif
using Shape = TileShape<128, 256, 64, 2, 4, HT_STAGES, HT_GROUP_M>;

static __global__ void pad_copy(const __half *src, int rows, int cols, __half *dst, int rows_p, int cols_p)
{
    size_t n = (size_t)rows_p * cols_p, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int r = (int)(i / cols_p), c = (int)(i % cols_p);
        dst[i] = (r < rows && c < cols) ? src[(size_t)r * cols + c] : __float2half(0.f);
    }
}

static int round_up(int x, int m) { return (x + m - 1) / m * m; }
static unsigned grid_for(size_t n) { size_t b = (n + 255) / 256; return (unsigned)(b < 65535u * 16u ? b : 65535u * 16u); }

/* Pads what the tile shape needs, launches gemm_kernel<S, Op>, frees. */
template <class S, class Op>
static cudaError_t launch_gemm(const __half *A, const __half *B, float *C, int M, int N, int K, Op op)
{
    static bool attr_set = false;
    if (!attr_set) {
        cudaError_t e = cudaFuncSetAttribute(gemm_kernel<S, Op>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             S::SMEM_BYTES);
        if (e != cudaSuccess) return e;
        attr_set = true;
    }
    int Mp = round_up(M, S::BM), Np = round_up(N, S::BN), Kp = round_up(K, S::BK);
    bool aligned = (((uintptr_t)A | (uintptr_t)B) & 15) == 0;
    __half *Ap = NULL, *Bp = NULL;
    cudaError_t e;
    if (Mp != M || Kp != K || !aligned) {
        if ((e = cudaMallocAsync((void **)&Ap, (size_t)Mp * Kp * 2, 0)) != cudaSuccess) return e;
        pad_copy<<<grid_for((size_t)Mp * Kp), 256>>>(A, M, K, Ap, Mp, Kp);
        A = Ap;
    }
    if (Kp != K || Np != N || !aligned) {
        if ((e = cudaMallocAsync((void **)&Bp, (size_t)Kp * Np * 2, 0)) != cudaSuccess) return e;
        pad_copy<<<grid_for((size_t)Kp * Np), 256>>>(B, K, N, Bp, Kp, Np);
        B = Bp;
    }
    GemmParams p = { A, B, C, M, N, Kp, Kp, Np, Mp / S::BM, Np / S::BN };
    gemm_kernel<S, Op><<<p.tiles_m * p.tiles_n, S::THREADS, S::SMEM_BYTES>>>(p, op);
    e = cudaGetLastError();
    if (Ap) cudaFreeAsync(Ap, 0);
    if (Bp) cudaFreeAsync(Bp, 0);
    return e;
}
//@starter
//| /* TODO: rebuild your week-26 kernel from parts:
//|  *  - struct TileShape<BM, BN, BK, WARPS_M, WARPS_N, STAGES>: the numbers,
//|  *    as static constexpr members (warp tile, mma tiles per warp, smem bytes);
//|  *  - struct SmemLayout<S>: the swizzled offset of a 16-byte chunk;
//|  *  - struct Mainloop<S>: load(stage, k-tile), load_frags(...) and
//|  *    mma_all(...) for one k-step, run(...) with week 26's software
//|  *    pipeline, leaving the accumulators in registers; work out what
//|  *    does not change from one k-tile to the next (each thread's copy
//|  *    addresses, each lane's ldmatrix offsets) once, before the loop;
//|  *  - struct Epilogue<S, Op>: registers -> C through an output functor Op
//|  *    (identity here; bias and activation next week); a float2 store only
//|  *    where N is even and C is 8-byte aligned (C may start at any float);
//|  *  - template <class S, class Op> __global__ gemm_kernel: which tile, run
//|  *    the mainloop, run the epilogue.
//|  * The benchmark compares it with your week-26 kernel (hgemm_mma) in the
//|  * same run, at week 26's tuned shape (128 x 256 x 64, 3 stages): the
//|  * restructured kernel must be as fast (w27.tiled-speed, >= 0.88 of it). */
//@end

cudaError_t hgemm_tiled(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K)
{
    //@solution
    if (M < 0 || N < 0 || K < 0) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    if (K == 0) return cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float));
    return launch_gemm<Shape>((const __half *)A, (const __half *)B, C, M, N, K, OutputIdentity());
    //@starter
    //| (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
    //| return cudaSuccess;
    //@end
}
