// fa3_fwd.cu — week 62: the attention forward of week 38 rebuilt the Hopper
// way, FlashAttention-3's structure: TMA loads into a ring, wgmma for both
// products, a producer and two consumer warpgroups.
//
// One CTA per (128-query tile, head): grid (query tiles, B * H), 384 threads.
//   warpgroup 0, the producer (setmaxnreg.dec to 24): one thread loads the
//     Q tile once (TMA, two 64-column boxes), then K and V tiles of 128 keys
//     into two 2-stage rings (32 KiB a tile), each stage guarded by a `full`
//     and an `empty` mbarrier, key tile n in stage n % 2 with phase parity
//     (n / 2) & 1. The tensor maps are 3-D (d, row, head): rows past S come
//     in as zeros, never another head's.
//   warpgroups 1 and 2, the consumers (setmaxnreg.inc to 240): query rows
//     0-63 and 64-127 of the tile. Per key tile: S = Q K^T by eight wgmma
//     m64n128k16 (A = Q, B = K, both K-major from shared memory), the stage
//     of K handed back; the online softmax in registers on the
//     accumulators' layout (base 2, the scale folded into one FFMA); P
//     rounded to bf16 in registers, which ARE the A fragments of O += P V:
//     eight wgmma m64n128k16 with A from registers and V (MN-major: keys are
//     K, D contiguous) from shared memory; the stage of V handed back.
//   Epilogue: O / l to bf16 straight from registers, guarded at S; lse.
// Causal: the CTA of query tile qt needs key tiles 0..qt only (tiles of
// queries and keys are both 128), the mask only in tile qt; the longest
// tiles are launched first (blockIdx.x reversed).
//
// sm_90a code (week.txt: nvflags -gencode=arch=compute_90a,code=sm_90a).
#include <cuda.h>  // CUtensorMap: the type only, nothing links libcuda
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "fa3_fwd.h"
#include "support/fa3_ptx.cuh"  // given: tma_load_3d, the two wgmmas, pin64, fast_exp2, pack_bf16x2
                                // (and, through it, phase 5's hopper_ptx.cuh and tma_ptx.h, common/include)

// ---------------------------------------------------------------- the descriptors (CPU)

extern "C" int fa3_fwd_desc(int operand, uint32_t tile_addr, int kk, uint64_t *desc)
{
    if (!desc || (operand != FA3_DESC_QK && operand != FA3_DESC_V) || kk < 0 || kk > 7 || tile_addr % 1024 != 0 ||
        tile_addr > (1u << 18) - 32768u)
        return -1;
    //@solution
    uint32_t start, lbo;
    if (operand == FA3_DESC_QK) {
        start = tile_addr + 16384u * (uint32_t)(kk / 4) + 32u * (uint32_t)(kk % 4);
        lbo = 16;  // unused by a swizzled K-major layout: 1 in the field by convention
    } else {
        start = tile_addr + 2048u * (uint32_t)kk;
        lbo = 16384;  // MN-major: from D columns 0-63 to 64-127
    }
    const uint32_t sbo = 1024;  // from one 8-row (8-key) group to the next
    *desc = (uint64_t)(start >> 4) | (uint64_t)(lbo >> 4) << 16 | (uint64_t)(sbo >> 4) << 32 | (uint64_t)1 << 62;
    return 0;
    //@starter
    //| /* TODO (README, task 1): week 54's encoding. QK: start tile_addr +
    //|  * 16384 (kk / 4) + 32 (kk % 4), LBO 16, SBO 1024; V: start tile_addr +
    //|  * 2048 kk, LBO 16384, SBO 1024; both base offset 0, swizzle 128B (1). */
    //| (void)operand, (void)tile_addr, (void)kk, (void)desc;
    //| return -1;
    //@end
}

namespace {

constexpr int HD = 128;                     // the head size D
constexpr int BM = 128, BN = 128;           // query rows a CTA, keys a tile
constexpr int HALF = 64;                    // D columns a TMA box: 128 bytes, the 128B swizzle's span
constexpr int STAGES = 2;                   // K and V tiles in flight a ring
constexpr int CONSUMERS = 2;                // warpgroups of 64 query rows
constexpr int THREADS = 128 * (1 + CONSUMERS);
constexpr uint32_t HALF_BYTES = BN * HALF * 2, TILE_BYTES = 2 * HALF_BYTES;  // 16 KiB, 32 KiB
// Shared memory from the 1024-byte aligned base: Q, then K stages, then V stages.
[[maybe_unused]] constexpr uint32_t Q_OFF = 0, K_OFF = TILE_BYTES;
constexpr uint32_t V_OFF = K_OFF + STAGES * TILE_BYTES;
constexpr uint32_t SMEM_ALIGN = 1024;  // the 128B swizzle repeats every 1024 bytes
constexpr size_t SMEM_BYTES = V_OFF + STAGES * TILE_BYTES + SMEM_ALIGN;
static_assert(SMEM_BYTES + 128 <= 227 * 1024, "Q + two rings + the mbarriers: 227 KiB a CTA at most");
static_assert(BM == BN, "causal: query tile qt ends on key tile qt (the only tile the mask cuts)");
[[maybe_unused]] constexpr int PRODUCER_REGS = 24, CONSUMER_REGS = 240;  // 128 x 24 + 256 x 240 <= 65536
[[maybe_unused]] constexpr float LN2 = 0.6931471805599453f;

// The kernel. qk0, v0: the descriptors fa3_fwd_desc gives for tile address
// 0 and kk = 0; a tile at byte address a and step kk is the template plus
// (a + the step's offset) >> 4 (the start field, which never carries: every
// address is below 2^18). sl2 = scale * log2(e).
__global__ void __launch_bounds__(THREADS, 1) fa3_fwd_kernel(const __grid_constant__ CUtensorMap q_map,
                                                             const __grid_constant__ CUtensorMap k_map,
                                                             const __grid_constant__ CUtensorMap v_map, uint16_t *O,
                                                             float *lse, int S, int causal, float sl2, uint64_t qk0,
                                                             uint64_t v0)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // Any pass that is not sm_90a has no wgmma: a trap there (the tests skip first).
    __trap();
#else
    //@solution
    __shared__ __align__(8) uint64_t q_full, k_full[STAGES], k_empty[STAGES], v_full[STAGES], v_empty[STAGES];
    extern __shared__ unsigned char dyn[];
    const uint32_t base = (smem_u32(dyn) + SMEM_ALIGN - 1) & ~(SMEM_ALIGN - 1);
    const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
    const int qt = causal ? (int)(gridDim.x - 1 - blockIdx.x) : (int)blockIdx.x, bh = (int)blockIdx.y;
    const int m0 = qt * BM;
    const int key_tiles = (S + BN - 1) / BN;
    const int n_tiles = causal ? min(qt + 1, key_tiles) : key_tiles;

    if (threadIdx.x == 0) {
        prefetch_map(&q_map);
        prefetch_map(&k_map);
        prefetch_map(&v_map);
        mbar_init(smem_u32(&q_full), 1);
        for (int s = 0; s < STAGES; s++) {
            mbar_init(smem_u32(&k_full[s]), 1);                  // the producer's arrive_expect_tx
            mbar_init(smem_u32(&v_full[s]), 1);
            mbar_init(smem_u32(&k_empty[s]), CONSUMERS * 128);  // every consumer thread
            mbar_init(smem_u32(&v_empty[s]), CONSUMERS * 128);
        }
        fence_mbar_init();
    }
    __syncthreads();  // the only CTA-wide barrier: after it the roles meet at mbarriers

    if (wg == 0) {  // ---------------- the producer
        regs_dealloc<PRODUCER_REGS>();
        if (t == 0) {
            const uint32_t qb = smem_u32(&q_full);
            mbar_arrive_expect_tx(qb, TILE_BYTES);
            tma_load_3d(base + Q_OFF, &q_map, qb, 0, m0, bh);
            tma_load_3d(base + Q_OFF + HALF_BYTES, &q_map, qb, HALF, m0, bh);
            for (int n = 0; n < n_tiles; n++) {
                const int s = n % STAGES;
                const uint32_t ph = (uint32_t)(n / STAGES) & 1;
                // use n / STAGES of stage s waits for the release of use n - STAGES (the other parity)
                if (n >= STAGES) mbar_wait_loop(smem_u32(&k_empty[s]), ph ^ 1);
                const uint32_t kb = smem_u32(&k_full[s]), ka = base + K_OFF + s * TILE_BYTES;
                mbar_arrive_expect_tx(kb, TILE_BYTES);
                tma_load_3d(ka, &k_map, kb, 0, n * BN, bh);
                tma_load_3d(ka + HALF_BYTES, &k_map, kb, HALF, n * BN, bh);
                if (n >= STAGES) mbar_wait_loop(smem_u32(&v_empty[s]), ph ^ 1);
                const uint32_t vb = smem_u32(&v_full[s]), va = base + V_OFF + s * TILE_BYTES;
                mbar_arrive_expect_tx(vb, TILE_BYTES);
                tma_load_3d(va, &v_map, vb, 0, n * BN, bh);
                tma_load_3d(va + HALF_BYTES, &v_map, vb, HALF, n * BN, bh);
            }
        }
        return;
    }

    // ---------------- the consumers: warpgroup c = wg - 1 owns query rows 64c .. 64c + 63 of the tile
    regs_alloc<CONSUMER_REGS>();
    const int c = wg - 1, w = t / 32, l = t % 32, tq = l % 4;
    const int row0 = m0 + 64 * c + 16 * w + l / 4;  // this thread's rows: row0 and row0 + 8
    // Q of this warpgroup: rows 64c.. of both halves (8 KiB into each: 64 rows of 128 bytes, 1024-aligned)
    const uint32_t qa = base + Q_OFF + 64 * c * 128;

    float o[64];
#pragma unroll
    for (int i = 0; i < 64; i++) o[i] = 0.f;
    float m[2] = { -INFINITY, -INFINITY }, lsum[2] = { 0.f, 0.f };

    mbar_wait_loop(smem_u32(&q_full), 0);
    for (int n = 0; n < n_tiles; n++) {
        const int s = n % STAGES;
        const uint32_t ph = (uint32_t)(n / STAGES) & 1;
        const uint32_t ka = base + K_OFF + s * TILE_BYTES, va = base + V_OFF + s * TILE_BYTES;

        // ---- S = Q K^T (64 x 128 a warpgroup), D = 128 in eight k16 steps
        float sc[64];
        mbar_wait_loop(smem_u32(&k_full[s]), ph);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < HD / 16; kk++) {
            const uint32_t off = HALF_BYTES * (kk / 4) + 32 * (kk % 4);
            wgmma_m64n128k16_ss(sc, qk0 + ((qa + off) >> 4), qk0 + ((ka + off) >> 4), kk > 0);
        }
        wgmma_commit();
        wgmma_wait<0>();
        pin64(sc);
        mbar_arrive(smem_u32(&k_empty[s]));  // K of this stage read: the producer may refill it

        // ---- the mask: keys past S, and keys after the query in the diagonal tile
        const int n0 = n * BN;
        if (n0 + BN > S || (causal && n == qt)) {
#pragma unroll
            for (int j = 0; j < 16; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const int col = n0 + 8 * j + 2 * tq + (e & 1), row = row0 + 8 * (e >> 1);
                    if (col >= S || (causal && col > row)) sc[4 * j + e] = -INFINITY;
                }
        }

        // ---- online softmax, base 2: rows row0 (h = 0) and row0 + 8 (h = 1)
        float mx[2] = { m[0], m[1] };
#pragma unroll
        for (int j = 0; j < 16; j++) {
            mx[0] = fmaxf(mx[0], fmaxf(sc[4 * j], sc[4 * j + 1]));
            mx[1] = fmaxf(mx[1], fmaxf(sc[4 * j + 2], sc[4 * j + 3]));
        }
        float nb[2], alpha[2];
#pragma unroll
        for (int h = 0; h < 2; h++) {
            mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 1));
            mx[h] = fmaxf(mx[h], __shfl_xor_sync(0xffffffffu, mx[h], 2));
            // base: -m sl2, 0 while the row has seen only masked keys (no -inf - -inf)
            nb[h] = mx[h] == -INFINITY ? 0.f : -mx[h] * sl2;
            alpha[h] = fast_exp2(fmaf(m[h], sl2, nb[h]));  // 0 for the first tile (m = -inf)
            m[h] = mx[h];
            lsum[h] *= alpha[h];
        }
#pragma unroll
        for (int j = 0; j < 16; j++) {
            o[4 * j] *= alpha[0], o[4 * j + 1] *= alpha[0];
            o[4 * j + 2] *= alpha[1], o[4 * j + 3] *= alpha[1];
        }
        // P in FP32 for l, in bf16 for the product. Accumulator columns
        // 16kk..16kk+15 (j = 2kk, 2kk + 1) are exactly the A fragment of k16
        // step kk of P V: {(c0, c1) of 2kk, (c2, c3) of 2kk, (c0, c1) of 2kk + 1, (c2, c3) of 2kk + 1}.
        uint32_t pa[8][4];
#pragma unroll
        for (int j = 0; j < 16; j++) {
            float p[4];
#pragma unroll
            for (int e = 0; e < 4; e++) p[e] = fast_exp2(fmaf(sc[4 * j + e], sl2, nb[e >> 1]));
            lsum[0] += p[0] + p[1];
            lsum[1] += p[2] + p[3];
            pa[j / 2][2 * (j % 2)] = pack_bf16x2(p[0], p[1]);
            pa[j / 2][2 * (j % 2) + 1] = pack_bf16x2(p[2], p[3]);
        }

        // ---- O += P V: K = the 128 keys in eight k16 steps, N = D = 128
        mbar_wait_loop(smem_u32(&v_full[s]), ph);
        wgmma_fence();  // orders the rescaled o and the new pa before the wgmmas read them
#pragma unroll
        for (int kk = 0; kk < BN / 16; kk++) wgmma_m64n128k16_rs(o, pa[kk], v0 + ((va + 2048 * kk) >> 4));
        wgmma_commit();
        wgmma_wait<0>();
        pin64(o);
        mbar_arrive(smem_u32(&v_empty[s]));  // V of this stage read
    }

    // ---- epilogue: the quad's l, O / l to bf16, lse = ln 2 (m sl2 + log2 l)
    const size_t head = (size_t)bh * S;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        lsum[h] += __shfl_xor_sync(0xffffffffu, lsum[h], 1);
        lsum[h] += __shfl_xor_sync(0xffffffffu, lsum[h], 2);
        const int row = row0 + 8 * h;
        if (row >= S) continue;
        const float inv = lsum[h] > 0.f ? 1.f / lsum[h] : 0.f;
        uint32_t *orow = reinterpret_cast<uint32_t *>(O + (head + row) * HD) + tq;  // columns 2tq, 2tq + 1
#pragma unroll
        for (int j = 0; j < 16; j++) orow[4 * j] = pack_bf16x2(o[4 * j + 2 * h] * inv, o[4 * j + 2 * h + 1] * inv);
        if (tq == 0)
            lse[head + row] = m[h] == -INFINITY ? -INFINITY : LN2 * (m[h] * sl2 + log2f(lsum[h]));
    }
    //@starter
    //| /* TODO (README, task 2). Shared memory from the 1024-aligned base: Q
    //|  * (Q_OFF), the K ring (K_OFF + s * TILE_BYTES), the V ring (V_OFF + ...);
    //|  * each tile two halves of 128 rows x 64 columns, HALF_BYTES apart.
    //|  * - thread 0: prefetch the maps, init q_full (1), k_full/v_full (1),
    //|  *   k_empty/v_empty (256 consumer threads), fence_mbar_init; __syncthreads.
    //|  * - producer (warpgroup 0, regs_dealloc<PRODUCER_REGS>, thread 0): Q once
    //|  *   (arrive_expect_tx TILE_BYTES, two tma_load_3d at x = 0 and 64, y = m0,
    //|  *   z = bh), then per key tile n: stage n % 2, parity (n / 2) & 1; from
    //|  *   n >= 2 wait on k_empty (the other parity) before loading K, and on
    //|  *   v_empty before loading V.
    //|  * - consumers (warpgroups 1, 2, regs_alloc<CONSUMER_REGS>): per tile wait
    //|  *   k_full; wgmma_fence; eight wgmma_m64n128k16_ss (scale_d 0 at kk = 0);
    //|  *   commit; wait<0>; pin64; arrive k_empty. Mask (col >= S, causal col >
    //|  *   row), row max over the quad, rescale o and l, p = fast_exp2(s sl2 - m
    //|  *   sl2), l += p, pack P to bf16 A fragments; wait v_full; wgmma_fence;
    //|  *   eight wgmma_m64n128k16_rs; commit; wait<0>; pin64; arrive v_empty.
    //|  * - epilogue: quad sums of l, O / l as bf16 pairs for rows < S, lse. */
    //| (void)q_map, (void)k_map, (void)v_map, (void)O, (void)lse, (void)S, (void)causal, (void)sl2;
    //| (void)qk0, (void)v0;
    //@end
#endif
}

// ---------------------------------------------------------------- the host (given)

// A 3-D tensor map over a [B*H][S][128] bf16 array: dims (d, row, head),
// boxes of 64 columns x 128 rows x 1 head with the 128B swizzle, zeros past
// S. TMA's rules: base 16-byte aligned, strides multiples of 16 below 2^40.
cudaError_t encode_map(CUtensorMap *map, const uint16_t *base, int S, int BH)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    cudaError_t e = cudaSuccess;
    if (!encode && !(encode = encode_tiled_fn(&e))) return e != cudaSuccess ? e : cudaErrorNotSupported;
    const cuuint64_t dims[3] = { (cuuint64_t)HD, (cuuint64_t)S, (cuuint64_t)BH };
    const cuuint64_t strides[2] = { (cuuint64_t)HD * 2, (cuuint64_t)S * HD * 2 };
    const cuuint32_t box[3] = { HALF, BN, 1 }, unit[3] = { 1, 1, 1 };
    const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<uint16_t *>(base), dims, strides,
                              box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

}  // namespace

extern "C" cudaError_t fa3_fwd(const uint16_t *Q, const uint16_t *K, const uint16_t *V, uint16_t *O, float *lse,
                               int B, int H, int S, int D, int causal, float scale)
{
    if (B < 0 || H < 0 || S < 0 || D != HD || !(scale > 0.f) || !isfinite(scale)) return cudaErrorInvalidValue;
    if (!Q || !K || !V || !O || !lse || (uintptr_t)Q % 16 || (uintptr_t)K % 16 || (uintptr_t)V % 16 ||
        (uintptr_t)O % 16 || (uintptr_t)lse % 4)
        return cudaErrorInvalidValue;
    if (B == 0 || H == 0 || S == 0) return cudaSuccess;
    const long long bh = (long long)B * H;
    if (bh > 65535) return cudaErrorInvalidValue;
    uint64_t qk0, v0;
    if (fa3_fwd_desc(FA3_DESC_QK, 0, 0, &qk0) != 0 || fa3_fwd_desc(FA3_DESC_V, 0, 0, &v0) != 0)
        return cudaErrorInvalidValue;
    // Everything that can fail comes before the launch: a refused call writes nothing.
    CUtensorMap qm, km, vm;
    cudaError_t e;
    if ((e = encode_map(&qm, Q, S, (int)bh)) != cudaSuccess || (e = encode_map(&km, K, S, (int)bh)) != cudaSuccess ||
        (e = encode_map(&vm, V, S, (int)bh)) != cudaSuccess)
        return e;
    static int attr_for = -1;
    int dev;
    if ((e = cudaGetDevice(&dev)) != cudaSuccess) return e;
    if (attr_for != dev) {
        if ((e = cudaFuncSetAttribute(fa3_fwd_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM_BYTES)) !=
            cudaSuccess)
            return e;
        attr_for = dev;
    }
    const dim3 grid((unsigned)((S + BM - 1) / BM), (unsigned)bh);
    fa3_fwd_kernel<<<grid, THREADS, SMEM_BYTES>>>(qm, km, vm, O, lse, S, causal != 0,
                                                  (float)((double)scale * 1.4426950408889634), qk0, v0);
    return cudaGetLastError();
}
