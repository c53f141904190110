/* gemm_epilogue.cu — week 28: bias and activation fused into the GEMM's
 * epilogue, and the same work done the slow way for comparison.
 *
 * The kernel is week 27's tile / mainloop / epilogue GEMM unchanged; only the
 * output functor differs. gemm_epilogue_bias_act applies bias[col] and ReLU or GELU to
 * each accumulator in registers, before the single store of C. gemm_epilogue_act does
 * it afterwards as a separate element-wise kernel, which must read all of C
 * back from memory and write it again: for a GEMM with a small K, that round
 * trip costs a large fraction of the GEMM itself. */
#include <cuda_fp16.h>
#include "gemm_epilogue.h"

//@solution
/* ---------------------------------------------------------------- TileShape */
template <int BM_, int BN_, int BK_, int WARPS_M_, int WARPS_N_, int STAGES_> struct TileShape {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_;
    static constexpr int WARPS_M = WARPS_M_, WARPS_N = WARPS_N_, THREADS = 32 * WARPS_M * WARPS_N;
    static constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N; /* warp tile */
    static constexpr int MI = WM / 16, NI = WN / 8;            /* mma tiles per warp */
    static constexpr int SMEM_A = BM * BK, SMEM_B = BK * BN;   /* halves per stage */
    static constexpr int SMEM_BYTES = STAGES * (SMEM_A + SMEM_B) * 2;
    static_assert(BK == 32, "SmemLayout's A swizzle assumes 64-byte rows");
    static_assert(BN % 64 == 0 && WM % 16 == 0 && WN % 16 == 0, "tile shape");
    static_assert((BM * BK / 8) % THREADS == 0 && (BK * BN / 8) % THREADS == 0, "loader shape");
};

/* ---------------------------------------------------------------- SmemLayout */
template <class S> struct SmemLayout {
    /* half offset of 16-byte chunk c of row r in the A tile (64-byte rows) */
    static __device__ __forceinline__ int a(int r, int c) { return r * S::BK + ((c ^ ((r >> 1) & 3)) << 3); }
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
template <class S> struct Mainloop {
    using L = SmemLayout<S>;
    typedef float Acc[S::MI][S::NI][4];

    uint32_t smem;   /* shared address of stage 0 */
    const __half *A, *B;
    int lda, ldb, m0, n0;

    __device__ uint32_t sa(int s) const { return smem + s * (S::SMEM_A + S::SMEM_B) * 2; }
    __device__ uint32_t sb(int s) const { return sa(s) + S::SMEM_A * 2; }

    /* global -> shared: k-tile kt into stage s, 16 bytes a cp.async */
    __device__ __forceinline__ void load(int s, int kt) const
    {
        int k0 = kt * S::BK;
#pragma unroll
        for (int i = 0; i < (S::BM * S::BK / 8) / S::THREADS; i++) {
            int id = threadIdx.x + i * S::THREADS, r = id / (S::BK / 8), c = id % (S::BK / 8);
            ptx::cp_async16(sa(s) + L::a(r, c) * 2, A + (size_t)(m0 + r) * lda + k0 + c * 8);
        }
#pragma unroll
        for (int i = 0; i < (S::BK * S::BN / 8) / S::THREADS; i++) {
            int id = threadIdx.x + i * S::THREADS, k = id / (S::BN / 8), c = id % (S::BN / 8);
            ptx::cp_async16(sb(s) + L::b(k, c) * 2, B + (size_t)(k0 + k) * ldb + n0 + c * 8);
        }
    }

    /* shared -> registers -> tensor cores: one k-tile of this warp's tile */
    __device__ __forceinline__ void compute(int s, int wm, int wn, int lane, Acc &acc) const
    {
#pragma unroll
        for (int kk = 0; kk < S::BK; kk += 16) {
            uint32_t af[S::MI][4], bf[S::NI / 2][4];
#pragma unroll
            for (int mi = 0; mi < S::MI; mi++)
                ptx::ldsm_x4(af[mi], sa(s) + L::a(wm * S::WM + mi * 16 + (lane % 16), kk / 8 + lane / 16) * 2);
#pragma unroll
            for (int nj = 0; nj < S::NI / 2; nj++)
                ptx::ldsm_x4_t(bf[nj], sb(s) + L::b(kk + (lane % 16), (wn * S::WN + nj * 16) / 8 + lane / 16) * 2);
#pragma unroll
            for (int mi = 0; mi < S::MI; mi++)
#pragma unroll
                for (int ni = 0; ni < S::NI; ni++)
                    ptx::mma(acc[mi][ni], af[mi], bf[ni / 2][(ni % 2) * 2], bf[ni / 2][(ni % 2) * 2 + 1]);
        }
    }

    /* The multistage pipeline over all Kp / BK k-tiles. */
    __device__ __forceinline__ void run(int Kp, int wm, int wn, int lane, Acc &acc) const
    {
#pragma unroll
        for (int i = 0; i < S::MI; i++)
#pragma unroll
            for (int j = 0; j < S::NI; j++)
#pragma unroll
                for (int q = 0; q < 4; q++) acc[i][j][q] = 0.f;
        int KT = Kp / S::BK;
#pragma unroll
        for (int s = 0; s < S::STAGES - 1; s++) {
            if (s < KT) load(s, s);
            ptx::commit();
        }
        for (int kt = 0; kt < KT; kt++) {
            ptx::wait<S::STAGES - 2>();
            __syncthreads();
            int nk = kt + S::STAGES - 1;
            if (nk < KT) load(nk % S::STAGES, nk);
            ptx::commit();
            compute(kt % S::STAGES, wm, wn, lane, acc);
        }
        ptx::wait<0>();
    }
};

/* ---------------------------------------------------------------- Epilogue */
/* The activations, one definition for the fused and the separate kernel.
 * ReLU keeps NaN (v < 0 is false for NaN). GELU is the tanh form, computed as
 * 0.5 v (1 + tanh(z)) = v / (1 + exp(-2z)): one fast exponential (__expf,
 * ex2.approx) instead of tanhf, which is several times longer and runs in
 * the epilogue while the tensor cores wait; and __fdividef (v * 1/y), not
 * '/': IEEE division takes a slow path whenever 1 + exp(..) passes 2^126,
 * which happens for every v below about -10. exp overflowing to +inf gives
 * v * 0 = -0 for very negative v, as it should; NaN and +-Inf follow the
 * tanh form (GELU(-Inf) = -Inf * 0 = NaN in both). */
template <int ACT> __device__ __forceinline__ float activate(float v)
{
    if (ACT == ACT_RELU) return v < 0.f ? 0.f : v;
    if (ACT == ACT_GELU) return __fdividef(v, 1.f + __expf(-1.5957691216057308f * (v + 0.044715f * v * v * v)));
    return v;
}

/* The output functor: accumulator -> activation(accumulator + bias[column]).
 * This is the whole of the fusion: the value is still in a register. */
template <int ACT> struct BiasAct {
    const float *bias; /* NULL: no bias */
    __device__ __forceinline__ float operator()(float v, int, int col) const
    {
        return activate<ACT>(bias ? v + __ldg(bias + col) : v);
    }
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
    tile_of<8>(blockIdx.x, p.tiles_m, p.tiles_n, bm, bn);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / S::WARPS_N, wn = warp % S::WARPS_N;
    Mainloop<S> ml = { (uint32_t)__cvta_generic_to_shared(smem), p.A, p.B, p.lda, p.ldb, bm * S::BM, bn * S::BN };
    typename Mainloop<S>::Acc acc;
    ml.run(p.Kp, wm, wn, lane, acc);
    Epilogue<S, Op> epi = { op };
    epi(acc, p.C, p.M, p.N, bm * S::BM, bn * S::BN, wm, wn, lane);
}

/* ---------------------------------------------------------------- the launcher */
using Shape = TileShape<128, 256, 32, 2, 4, 4>;

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

/* The separate pass: C[r][c] = act(C[r][c] + bias[c]), float4 when it can. */
template <int ACT> static __global__ void bias_act_kernel(float *C, const float *bias, size_t total, int N, bool vec)
{
    size_t stride = (size_t)gridDim.x * blockDim.x, i0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (vec) {
        float4 *C4 = (float4 *)C;
        for (size_t i = i0; i < total / 4; i += stride) {
            float4 v = C4[i];
            int c = (int)((i * 4) % N);
            if (bias) v.x += __ldg(bias + c), v.y += __ldg(bias + c + 1), v.z += __ldg(bias + c + 2), v.w += __ldg(bias + c + 3);
            C4[i] = make_float4(activate<ACT>(v.x), activate<ACT>(v.y), activate<ACT>(v.z), activate<ACT>(v.w));
        }
    } else {
        for (size_t i = i0; i < total; i += stride) {
            float v = C[i];
            if (bias) v += __ldg(bias + i % N);
            C[i] = activate<ACT>(v);
        }
    }
}
//@starter
//| /* TODO 1 (fused): take your week-27 kernel and give its epilogue an output
//|  * functor that adds bias[col] (when bias != NULL) and applies the
//|  * activation to each accumulator before the store. Make the activation a
//|  * template parameter so the branch is decided at compile time.
//|  * TODO 2 (separate): an element-wise kernel C = act(C + bias[col]) that
//|  * reads and writes C in place (float4 when N % 4 == 0 and C is 16-byte
//|  * aligned: C may start at any float, so check the pointer too).
//|  * Your week-27 epilogue's float2 store likewise needs N even and C 8-byte
//|  * aligned.
//|  * ReLU: v < 0 ? 0 : v (NaN stays NaN). GELU (tanh form):
//|  * 0.5 v (1 + tanh(0.7978845608 (v + 0.044715 v^3))). */
//@end

cudaError_t gemm_epilogue_bias_act(const uint16_t *A, const uint16_t *B, const float *bias, float *C, int M, int N,
                                   int K, int act)
{
    //@solution
    if (M < 0 || N < 0 || K < 0 || act < ACT_NONE || act > ACT_GELU) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    const __half *a = (const __half *)A, *b = (const __half *)B;
    if (K == 0) { /* C = act(0 + bias) */
        cudaError_t e = cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float));
        return e != cudaSuccess ? e : gemm_epilogue_act(C, bias, M, N, act);
    }
    switch (act) {
    case ACT_RELU: return launch_gemm<Shape>(a, b, C, M, N, K, BiasAct<ACT_RELU>{ bias });
    case ACT_GELU: return launch_gemm<Shape>(a, b, C, M, N, K, BiasAct<ACT_GELU>{ bias });
    default: return launch_gemm<Shape>(a, b, C, M, N, K, BiasAct<ACT_NONE>{ bias });
    }
    //@starter
    //| (void)A, (void)B, (void)bias, (void)C, (void)M, (void)N, (void)K, (void)act;
    //| return cudaSuccess;
    //@end
}

cudaError_t gemm_epilogue_act(float *C, const float *bias, int M, int N, int act)
{
    //@solution
    if (M < 0 || N < 0 || act < ACT_NONE || act > ACT_GELU) return cudaErrorInvalidValue;
    size_t total = (size_t)M * N;
    if (total == 0) return cudaSuccess;
    bool vec = N % 4 == 0 && ((uintptr_t)C & 15) == 0;
    size_t work = vec ? total / 4 : total, blocks = (work + 255) / 256;
    unsigned grid = (unsigned)(blocks < 132u * 32u ? blocks : 132u * 32u);
    if (act == ACT_RELU) bias_act_kernel<ACT_RELU><<<grid, 256>>>(C, bias, total, N, vec);
    else if (act == ACT_GELU) bias_act_kernel<ACT_GELU><<<grid, 256>>>(C, bias, total, N, vec);
    else bias_act_kernel<ACT_NONE><<<grid, 256>>>(C, bias, total, N, vec);
    return cudaGetLastError();
    //@starter
    //| (void)C, (void)bias, (void)M, (void)N, (void)act;
    //| return cudaSuccess;
    //@end
}
