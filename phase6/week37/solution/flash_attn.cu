/* flash_attn.cu — week 37, exercise 2: attention without the S x S matrix.
 *
 * One block owns FA_BR = 64 query rows of one head and walks the keys
 * FA_BC = 64 at a time. Per key tile:
 *   1. load the K and V tiles into shared memory (rows past S as zeros);
 *   2. S_tile = Q_tile K_tile^T, scaled, masked (keys past S; causal j > i);
 *   3. online softmax, row by row: the tile's max, the new running max m',
 *      alpha = exp(m - m'), p = exp(s - m'), l = alpha l + sum p, O = alpha O;
 *   4. O += P V_tile, P through shared memory (in K's place: K is dead once
 *      the logits are in registers).
 * At the end O / l is stored once, and the row's log-sum-exp m + log(l) for
 * the backward pass (one float a row). Q, the running m and l and the O
 * accumulator never leave the chip; nothing of size S x S exists anywhere.
 *
 * 256 threads as 16 x 16: thread (tx, ty) owns rows ty + 16 i (i < 4) of the
 * tile and, of S_tile, columns tx + 16 j (j < 4); of O, the four adjacent
 * columns 4 tx .. 4 tx + 3 of each 64 (D / 16 in all). A row's 16 owners are
 * one half of a warp, so the row max and row sum are four __shfl_xor_sync
 * steps, no shared memory. Both products read shared memory as float4: four
 * d (or four keys) a load, 8 loads per 64 FMAs where one float a load would
 * take 32. Q and K rows are padded to D + 4 floats, P rows to FA_BC + 4, so
 * the float4s stay aligned and the 8 lanes of a quarter warp reading 8 rows
 * at the same d cover the 32 banks once. Exponentials are base 2:
 * scale * log2(e) is folded into the logits, exp2f is one MUFU instruction.
 * Causal blocks stop at the tile of their last row and the grid runs the
 * longest (last) query tiles first. */
#include <math.h>
#include "flash_attn.h"

//@solution
#define FA_THREADS 256

template <int D> struct fa_smem {
    static constexpr int DP = D + 4;          /* padded row of Q and K: float4-aligned, conflict-free */
    static constexpr int BCP = FA_BC + 4;     /* padded row of P (stored in K's place) */
    static_assert(FA_BC * BCP <= FA_BC * DP, "P fits where K was");
    static constexpr size_t floats = (size_t)FA_BR * DP + (size_t)FA_BC * DP + (size_t)FA_BC * D;
    static constexpr size_t bytes = floats * sizeof(float);
    /* blocks an SM: 3 at D = 64 (80 registers a thread), 2 at D = 128 (128) */
    static constexpr int min_blocks = D == 64 ? 3 : 2;
};

template <int D>
static __global__ void __launch_bounds__(FA_THREADS, fa_smem<D>::min_blocks)
flash_fwd(const float *__restrict__ q, const float *__restrict__ k, const float *__restrict__ v,
          float *__restrict__ o, float *__restrict__ lse, int bh_count, int S, float scale_log2, int causal)
{
    constexpr int DP = fa_smem<D>::DP, BCP = fa_smem<D>::BCP, DJ = D / 16, DG = D / 64;
    extern __shared__ float4 smem4[];
    float *Qs = reinterpret_cast<float *>(smem4); /* [FA_BR][DP] */
    float *Ks = Qs + FA_BR * DP;                  /* [FA_BC][DP] */
    float *Vs = Ks + FA_BC * DP;                  /* [FA_BC][D]  */
    float *Ps = Ks;                               /* [FA_BR][BCP], once the logits are in registers */

    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const int q0 = (int)(gridDim.x - 1 - blockIdx.x) * FA_BR; /* longest causal tiles first */
    const int kv_end = causal ? min(S, q0 + FA_BR) : S;       /* keys this tile sees: [0, kv_end) */

    for (int bh = blockIdx.y; bh < bh_count; bh += gridDim.y) {
        const size_t base = (size_t)bh * S * D;
        const float *qh = q + base, *kh = k + base, *vh = v + base;

        for (int e = tid; e < FA_BR * D; e += FA_THREADS) {
            int r = e / D, d = e % D;
            Qs[r * DP + d] = q0 + r < S ? qh[(size_t)(q0 + r) * D + d] : 0.0f;
        }

        /* acc[i][4 g + t]: row ty + 16 i, column 64 g + 4 tx + t */
        float m[4], l[4], acc[4][DJ];
#pragma unroll
        for (int i = 0; i < 4; i++) {
            m[i] = -INFINITY, l[i] = 0.0f;
#pragma unroll
            for (int j = 0; j < DJ; j++) acc[i][j] = 0.0f;
        }

        for (int kv0 = 0; kv0 < kv_end; kv0 += FA_BC) {
            __syncthreads(); /* the last tile's readers of Ps (= Ks) and Vs are done */
            for (int e = tid; e < FA_BC * D; e += FA_THREADS) {
                int r = e / D, d = e % D;
                bool in = kv0 + r < S;
                size_t g = (size_t)(kv0 + r) * D + d;
                Ks[r * DP + d] = in ? kh[g] : 0.0f;
                Vs[r * D + d] = in ? vh[g] : 0.0f;
            }
            __syncthreads(); /* Q (first tile), K and V are in */

            float s[4][4];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) s[i][j] = 0.0f;
#pragma unroll 1 /* unrolled, the next step's loads cost registers that the third block needs */
            for (int d = 0; d < D; d += 4) {
                float4 a[4], b[4];
#pragma unroll
                for (int i = 0; i < 4; i++) a[i] = *reinterpret_cast<const float4 *>(&Qs[(ty + 16 * i) * DP + d]);
#pragma unroll
                for (int j = 0; j < 4; j++) b[j] = *reinterpret_cast<const float4 *>(&Ks[(tx + 16 * j) * DP + d]);
#pragma unroll
                for (int i = 0; i < 4; i++)
#pragma unroll
                    for (int j = 0; j < 4; j++) {
                        s[i][j] = fmaf(a[i].x, b[j].x, s[i][j]);
                        s[i][j] = fmaf(a[i].y, b[j].y, s[i][j]);
                        s[i][j] = fmaf(a[i].z, b[j].z, s[i][j]);
                        s[i][j] = fmaf(a[i].w, b[j].w, s[i][j]);
                    }
            }

#pragma unroll
            for (int i = 0; i < 4; i++) {
                const int row = q0 + ty + 16 * i;
                float mx = -INFINITY;
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int col = kv0 + tx + 16 * j;
                    const bool seen = col < S && (!causal || col <= row);
                    s[i][j] = seen ? s[i][j] * scale_log2 : -INFINITY;
                    mx = fmaxf(mx, s[i][j]);
                }
                /* the row's 16 owners are lanes 0-15 or 16-31 of this warp */
#pragma unroll
                for (int off = 8; off > 0; off >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
                const float m_new = fmaxf(m[i], mx);
                const float m_use = m_new == -INFINITY ? 0.0f : m_new; /* a row with nothing seen yet */
                const float alpha = exp2f(m[i] - m_use);                 /* 0 on the first tile */
                float rs = 0.0f;
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    s[i][j] = exp2f(s[i][j] - m_use); /* masked: exp2(-inf) = 0 */
                    rs += s[i][j];
                }
#pragma unroll
                for (int off = 8; off > 0; off >>= 1) rs += __shfl_xor_sync(0xffffffffu, rs, off);
                l[i] = l[i] * alpha + rs;
                m[i] = m_new;
#pragma unroll
                for (int j = 0; j < DJ; j++) acc[i][j] *= alpha;
            }
            __syncthreads(); /* every thread's logits are computed: K is dead, P may overwrite it */
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) Ps[(ty + 16 * i) * BCP + tx + 16 * j] = s[i][j];
            __syncthreads(); /* P is in */

#pragma unroll 1
            for (int c = 0; c < FA_BC; c += 4) {
                float4 p[4];
#pragma unroll
                for (int i = 0; i < 4; i++) p[i] = *reinterpret_cast<const float4 *>(&Ps[(ty + 16 * i) * BCP + c]);
#pragma unroll
                for (int cc = 0; cc < 4; cc++) {
                    float4 b[DG];
#pragma unroll
                    for (int g = 0; g < DG; g++)
                        b[g] = *reinterpret_cast<const float4 *>(&Vs[(c + cc) * D + 64 * g + 4 * tx]);
#pragma unroll
                    for (int i = 0; i < 4; i++) {
                        const float pi = cc == 0 ? p[i].x : cc == 1 ? p[i].y : cc == 2 ? p[i].z : p[i].w;
#pragma unroll
                        for (int g = 0; g < DG; g++) {
                            acc[i][4 * g + 0] = fmaf(pi, b[g].x, acc[i][4 * g + 0]);
                            acc[i][4 * g + 1] = fmaf(pi, b[g].y, acc[i][4 * g + 1]);
                            acc[i][4 * g + 2] = fmaf(pi, b[g].z, acc[i][4 * g + 2]);
                            acc[i][4 * g + 3] = fmaf(pi, b[g].w, acc[i][4 * g + 3]);
                        }
                    }
                }
            }
        }

#pragma unroll
        for (int i = 0; i < 4; i++) {
            const int row = q0 + ty + 16 * i;
            if (row < S) {
                const float inv = l[i] > 0.0f ? 1.0f / l[i] : 0.0f; /* a row that saw no key: O = 0 */
                float *orow = o + base + (size_t)row * D; /* any alignment: scalar stores */
#pragma unroll
                for (int g = 0; g < DG; g++)
#pragma unroll
                    for (int t = 0; t < 4; t++) orow[64 * g + 4 * tx + t] = acc[i][4 * g + t] * inv;
                /* m is in log2 units (scale log2 e folded in): lse = ln 2 (m + log2 l), natural
                 * log; -inf for a row that saw no key. Every owner of the row holds m and l. */
                if (tx == 0) lse[(size_t)bh * S + row] = (m[i] + log2f(l[i])) * 0.69314718055994531f;
            }
        }
        __syncthreads(); /* before the next head's Q overwrites Qs */
    }
}

template <int D>
static cudaError_t launch_flash(const float *q, const float *k, const float *v, float *o, float *lse, int bh,
                                int S, float scale, int causal)
{
    const size_t smem = fa_smem<D>::bytes;
    cudaError_t e = cudaFuncSetAttribute(flash_fwd<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess) return e;
    dim3 grid((unsigned)((S + FA_BR - 1) / FA_BR), (unsigned)(bh < 65535 ? bh : 65535));
    const float scale_log2 = scale * 1.4426950408889634f; /* exp(x) = exp2(x log2 e) */
    flash_fwd<D><<<grid, FA_THREADS, smem>>>(q, k, v, o, lse, bh, S, scale_log2, causal);
    return cudaGetLastError();
}
//@starter
//| /* TODO: the kernel. A block of 256 threads owns FA_BR query rows of one
//|  * head (blockIdx.y) and loops over the keys FA_BC at a time: load the K and
//|  * V tiles into shared memory (zeros past S), compute the FA_BR x FA_BC
//|  * logits from the Q tile (loaded once), mask (keys past S; causal: key >
//|  * query), then per row: the tile's max, the new running max m', alpha =
//|  * exp(m - m'), p = exp(s - m'), l = alpha * l + sum(p), O = alpha * O +
//|  * P V_tile. After the last tile store, for the rows below S, O / l and the
//|  * log-sum-exp m + log(l) (natural log: mind the base if you work in
//|  * base 2). Read the README's "Background" and the hints
//|  * (`make phase6/week37 hint`). */
//@end

cudaError_t flash_attn(const float *q, const float *k, const float *v, float *o, float *lse, int bh, int S, int D,
                       float scale, int causal)
{
    //@solution
    if ((D != 64 && D != 128) || bh < 0 || S < 0 || S >= (1 << 30)) return cudaErrorInvalidValue;
    if (bh == 0 || S == 0) return cudaSuccess;
    return D == 64 ? launch_flash<64>(q, k, v, o, lse, bh, S, scale, causal)
                   : launch_flash<128>(q, k, v, o, lse, bh, S, scale, causal);
    //@starter
    //| /* TODO: check the arguments (D of 64 or 128, else cudaErrorInvalidValue;
    //|  * nothing to do for S == 0 or bh == 0), opt in to the dynamic shared
    //|  * memory your kernel needs past 48 KB (cudaFuncSetAttribute), launch
    //|  * ceil(S / FA_BR) x bh blocks (gridDim.y is at most 65535: loop), and
    //|  * return cudaGetLastError(). */
    //| (void)q, (void)k, (void)v, (void)o, (void)lse, (void)bh, (void)S, (void)D, (void)scale, (void)causal;
    //| return cudaSuccess;
    //@end
}
