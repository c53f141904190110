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
//@solution

// ---------------------------------------------------------------- tuning knobs (instructor: make tune-w62)
// Compile-time. The defaults are the best set of the sweep of 2026-11-28 on
// an H200 (ping-pong, intra-warpgroup pipelining, TMA store, two stages:
// 0.948 of cuDNN non-causal, 0.957 causal); all off (P0-I0-T0) is the plain
// structure the tasks build, 0.857. Every set's figures:
// instructor/tune/w62/NOTES.md.
//   W62_PINGPONG  0 | 1  the two consumer warpgroups take turns at the tensor
//                        cores (two named barriers, "the schedule" below), so
//                        that one's softmax runs while the other's wgmmas do
//   W62_INTRA     0 | 1  FlashAttention-3's intra-warpgroup pipelining: S of
//                        tile n and the P V of tile n - 1 issued together,
//                        the softmax of tile n run while that P V is in the
//                        tensor cores (P of tile n - 1 and S of tile n live
//                        at once: 32 + 64 registers beside O's 64)
//   W62_STAGES    2 | 3  K and V tiles a ring (3: 224 KiB + 1 KiB of
//                        alignment, under the 227 KiB a CTA may have)
//   W62_TMA_STORE 0 | 1  O written through shared memory (each consumer's own
//                        rows of the Q tile, free once its last S is done)
//                        by two TMA boxes a warpgroup, instead of 4-byte
//                        stores from registers
// Registers (nvcc 13.0, -Xptxas -v, sm_90a): every set compiles to 168 a
// thread (the cap of 384 threads at one CTA an SM; setmaxnreg then gives
// the consumers 240) with no spills; W62_PINGPONG and W62_TMA_STORE add
// named barriers, whose ids are run-time values, so ptxas reports all 16
// in use (one CTA an SM either way). The table: instructor/tune/w62/NOTES.md.
#ifndef W62_PINGPONG
#define W62_PINGPONG 1
#endif
#ifndef W62_INTRA
#define W62_INTRA 1
#endif
#ifndef W62_STAGES
#define W62_STAGES 2
#endif
#ifndef W62_TMA_STORE
#define W62_TMA_STORE 1
#endif
static_assert((W62_PINGPONG == 0 || W62_PINGPONG == 1) && (W62_INTRA == 0 || W62_INTRA == 1) &&
                  (W62_STAGES == 2 || W62_STAGES == 3) && (W62_TMA_STORE == 0 || W62_TMA_STORE == 1),
              "W62_PINGPONG, W62_INTRA, W62_TMA_STORE: 0 or 1; W62_STAGES: 2 or 3");

// Named barriers (week 55's named_bar_sync, and its non-waiting half): ids
// 1-15 (0 is __syncthreads'), n threads (a multiple of 32) a phase; a warp
// counts 32 whether it syncs or arrives. bar.arrive marks the warp's arrival
// and goes on; bar.sync arrives and waits for the phase to complete.
[[maybe_unused]] static __device__ __forceinline__ void named_bar_sync(int id, int n)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}
[[maybe_unused]] static __device__ __forceinline__ void named_bar_arrive(int id, int n)
{
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}

// tma_ptx.h's tma_store_2d in three dimensions: the box at shared `src` to
// (x, y, z) of `map` (d, row, head); rows past S are not written.
[[maybe_unused]] static __device__ __forceinline__ void tma_store_3d(const CUtensorMap *map, uint32_t src, int x, int y,
                                                                     int z)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];"
                 ::"l"(reinterpret_cast<uint64_t>(map)), "r"(src), "r"(x), "r"(y), "r"(z)
                 : "memory");
}

// One 32-bit store to shared memory (the TMA store's staging).
[[maybe_unused]] static __device__ __forceinline__ void st_shared_u32(uint32_t addr, uint32_t v)
{
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

// Named barrier ids: SCHED_BAR + c, consumer c's turn at the tensor cores
// (W62_PINGPONG; 1 and 2); STORE_BAR + c, consumer c's O staging written
// (W62_TMA_STORE; 3 and 4).
[[maybe_unused]] constexpr int SCHED_BAR = 1, STORE_BAR = 3;
//@starter
//@end

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
//@solution
constexpr int STAGES = W62_STAGES;          // K and V tiles in flight a ring (2 unless a tuning knob says 3)
//@starter
//| constexpr int STAGES = 2;                   // K and V tiles in flight a ring
//@end
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
//@solution
// (W62_TMA_STORE: o_map, O's map with boxes of 64 columns x 64 rows, one
// consumer warpgroup's half of the tile; O itself is then unused.)
__global__ void __launch_bounds__(THREADS, 1) fa3_fwd_kernel(const __grid_constant__ CUtensorMap q_map,
                                                             const __grid_constant__ CUtensorMap k_map,
                                                             const __grid_constant__ CUtensorMap v_map, uint16_t *O,
                                                             float *lse, int S, int causal, float sl2, uint64_t qk0,
                                                             uint64_t v0
#if W62_TMA_STORE
                                                             , const __grid_constant__ CUtensorMap o_map
#endif
)
//@starter
//| __global__ void __launch_bounds__(THREADS, 1) fa3_fwd_kernel(const __grid_constant__ CUtensorMap q_map,
//|                                                              const __grid_constant__ CUtensorMap k_map,
//|                                                              const __grid_constant__ CUtensorMap v_map, uint16_t *O,
//|                                                              float *lse, int S, int causal, float sl2, uint64_t qk0,
//|                                                              uint64_t v0)
//@end
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
#if W62_TMA_STORE
        prefetch_map(&o_map);
#endif
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

    // The schedule (W62_PINGPONG). The consumers take turns at the tensor
    // cores: a turn is the wgmmas a warpgroup issues between turn_begin and
    // turn_end, and the turns go c0, c1, c0, c1, ... Each warpgroup c has a
    // named barrier, SCHED_BAR + c, of 256 threads: turn_begin is c's 128
    // threads syncing on it, turn_end is c's 128 threads arriving (without
    // waiting) on the other's. So c1's turn k needs c0's turn_end k, and c0's
    // turn k + 1 needs c1's turn_end k: a phase of each barrier is exactly
    // 128 syncing threads of its owner and 128 arriving of the other. c0
    // holds the first turn: its first turn_begin does not sync; c1's last
    // turn_end does not arrive (nobody would wait for it). Both warpgroups
    // take the same number of turns T (same key tiles), so every arrival is
    // consumed by exactly one sync and no barrier is left half-full when the
    // CTA exits. No arrival can count towards the wrong phase: c's turn_end
    // k + 1 comes after its turn_begin k + 1, which completes only after the
    // other has passed the phase c's turn_end k completed.
    // Why it cannot deadlock: a turn waits only on the other warpgroup's
    // previous turn and (where the loop waits inside a turn at all) on a
    // full barrier; the mbarrier waits are placed before turn_begin where
    // possible, and the producer never waits on a named barrier. When
    // warpgroup c is about to begin the turn that issues S of tile n, the
    // other has issued S of tile n - 1 (its turn before), and releases K of
    // n - 1 and V of n - 2 without waiting on anything but its own wgmmas;
    // the producer's loads of K n and V n - 1 need only the releases of
    // K n - 2 and V n - 3 (2 stages; 3 stages need less): they come.
#if W62_PINGPONG
    auto turn_begin = [&](bool first) {
        if (!(first && c == 0)) named_bar_sync(SCHED_BAR + c, 2 * 128);
    };
    auto turn_end = [&](bool last) {
        if (!(last && c == 1)) named_bar_arrive(SCHED_BAR + 1 - c, 2 * 128);
    };
#endif

    mbar_wait_loop(smem_u32(&q_full), 0);
#if !W62_INTRA
    // One tile at a time: S, its softmax, P V, each waited for. Ping-pong
    // turns: S of tile 0; then P V of tile n with S of tile n + 1; last, P V
    // of the last tile (T = tiles + 1 turns).
    for (int n = 0; n < n_tiles; n++) {
        const int s = n % STAGES;
        const uint32_t ph = (uint32_t)(n / STAGES) & 1;
        const uint32_t ka = base + K_OFF + s * TILE_BYTES, va = base + V_OFF + s * TILE_BYTES;

        // ---- S = Q K^T (64 x 128 a warpgroup), D = 128 in eight k16 steps
        float sc[64];
#if W62_PINGPONG
        if (n == 0) {  // later tiles' K: waited for before the turn that issues their S began (below)
            mbar_wait_loop(smem_u32(&k_full[s]), ph);
            turn_begin(true);
        }
#else
        mbar_wait_loop(smem_u32(&k_full[s]), ph);
#endif
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < HD / 16; kk++) {
            const uint32_t off = HALF_BYTES * (kk / 4) + 32 * (kk % 4);
            wgmma_m64n128k16_ss(sc, qk0 + ((qa + off) >> 4), qk0 + ((ka + off) >> 4), kk > 0);
        }
        wgmma_commit();
#if W62_PINGPONG
        turn_end(false);  // the other warpgroup's wgmmas may go in behind these
#endif
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
#if W62_PINGPONG
        // the next tile's K before the turn (which issues its S), not inside it
        if (n + 1 < n_tiles) mbar_wait_loop(smem_u32(&k_full[(n + 1) % STAGES]), (uint32_t)((n + 1) / STAGES) & 1);
        turn_begin(false);
#endif
        wgmma_fence();  // orders the rescaled o and the new pa before the wgmmas read them
#pragma unroll
        for (int kk = 0; kk < BN / 16; kk++) wgmma_m64n128k16_rs(o, pa[kk], v0 + ((va + 2048 * kk) >> 4));
        wgmma_commit();
        wgmma_wait<0>();
        pin64(o);
        mbar_arrive(smem_u32(&v_empty[s]));  // V of this stage read
#if W62_PINGPONG
        if (n == n_tiles - 1) turn_end(true);
#endif
    }
#else
    // Intra-warpgroup pipelining (FlashAttention-3's algorithm 2): tile 0's
    // S and softmax first; then, for tile n = 1 ..: S of tile n and P V of
    // tile n - 1 issued as two groups; wait<1> (S done) and the softmax of
    // tile n while that P V runs; wait<0>; O rescaled by tile n's factor and
    // P of tile n packed. Last, the P V of the last tile. Live at once: O
    // (64), P of tile n - 1 (32: the running wgmma's A, untouched until
    // wait<0>), S of tile n (64). Ping-pong turns: one per n >= 1 (S of n,
    // P V of n - 1); tile 0's S and the last P V are outside the schedule,
    // as in FlashAttention-3 (T = tiles - 1 turns, none for one tile).
    // Registers: O 64 + P 32 + S 64 = 160 live across the two groups, plus
    // addresses, m and l; ptxas fits it in the 168 of the compile-time cap
    // (-Xptxas -v: 168, no spills), under the 240 setmaxnreg gives.

    // the steps of a key tile
    // S = Q K^T (64 x 128 a warpgroup) for the K tile at ka: D = 128 in eight k16 steps, one group
    auto issue_s = [&](float (&sc)[64], uint32_t ka) {
#pragma unroll
        for (int kk = 0; kk < HD / 16; kk++) {
            const uint32_t off = HALF_BYTES * (kk / 4) + 32 * (kk % 4);
            wgmma_m64n128k16_ss(sc, qk0 + ((qa + off) >> 4), qk0 + ((ka + off) >> 4), kk > 0);
        }
        wgmma_commit();
    };
    // O += P V for the V tile at va: K = the 128 keys in eight k16 steps, N = D = 128, one group
    auto issue_pv = [&](const uint32_t (&pa)[8][4], uint32_t va) {
#pragma unroll
        for (int kk = 0; kk < BN / 16; kk++) wgmma_m64n128k16_rs(o, pa[kk], v0 + ((va + 2048 * kk) >> 4));
        wgmma_commit();
    };
    // the mask of key tile n: keys past S, and keys after the query in the diagonal tile
    auto mask_tile = [&](float (&sc)[64], int n) {
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
    };
    // online softmax, base 2, rows row0 (h = 0) and row0 + 8 (h = 1): the new row max m, l rescaled,
    // alpha (O's factor) and nb = -m sl2 (the exponent's base)
    auto row_max = [&](const float (&sc)[64], float (&nb)[2], float (&alpha)[2]) {
        float mx[2] = { m[0], m[1] };
#pragma unroll
        for (int j = 0; j < 16; j++) {
            mx[0] = fmaxf(mx[0], fmaxf(sc[4 * j], sc[4 * j + 1]));
            mx[1] = fmaxf(mx[1], fmaxf(sc[4 * j + 2], sc[4 * j + 3]));
        }
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
    };
    auto rescale_o = [&](const float (&alpha)[2]) {
#pragma unroll
        for (int j = 0; j < 16; j++) {
            o[4 * j] *= alpha[0], o[4 * j + 1] *= alpha[0];
            o[4 * j + 2] *= alpha[1], o[4 * j + 3] *= alpha[1];
        }
    };
    uint32_t pa[8][4];
    // sc <- p = 2^(s sl2 - m sl2) in FP32 (l += p), then packed to bf16 A fragments
    auto exp_sum = [&](float (&sc)[64], const float (&nb)[2]) {
#pragma unroll
        for (int j = 0; j < 16; j++) {
#pragma unroll
            for (int e = 0; e < 4; e++) sc[4 * j + e] = fast_exp2(fmaf(sc[4 * j + e], sl2, nb[e >> 1]));
            lsum[0] += sc[4 * j] + sc[4 * j + 1];
            lsum[1] += sc[4 * j + 2] + sc[4 * j + 3];
        }
    };
    auto pack_p = [&](const float (&sc)[64]) {
#pragma unroll
        for (int j = 0; j < 16; j++) {
            pa[j / 2][2 * (j % 2)] = pack_bf16x2(sc[4 * j], sc[4 * j + 1]);
            pa[j / 2][2 * (j % 2) + 1] = pack_bf16x2(sc[4 * j + 2], sc[4 * j + 3]);
        }
    };
    {
        float sc[64], nb[2], alpha[2];
        mbar_wait_loop(smem_u32(&k_full[0]), 0);
        wgmma_fence();
        issue_s(sc, base + K_OFF);
        wgmma_wait<0>();
        pin64(sc);
        mbar_arrive(smem_u32(&k_empty[0]));
        mask_tile(sc, 0);
        row_max(sc, nb, alpha);  // alpha = 0 and o = 0: nothing to rescale
        exp_sum(sc, nb);
        pack_p(sc);
    }
    for (int n = 1; n < n_tiles; n++) {
        const int s = n % STAGES, sp = (n - 1) % STAGES;  // tile n's stage, tile n - 1's
        const uint32_t ph = (uint32_t)(n / STAGES) & 1, php = (uint32_t)((n - 1) / STAGES) & 1;
        float sc[64], nb[2], alpha[2];
        mbar_wait_loop(smem_u32(&k_full[s]), ph);
        mbar_wait_loop(smem_u32(&v_full[sp]), php);
#if W62_PINGPONG
        turn_begin(n == 1);
#endif
        wgmma_fence();  // o rescaled, pa written, sc read by ordinary instructions before these wgmmas
        issue_s(sc, base + K_OFF + s * TILE_BYTES);
        issue_pv(pa, base + V_OFF + sp * TILE_BYTES);
#if W62_PINGPONG
        turn_end(n == n_tiles - 1);  // the other warpgroup's turn may begin
#endif
        wgmma_wait<1>();  // S of tile n done; P V of tile n - 1 may still run: o and pa not touched until wait<0>
        pin64(sc);
        mbar_arrive(smem_u32(&k_empty[s]));
        mask_tile(sc, n);
        row_max(sc, nb, alpha);
        exp_sum(sc, nb);
        wgmma_wait<0>();  // P V of tile n - 1 done: o final for it, pa free
        pin64(o);
        pin64(sc);  // keeps the packing below after the wait (pa was the running wgmma's A)
        mbar_arrive(smem_u32(&v_empty[sp]));
        rescale_o(alpha);
        pack_p(sc);
    }
    {
        const int sp = (n_tiles - 1) % STAGES;
        mbar_wait_loop(smem_u32(&v_full[sp]), (uint32_t)((n_tiles - 1) / STAGES) & 1);
        wgmma_fence();
        issue_pv(pa, base + V_OFF + sp * TILE_BYTES);
        wgmma_wait<0>();
        pin64(o);
        mbar_arrive(smem_u32(&v_empty[sp]));
    }
#endif

    // ---- epilogue: the quad's l, O / l to bf16, lse = ln 2 (m sl2 + log2 l)
    const size_t head = (size_t)bh * S;
#if W62_TMA_STORE
    // O through shared memory: this warpgroup's 64 rows of Q's buffer (qa:
    // 8 KiB in each half, 1024-aligned), free since the wgmma_wait after
    // this warpgroup's last S (only its own wgmmas read those rows; the
    // other warpgroup's rows are the other 8 KiB). Laid out as o_map's
    // boxes with the 128B swizzle: 16-byte unit u of local row r at unit
    // u ^ (r % 8) of its 128-byte row; a warp's 32 stores of one (j, h) then
    // hit 32 different banks (4 (u ^ g) + tq). Rows past S are written here
    // and clipped by the store.
    const int rl = 16 * w + l / 4;  // local rows rl and rl + 8; (rl + 8h) % 8 = l / 4
#endif
#pragma unroll
    for (int h = 0; h < 2; h++) {
        lsum[h] += __shfl_xor_sync(0xffffffffu, lsum[h], 1);
        lsum[h] += __shfl_xor_sync(0xffffffffu, lsum[h], 2);
        const int row = row0 + 8 * h;
#if W62_TMA_STORE
        const float inv = lsum[h] > 0.f ? 1.f / lsum[h] : 0.f;
#pragma unroll
        for (int j = 0; j < 16; j++)
            st_shared_u32(qa + HALF_BYTES * (j / 8) + (rl + 8 * h) * 128 + (((j % 8) ^ (l / 4)) * 16) + 4 * tq,
                          pack_bf16x2(o[4 * j + 2 * h] * inv, o[4 * j + 2 * h + 1] * inv));
        if (row < S && tq == 0)
            lse[head + row] = m[h] == -INFINITY ? -INFINITY : LN2 * (m[h] * sl2 + log2f(lsum[h]));
#else
        if (row >= S) continue;
        const float inv = lsum[h] > 0.f ? 1.f / lsum[h] : 0.f;
        uint32_t *orow = reinterpret_cast<uint32_t *>(O + (head + row) * HD) + tq;  // columns 2tq, 2tq + 1
#pragma unroll
        for (int j = 0; j < 16; j++) orow[4 * j] = pack_bf16x2(o[4 * j + 2 * h] * inv, o[4 * j + 2 * h + 1] * inv);
        if (tq == 0)
            lse[head + row] = m[h] == -INFINITY ? -INFINITY : LN2 * (m[h] * sl2 + log2f(lsum[h]));
#endif
    }
#if W62_TMA_STORE
    (void)O;
    fence_proxy_async_smem();                // our st.shared before the TMA unit (the async proxy) reads them
    named_bar_sync(STORE_BAR + c, 128);      // this warpgroup's 64 rows all written (the other's not waited for)
    if (t == 0 && m0 + 64 * c < S) {         // a box wholly past S is not issued
        tma_store_3d(&o_map, qa, 0, m0 + 64 * c, bh);
        tma_store_3d(&o_map, qa + HALF_BYTES, HALF, m0 + 64 * c, bh);
        bulk_commit();
        bulk_wait_read<0>();                 // the CTA's shared memory outlives the stores' reads of it
    }
#endif
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

//@solution
#if W62_TMA_STORE
// W62_TMA_STORE: O's map, encode_map's with boxes of 64 rows (one consumer
// warpgroup's rows); the store does not write rows past S.
cudaError_t encode_o_map(CUtensorMap *map, uint16_t *base, int S, int BH)
{
    cudaError_t e = cudaSuccess;
    PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled_fn(&e);
    if (!encode) return e != cudaSuccess ? e : cudaErrorNotSupported;
    const cuuint64_t dims[3] = { (cuuint64_t)HD, (cuuint64_t)S, (cuuint64_t)BH };
    const cuuint64_t strides[2] = { (cuuint64_t)HD * 2, (cuuint64_t)S * HD * 2 };
    const cuuint32_t box[3] = { HALF, 64, 1 }, unit[3] = { 1, 1, 1 };
    const CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, base, dims, strides, box, unit,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

#endif
//@starter
//@end
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
    //@solution
#if W62_TMA_STORE
    CUtensorMap om;
    if ((e = encode_o_map(&om, O, S, (int)bh)) != cudaSuccess) return e;
#endif
    //@starter
    //@end
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
    //@solution
    fa3_fwd_kernel<<<grid, THREADS, SMEM_BYTES>>>(qm, km, vm, O, lse, S, causal != 0,
                                                  (float)((double)scale * 1.4426950408889634), qk0, v0
#if W62_TMA_STORE
                                                  , om
#endif
    );
    //@starter
    //| fa3_fwd_kernel<<<grid, THREADS, SMEM_BYTES>>>(qm, km, vm, O, lse, S, causal != 0,
    //|                                               (float)((double)scale * 1.4426950408889634), qk0, v0);
    //@end
    return cudaGetLastError();
}
