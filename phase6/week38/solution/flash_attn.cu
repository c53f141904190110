/* flash_attn.cu — week 38: FlashAttention-2 forward with BF16 mma.sync.
 *
 * One block of 8 warps owns 128 query rows of one (batch, head); each warp
 * owns 16 of them, the M of one m16n8k16 tile. The block walks the keys 64 at
 * a time. For each K/V tile a warp
 *   1. computes S = Q K^T (16 x 64) with mma.sync: Q's fragments were loaded
 *      once into registers, K's come from shared memory by ldmatrix;
 *   2. updates its running row maxima and sums (online softmax, FP32) and
 *      turns S into P = exp2(S * scale * log2 e - m * scale * log2 e) in the
 *      same registers;
 *   3. packs P to bf16: the accumulator layout of two adjacent 16 x 8 tiles is
 *      exactly the A-operand layout of one 16 x 16 tile, so P never touches
 *      shared memory; O += P V with V's fragments by ldmatrix.trans.
 * K and V tiles are double-buffered: cp.async fetches tile j+1 while tile j
 * is computed. Shared rows are XOR-swizzled at 16-byte granularity so the 8
 * rows one ldmatrix phase reads fall in 8 different bank groups.
 *
 * The grid is (query tiles, batch x head): consecutive blocks share a head,
 * so the K and V of the few heads in flight stay in L2. Causal blocks run the
 * last query tiles (the longest) first. */
#include <cuda_bf16.h>
#include <math.h>
#include "flash_attn.h"

#define FA_BM 128     /* query rows per block */
#define FA_BN 64      /* keys per K/V tile */
#define FA_THREADS 256 /* 8 warps of 16 query rows */

/* ---- PTX wrappers (the week 26 ones, for bf16), given. [[maybe_unused]]:
 * the starter does not call them yet. ---------------------------------- */

[[maybe_unused]] static __device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

/* 16 bytes global -> shared; when !full nothing is read and the 16 bytes are
 * zero-filled (src must still be a valid address). */
[[maybe_unused]] static __device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, bool full)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(full ? 16 : 0)
                 : "memory");
}
[[maybe_unused]] static __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> static __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

[[maybe_unused]] static __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
[[maybe_unused]] static __device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}

/* c += a (16 x 16, row) * b (16 x 8, col); bf16 in, fp32 accumulate.
 * g = lane / 4, t = lane % 4: a holds rows g, g+8 x k 2t..2t+1, 2t+8..2t+9;
 * b holds k 2t..2t+1, 2t+8..2t+9 x column g; c holds rows g, g+8 x columns 2t, 2t+1. */
[[maybe_unused]] static __device__ __forceinline__ void mma_bf16_16816(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* Two floats to one bf16x2 register: lo in the low half (the lower k). */
[[maybe_unused]] static __device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi)
{
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
}

/* 2^x on the special-function unit; 2^-inf = +0. */
[[maybe_unused]] static __device__ __forceinline__ float fast_exp2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}

/* Element offset of 16-byte chunk c of row r in a tile with rows of D bf16,
 * the chunk XORed with the row's low 3 bits. */
template <int D> static __device__ __forceinline__ int swz(int r, int c) { return r * D + ((c ^ (r & 7)) << 3); }

//@solution
template <int D, bool CAUSAL>
static __global__ void __launch_bounds__(FA_THREADS, 1)
    fa_fwd_kernel(const __nv_bfloat16 *__restrict__ Q, const __nv_bfloat16 *__restrict__ K,
                  const __nv_bfloat16 *__restrict__ V, __nv_bfloat16 *__restrict__ O, int S, long long bh0, float sl2)
{
    constexpr int CH = D / 8;   /* 16-byte chunks in a row */
    constexpr int KS = D / 16;  /* k-steps of Q K^T over the head dimension */
    constexpr int NO = D / 8;   /* 16 x 8 tiles of a warp's O */
    constexpr int NS = FA_BN / 8; /* 16 x 8 tiles of a warp's S */
    extern __shared__ __align__(128) unsigned char smem[];
    __nv_bfloat16 *sQ = reinterpret_cast<__nv_bfloat16 *>(smem); /* FA_BM x D */
    __nv_bfloat16 *sK = sQ + FA_BM * D;                          /* 2 stages of FA_BN x D */
    __nv_bfloat16 *sV = sK + 2 * FA_BN * D;                      /* 2 stages of FA_BN x D */

    const int qt = CAUSAL ? (int)gridDim.x - 1 - (int)blockIdx.x : (int)blockIdx.x;
    const int m0 = qt * FA_BM;
    const size_t head = (size_t)(bh0 + blockIdx.y) * (size_t)S * D;
    const __nv_bfloat16 *q = Q + head, *k = K + head, *v = V + head;
    __nv_bfloat16 *o = O + head;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const int wr0 = m0 + warp * 16; /* this warp's first query row */

    /* Q tile; rows past S are zeros (their outputs are never written). */
    for (int i = tid; i < FA_BM * CH; i += FA_THREADS) {
        int r = i / CH, c = i % CH, gr = m0 + r;
        cp_async16(smem_u32(sQ + swz<D>(r, c)), q + (size_t)min(gr, S - 1) * D + c * 8, gr < S);
    }
    cp_async_commit();

    auto load_kv = [&](int st, int j) {
        __nv_bfloat16 *dk = sK + st * FA_BN * D, *dv = sV + st * FA_BN * D;
        for (int i = tid; i < FA_BN * CH; i += FA_THREADS) {
            int r = i / CH, c = i % CH, gr = j * FA_BN + r;
            size_t off = (size_t)min(gr, S - 1) * D + c * 8;
            /* keys past S: zeros, so that P (0 there) times V adds nothing, never 0 * garbage */
            cp_async16(smem_u32(dk + swz<D>(r, c)), k + off, gr < S);
            cp_async16(smem_u32(dv + swz<D>(r, c)), v + off, gr < S);
        }
    };

    int n_kt = (S + FA_BN - 1) / FA_BN;
    if (CAUSAL) n_kt = min(n_kt, (m0 + FA_BM) / FA_BN); /* the last row m0+127 sees keys up to itself */
    load_kv(0, 0);
    cp_async_commit();

    cp_async_wait<1>(); /* Q has landed (groups complete in order) */
    __syncthreads();
    uint32_t qf[KS][4];
#pragma unroll
    for (int ks = 0; ks < KS; ks++) /* lane: row lane % 16 of the warp's slab, chunk 2 ks + lane / 16 */
        ldmatrix_x4(qf[ks], smem_u32(sQ + swz<D>(warp * 16 + (lane & 15), ks * 2 + (lane >> 4))));

    float acc[NO][4];
#pragma unroll
    for (int n = 0; n < NO; n++) acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.f;
    float m_run[2] = { -INFINITY, -INFINITY }, l_run[2] = { 0.f, 0.f }; /* rows g and g + 8 */

    for (int j = 0; j < n_kt; j++) {
        if (j + 1 < n_kt) load_kv((j + 1) & 1, j + 1); /* the stage read in iteration j-1: freed by its barrier */
        cp_async_commit();                              /* (an empty group on the last tile keeps the count) */
        cp_async_wait<1>();                             /* tile j has landed for this thread ... */
        __syncthreads();                                /* ... and for every thread */

        const int k0 = j * FA_BN;
        /* Causal: a warp whose rows all precede every key of the tile has nothing to do here. */
        if (!(CAUSAL && k0 > wr0 + 15)) {
            const __nv_bfloat16 *tk = sK + (j & 1) * FA_BN * D, *tv = sV + (j & 1) * FA_BN * D;

            /* 1. S = Q K^T: K rows are the columns of B, stored n-major: ldmatrix without .trans.
             *    lanes 0-7: keys 0-7 chunk 2ks; 8-15: keys 0-7 chunk 2ks+1; 16-23: keys 8-15
             *    chunk 2ks; 24-31: keys 8-15 chunk 2ks+1 -> b0, b1 of n-tile 2np, b0, b1 of 2np+1. */
            float s[NS][4];
#pragma unroll
            for (int n = 0; n < NS; n++) s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.f;
#pragma unroll
            for (int ks = 0; ks < KS; ks++)
#pragma unroll
                for (int np = 0; np < NS / 2; np++) {
                    uint32_t kb[4];
                    ldmatrix_x4(kb, smem_u32(tk + swz<D>(np * 16 + (lane & 7) + ((lane >> 4) << 3),
                                                         ks * 2 + ((lane >> 3) & 1))));
                    mma_bf16_16816(s[2 * np], qf[ks], kb[0], kb[1]);
                    mma_bf16_16816(s[2 * np + 1], qf[ks], kb[2], kb[3]);
                }

            /* Masks: keys past S, and (causal) keys after the query. */
            if (k0 + FA_BN > S || (CAUSAL && k0 + FA_BN - 1 > wr0)) {
#pragma unroll
                for (int n = 0; n < NS; n++)
#pragma unroll
                    for (int e = 0; e < 4; e++) {
                        int col = k0 + n * 8 + 2 * t + (e & 1), row = wr0 + g + (e >> 1) * 8;
                        if (col >= S || (CAUSAL && col > row)) s[n][e] = -INFINITY;
                    }
            }

            /* 2. Online softmax. A row lives in the 4 lanes of a quad (same g): max over the
             *    thread's 16 values, then over the quad with two xor shuffles. */
            float mx[2] = { m_run[0], m_run[1] };
#pragma unroll
            for (int n = 0; n < NS; n++) {
                mx[0] = fmaxf(mx[0], fmaxf(s[n][0], s[n][1]));
                mx[1] = fmaxf(mx[1], fmaxf(s[n][2], s[n][3]));
            }
            float base[2], alpha[2];
#pragma unroll
            for (int h = 0; h < 2; h++) {
                mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 1));
                mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 2));
                base[h] = mx[h] == -INFINITY ? 0.f : mx[h] * sl2;   /* a row with nothing seen yet */
                alpha[h] = fast_exp2(fmaf(m_run[h], sl2, -base[h])); /* 0 the first time (m_run -inf) */
                m_run[h] = mx[h];
            }
            float rs[2] = { 0.f, 0.f }; /* this thread's part of the row sums; the quad adds up at the end */
#pragma unroll
            for (int n = 0; n < NS; n++) {
                s[n][0] = fast_exp2(fmaf(s[n][0], sl2, -base[0]));
                s[n][1] = fast_exp2(fmaf(s[n][1], sl2, -base[0]));
                s[n][2] = fast_exp2(fmaf(s[n][2], sl2, -base[1]));
                s[n][3] = fast_exp2(fmaf(s[n][3], sl2, -base[1]));
                rs[0] += s[n][0] + s[n][1];
                rs[1] += s[n][2] + s[n][3];
            }
            l_run[0] = l_run[0] * alpha[0] + rs[0];
            l_run[1] = l_run[1] * alpha[1] + rs[1];
#pragma unroll
            for (int n = 0; n < NO; n++) {
                acc[n][0] *= alpha[0], acc[n][1] *= alpha[0];
                acc[n][2] *= alpha[1], acc[n][3] *= alpha[1];
            }

            /* 3. O += P V. P's k-step kk is S's n-tiles 2kk and 2kk+1: a0 = (g, 2t..) of 2kk,
             *    a1 = (g+8, 2t..) of 2kk, a2 = (g, 2t..) of 2kk+1, a3 = (g+8, 2t..) of 2kk+1.
             *    V is stored k-major (keys are rows): ldmatrix.trans, lane: key row lane % 16,
             *    chunk 2dp + lane / 16 -> b0, b1 of O n-tile 2dp, b0, b1 of 2dp+1. */
#pragma unroll
            for (int kk = 0; kk < FA_BN / 16; kk++) {
                uint32_t pa[4] = { pack_bf16x2(s[2 * kk][0], s[2 * kk][1]), pack_bf16x2(s[2 * kk][2], s[2 * kk][3]),
                                   pack_bf16x2(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                                   pack_bf16x2(s[2 * kk + 1][2], s[2 * kk + 1][3]) };
#pragma unroll
                for (int dp = 0; dp < NO / 2; dp++) {
                    uint32_t vb[4];
                    ldmatrix_x4_trans(vb, smem_u32(tv + swz<D>(kk * 16 + (lane & 15), dp * 2 + (lane >> 4))));
                    mma_bf16_16816(acc[2 * dp], pa, vb[0], vb[1]);
                    mma_bf16_16816(acc[2 * dp + 1], pa, vb[2], vb[3]);
                }
            }
        }
        __syncthreads(); /* everyone is done with stage j & 1 before iteration j+1 refills it */
    }
    cp_async_wait<0>();

    /* Epilogue: the quad's partial sums, then O / l rounded to bf16, two columns a store. */
#pragma unroll
    for (int h = 0; h < 2; h++) {
        float l = l_run[h];
        l += __shfl_xor_sync(0xffffffffu, l, 1);
        l += __shfl_xor_sync(0xffffffffu, l, 2);
        float inv = l > 0.f ? 1.f / l : 0.f;
        int row = wr0 + g + h * 8;
        if (row < S) {
            __nv_bfloat16 *orow = o + (size_t)row * D;
#pragma unroll
            for (int n = 0; n < NO; n++)
                *reinterpret_cast<uint32_t *>(orow + n * 8 + 2 * t) =
                    pack_bf16x2(acc[n][2 * h] * inv, acc[n][2 * h + 1] * inv);
        }
    }
}

template <int D, bool CAUSAL>
static cudaError_t fa_launch(const __nv_bfloat16 *Q, const __nv_bfloat16 *K, const __nv_bfloat16 *V, __nv_bfloat16 *O,
                             long long BH, int S, float sl2)
{
    const int smem = (FA_BM + 4 * FA_BN) * D * 2; /* Q + 2 stages of K and V: 96 KB at D = 128 */
    cudaError_t e = cudaFuncSetAttribute(fa_fwd_kernel<D, CAUSAL>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e != cudaSuccess) return e;
    const unsigned n_qt = (unsigned)((S + FA_BM - 1) / FA_BM);
    for (long long bh0 = 0; bh0 < BH; bh0 += 65535) { /* grid.y is at most 65535 */
        unsigned nb = (unsigned)(BH - bh0 < 65535 ? BH - bh0 : 65535);
        fa_fwd_kernel<D, CAUSAL><<<dim3(n_qt, nb), FA_THREADS, smem>>>(Q, K, V, O, S, bh0, sl2);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    return cudaSuccess;
}
//@starter
//| /* TODO: the kernel and its launch. Suggested shape (README, "Tasks"):
//|  * a block of 8 warps per 128 query rows of one (batch, head), grid
//|  * (ceil(S / 128), B * H) with the query tiles fastest so the blocks in
//|  * flight share K and V in L2; each warp owns 16 rows.
//|  *  1. cp.async Q (128 x D) into shared memory, ldmatrix it into registers
//|  *     once: qf[D / 16][4], the A fragments of every k-step.
//|  *  2. Walk the keys 64 at a time, K and V double-buffered by cp.async
//|  *     (zero-fill rows past S: the `full` argument of cp_async16).
//|  *  3. Per tile: S = Q K^T (mma_bf16_16816, K by ldmatrix_x4), mask keys
//|  *     past S and, causal, keys after the query (-INFINITY); the row max
//|  *     over the quad (__shfl_xor_sync 1 and 2); P = fast_exp2(s * sl2 -
//|  *     m * sl2) with sl2 = scale * log2(e); rescale O and l by
//|  *     fast_exp2((m_old - m_new) * sl2); pack P to bf16 (pack_bf16x2) as
//|  *     the A operand of O += P V (V by ldmatrix_x4_trans).
//|  *  4. Sum l over the quad, write O / l as bf16 for rows < S.
//|  * The helpers above (swz, cp_async16, ldmatrix_x4, mma_bf16_16816, ...)
//|  * are given. 96 KB of shared memory at D = 128 needs
//|  * cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...). */
//@end

cudaError_t flash_attn_fwd(const uint16_t *Q_, const uint16_t *K_, const uint16_t *V_, uint16_t *O_, int B, int H,
                           int S, int D, int causal, float scale)
{
    if (B < 0 || H < 0 || S < 0 || (D != 64 && D != 128) || !(scale > 0.f) || !isfinite(scale))
        return cudaErrorInvalidValue;
    if (B == 0 || H == 0 || S == 0) return cudaSuccess;
    if (!Q_ || !K_ || !V_ || !O_ || (((uintptr_t)Q_ | (uintptr_t)K_ | (uintptr_t)V_ | (uintptr_t)O_) & 15))
        return cudaErrorInvalidValue;
    //@solution
    const __nv_bfloat16 *Q = reinterpret_cast<const __nv_bfloat16 *>(Q_), *K = reinterpret_cast<const __nv_bfloat16 *>(K_),
                        *V = reinterpret_cast<const __nv_bfloat16 *>(V_);
    __nv_bfloat16 *O = reinterpret_cast<__nv_bfloat16 *>(O_);
    const long long BH = (long long)B * H;
    const float sl2 = scale * 1.4426950408889634f; /* exp(x scale) = 2^(x scale log2 e) */
    if (D == 64) return causal ? fa_launch<64, true>(Q, K, V, O, BH, S, sl2) : fa_launch<64, false>(Q, K, V, O, BH, S, sl2);
    return causal ? fa_launch<128, true>(Q, K, V, O, BH, S, sl2) : fa_launch<128, false>(Q, K, V, O, BH, S, sl2);
    //@starter
    //| /* TODO: pick the kernel for D (64 or 128) and causal, and launch it (see above). */
    //| return cudaSuccess;
    //@end
}
