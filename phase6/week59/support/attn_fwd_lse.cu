/* attn_fwd_lse.cu — see attn_fwd_lse.h. Week 38's first reference design,
 * plus the log-sum-exp of each row.
 *
 * One block of 8 warps owns 128 query rows of one (batch, head), 16 a warp
 * (the M of one m16n8k16 tile); Q's fragments are loaded into registers once.
 * The block walks the keys 64 at a time, K and V double-buffered by cp.async
 * in XOR-swizzled tiles: S = Q K^T by mma.sync, the online softmax in base 2
 * (m in raw score units, p = 2^(s sl2 - m sl2)), P packed to bf16 straight
 * from the accumulators as the A operand of O += P V. At the end
 * O = acc / l and lse = (m sl2 + log2 l) ln 2 = scale m + ln l. */
#include <math.h>
#include "attn_fwd_lse.h"
#include "bf16_mma.cuh"

#define AF_BM 128     /* query rows a block */
#define AF_BN 64      /* keys a K/V tile */
#define AF_THREADS 256

/* Rows row0 .. row0 + ROWS - 1 of one head's S x D matrix into a swizzled
 * tile, 16 bytes a cp.async; rows past S are zero-filled (nothing read). */
template <int D, int ROWS, int NT>
static __device__ __forceinline__ void af_load_tile(__nv_bfloat16 *dst, const __nv_bfloat16 *src, int row0, int S,
                                                    int tid)
{
    constexpr int CH = D / 8;
    for (int i = tid; i < ROWS * CH; i += NT) {
        int r = i / CH, c = i % CH, gr = row0 + r;
        cp_async16(smem_u32(dst + swz<D>(r, c)), src + (size_t)min(gr, S - 1) * D + c * 8, gr < S);
    }
}

template <int D, bool CAUSAL>
static __global__ void __launch_bounds__(AF_THREADS, 1)
    af_kernel(const __nv_bfloat16 *__restrict__ Q, const __nv_bfloat16 *__restrict__ K,
              const __nv_bfloat16 *__restrict__ V, __nv_bfloat16 *__restrict__ O, float *__restrict__ lse, int S,
              long long bh0, float sl2)
{
    constexpr int KS = D / 16, NO = D / 8, NS = AF_BN / 8;
    extern __shared__ __align__(128) unsigned char smem[];
    __nv_bfloat16 *sQ = reinterpret_cast<__nv_bfloat16 *>(smem); /* AF_BM x D */
    __nv_bfloat16 *sK = sQ + AF_BM * D;                          /* 2 stages of AF_BN x D */
    __nv_bfloat16 *sV = sK + 2 * AF_BN * D;                      /* 2 stages of AF_BN x D */

    const int qt = CAUSAL ? (int)gridDim.x - 1 - (int)blockIdx.x : (int)blockIdx.x; /* longest first */
    const int m0 = qt * AF_BM;
    const long long bh = bh0 + blockIdx.y;
    const size_t head = (size_t)bh * (size_t)S * D;
    const __nv_bfloat16 *q = Q + head, *k = K + head, *v = V + head;
    __nv_bfloat16 *o = O + head;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const int wr0 = m0 + warp * 16;

    af_load_tile<D, AF_BM, AF_THREADS>(sQ, q, m0, S, tid);
    cp_async_commit();
    auto load_kv = [&](int st, int j) {
        af_load_tile<D, AF_BN, AF_THREADS>(sK + st * AF_BN * D, k, j * AF_BN, S, tid);
        af_load_tile<D, AF_BN, AF_THREADS>(sV + st * AF_BN * D, v, j * AF_BN, S, tid);
    };
    int n_kt = (S + AF_BN - 1) / AF_BN;
    if (CAUSAL) n_kt = min(n_kt, (m0 + AF_BM) / AF_BN);
    load_kv(0, 0);
    cp_async_commit();

    cp_async_wait<1>(); /* Q has landed */
    __syncthreads();
    uint32_t qf[KS][4];
#pragma unroll
    for (int ks = 0; ks < KS; ks++)
        ldmatrix_x4(qf[ks], smem_u32(sQ + swz<D>(warp * 16 + (lane & 15), ks * 2 + (lane >> 4))));

    float acc[NO][4];
#pragma unroll
    for (int n = 0; n < NO; n++) acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.f;
    float m_run[2] = { -INFINITY, -INFINITY }, l_run[2] = { 0.f, 0.f }; /* rows g and g + 8 */

    for (int j = 0; j < n_kt; j++) {
        if (j + 1 < n_kt) load_kv((j + 1) & 1, j + 1);
        cp_async_commit();
        cp_async_wait<1>();
        __syncthreads();
        const int k0 = j * AF_BN;
        if (!(CAUSAL && k0 > wr0 + 15)) {
            const __nv_bfloat16 *tk = sK + (j & 1) * AF_BN * D, *tv = sV + (j & 1) * AF_BN * D;
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
            if (k0 + AF_BN > S || (CAUSAL && k0 + AF_BN - 1 > wr0)) {
#pragma unroll
                for (int n = 0; n < NS; n++)
#pragma unroll
                    for (int e = 0; e < 4; e++) {
                        int col = k0 + n * 8 + 2 * t + (e & 1), row = wr0 + g + (e >> 1) * 8;
                        if (col >= S || (CAUSAL && col > row)) s[n][e] = -INFINITY;
                    }
            }
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
                base[h] = mx[h] == -INFINITY ? 0.f : mx[h] * sl2;
                alpha[h] = fast_exp2(fmaf(m_run[h], sl2, -base[h]));
                m_run[h] = mx[h];
            }
            float rs[2] = { 0.f, 0.f };
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
#pragma unroll
            for (int kk = 0; kk < AF_BN / 16; kk++) {
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
        __syncthreads();
    }
    cp_async_wait<0>();

    /* The quad's partial sums; O / l in bf16; lse in natural-log units of the scaled logits. */
#pragma unroll
    for (int h = 0; h < 2; h++) {
        float l = l_run[h];
        l += __shfl_xor_sync(0xffffffffu, l, 1);
        l += __shfl_xor_sync(0xffffffffu, l, 2);
        const float inv = l > 0.f ? 1.f / l : 0.f;
        const int row = wr0 + g + h * 8;
        if (row < S) {
            __nv_bfloat16 *orow = o + (size_t)row * D;
#pragma unroll
            for (int n = 0; n < NO; n++)
                *reinterpret_cast<uint32_t *>(orow + n * 8 + 2 * t) =
                    pack_bf16x2(acc[n][2 * h] * inv, acc[n][2 * h + 1] * inv);
            if (t == 0)
                lse[(size_t)bh * S + row] =
                    l > 0.f ? (m_run[h] * sl2 + log2f(l)) * 0.69314718055994531f : -INFINITY;
        }
    }
}

template <int D, bool CAUSAL>
static cudaError_t af_launch(const __nv_bfloat16 *Q, const __nv_bfloat16 *K, const __nv_bfloat16 *V,
                             __nv_bfloat16 *O, float *lse, long long BH, int S, float sl2)
{
    const int smem = (AF_BM + 4 * AF_BN) * D * 2;
    cudaError_t e = cudaFuncSetAttribute(af_kernel<D, CAUSAL>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e != cudaSuccess) return e;
    const unsigned n_qt = (unsigned)((S + AF_BM - 1) / AF_BM);
    for (long long bh0 = 0; bh0 < BH; bh0 += 65535) { /* grid.y stops at 65535 */
        unsigned nb = (unsigned)(BH - bh0 < 65535 ? BH - bh0 : 65535);
        af_kernel<D, CAUSAL><<<dim3(n_qt, nb), AF_THREADS, smem>>>(Q, K, V, O, lse, S, bh0, sl2);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t attn_fwd_lse(const uint16_t *Q_, const uint16_t *K_, const uint16_t *V_, uint16_t *O_, float *lse,
                         int B, int H, int S, int D, int causal, float scale)
{
    if (B < 0 || H < 0 || S < 0 || (D != 64 && D != 128) || !(scale > 0.f) || !isfinite(scale))
        return cudaErrorInvalidValue;
    if (B == 0 || H == 0 || S == 0) return cudaSuccess;
    if (!Q_ || !K_ || !V_ || !O_ || !lse ||
        (((uintptr_t)Q_ | (uintptr_t)K_ | (uintptr_t)V_ | (uintptr_t)O_) & 15) || ((uintptr_t)lse & 3))
        return cudaErrorInvalidValue;
    const __nv_bfloat16 *Q = reinterpret_cast<const __nv_bfloat16 *>(Q_),
                        *K = reinterpret_cast<const __nv_bfloat16 *>(K_),
                        *V = reinterpret_cast<const __nv_bfloat16 *>(V_);
    __nv_bfloat16 *O = reinterpret_cast<__nv_bfloat16 *>(O_);
    const long long BH = (long long)B * H;
    const float sl2 = scale * 1.4426950408889634f;
    if (D == 64) return causal ? af_launch<64, true>(Q, K, V, O, lse, BH, S, sl2)
                               : af_launch<64, false>(Q, K, V, O, lse, BH, S, sl2);
    return causal ? af_launch<128, true>(Q, K, V, O, lse, BH, S, sl2)
                  : af_launch<128, false>(Q, K, V, O, lse, BH, S, sl2);
}
