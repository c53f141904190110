// ws_gemm.cu — week 55: week 54's TMA + wgmma BF16 GEMM made persistent and
// warp-specialised across tiles.
//
// C (M x N, FP32) = A (M x K, BF16) B^T (B is N x K, BF16), both operands
// K-major. The grid is persistent: one CTA per SM (or per tile, if there
// are fewer tiles), each walking the 128 x 256 tiles of C with a static
// stride in the grouped order (ws_tile_of), so no CTA is launched, set up
// and drained per tile. A CTA is three warpgroups (384 threads):
//   warpgroup 0, the producer: one thread issues the TMA loads of tile
//     after tile into a 4-stage ring (A 128 x 64 and B 256 x 64, 48 KiB a
//     stage), each stage guarded by a `full` and an `empty` mbarrier. It
//     never waits for an epilogue: while the consumers store one tile, it
//     is already filling the ring with the next tile's first k-tiles.
//     setmaxnreg.dec to 40.
//   warpgroups 1 and 2, the consumers: rows 0-63 and 64-127 of each tile,
//     a 64 x 256 FP32 accumulator (128 registers a thread, setmaxnreg.inc
//     to 232), four wgmma m64n256k16 per stage, wait_group 1, the previous
//     stage handed back; after a tile's last k-tile, wait_group 0, the last
//     stage handed back, and the epilogue: where C allows a TMA store (base
//     16-byte aligned, N and ldc multiples of 4), through shared memory: eight
//     chunks of 64 x 32 FP32 written 128B-swizzled into two 8 KiB staging
//     buffers a warpgroup, each drained by one TMA store; elsewhere from
//     registers straight to C, guarded at the edges (the host picks the
//     kernel: ws_gemm_kernel<true> or <false>).
// The ring's position is a k-iteration counter that runs on across tiles in
// both roles, never reset: k-iteration `it` uses stage it % 4 and waits for
// the phase of parity (it / 4) & 1 (ws_stage, ws_phase). ws_schedule is the
// same walk on the CPU, for the test.
//
// sm_90a code (week.txt: nvflags -gencode=arch=compute_90a,code=sm_90a):
// wgmma and setmaxnreg exist on no other target.
#include <cuda.h>  // CUtensorMap: the type only, nothing links libcuda
#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>

#include "hopper_host.cuh"  // given (phase5/common): encode_bf16_map, zero_c
#include "hopper_ptx.cuh"   // given (common/include): week 54's PTX wrappers
#include "wgmma_desc.h"     // week 54 (uses: phase5/week54): the descriptor template desc0
#include "ws_gemm.h"

// ---------------------------------------------------------------- the schedule (CPU and GPU)
// One definition for the kernel and for ws_schedule (the CPU's copy of the
// walk that the test checks): what the test checks is what the GPU runs.
#define WS_HD __host__ __device__ __forceinline__

// Tile t of the grouped order (ws_gemm.h): down a group of group_m
// row-tiles first, then across, so that the CTAs working at the same time
// share a few column-tiles of B and group_m row-tiles of A in L2.
[[maybe_unused]] WS_HD void ws_tile_of(int t, int tiles_m, int tiles_n, int group_m, int *tm, int *tn)
{
    /* TODO (README, task 1): the group g = t / (group_m * tiles_n), its
     * first row-tile g * group_m, its rows (group_m, or what is left in the
     * last group); down the rows first, then across. */
    (void)t, (void)tiles_m, (void)tiles_n, (void)group_m;
    *tm = 0, *tn = 0;
}

// Where k-iteration `it` sits in the ring of `stages` stages: its stage,
// and the parity of that stage's phase it is (it / stages: the how-manyth
// use of the stage). The counter runs on across a CTA's tiles.
[[maybe_unused]] WS_HD int ws_stage(unsigned long long it, int stages)
{
    (void)it, (void)stages; /* TODO (README, task 1) */
    return 0;
}
[[maybe_unused]] WS_HD unsigned ws_phase(unsigned long long it, int stages)
{
    (void)it, (void)stages; /* TODO (README, task 1) */
    return 0;
}

extern "C" int ws_schedule(int M, int N, int K, int bm, int bn, int bk, int stages, int group_m, int grid, int cta,
                           ws_visit *out, int cap)
{
    if (M < 0 || N < 0 || K < 0 || bm < 1 || bn < 1 || bk < 1 || stages < 1 || group_m < 1 || grid < 1 || cta < 0 ||
        cta >= grid || cap < 0 || (!out && cap > 0))
        return -1;
    /* TODO (README, task 1): the tiles cta, cta + grid, ... below tiles_m *
     * tiles_n; for each, ws_tile_of, and the k-iteration counter at its
     * start (it runs on: the i-th tile starts at i * ktiles) with its stage
     * and phase. Fill out[] up to cap, return the count. */
    (void)M, (void)N, (void)K, (void)bm, (void)bn, (void)bk, (void)stages, (void)group_m, (void)grid, (void)cta;
    (void)out, (void)cap;
    return -1;
}

namespace {

constexpr int BM = WS_BM, BN = WS_BN, BK = WS_BK;  // BK = 64 BF16 = 128 bytes: the 128B swizzle's span
constexpr int STAGES = WS_STAGES;                 // 4 x 48 KiB: five would not fit the 227 KiB a CTA may have
constexpr int CONSUMERS = 2;                      // warpgroups that issue wgmma, 64 rows of the tile each
constexpr int THREADS = 128 * (1 + CONSUMERS);
constexpr unsigned A_BYTES = BM * BK * 2, B_BYTES = BN * BK * 2, STAGE_BYTES = A_BYTES + B_BYTES;
constexpr unsigned SMEM_ALIGN = 1024;  // the 128B swizzle repeats every 1024 bytes
// The TMA-store epilogue's staging: a chunk is one store box, 64 rows (a
// consumer's) x 32 FP32 columns = 128-byte rows, the 128B swizzle's span;
// two buffers a consumer warpgroup, so that one chunk is written while the
// store of the one before reads its buffer. 192 + 32 KiB: the 4-stage ring
// and the staging fit together; a whole 128 x 256 FP32 tile (128 KiB) would not.
constexpr int CHUNK_COLS = 32;
[[maybe_unused]] constexpr int CHUNKS = BN / CHUNK_COLS; /* the starter's epilogue does not use it yet */
constexpr unsigned CHUNK_BYTES = 64 * CHUNK_COLS * 4, STAGING_BYTES = CONSUMERS * 2 * CHUNK_BYTES;
template <bool TSTORE> constexpr size_t smem_bytes()
{
    return STAGES * STAGE_BYTES + (TSTORE ? STAGING_BYTES : 0) + SMEM_ALIGN;
}
static_assert(smem_bytes<true>() + 64 <= 227 * 1024, "ring + staging + the 8 mbarriers: 227 KiB a CTA at most");
static_assert(CHUNK_COLS * 4 == 128 && CHUNK_BYTES % 1024 == 0, "a chunk row is the 128B swizzle's span, "
                                                                  "every buffer 1024-byte aligned");
[[maybe_unused]] constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;  // 128 x 40 + 256 x 232 <= 65536
static_assert(BK == BF16_MAP_BOX_K, "a TMA box is one BK-wide k-tile (hopper_host.cuh)");

// ---------------------------------------------------------------- the PTX (given: week 54's, unchanged)
// In common/include/hopper_ptx.cuh (included above), each with the comment
// that explains it: smem_u32; the mbarriers (mbar_init,
// fence_mbar_init, mbar_arrive_expect_tx, mbar_arrive,
// mbar_wait_loop); TMA (tma_load_2d, prefetch_map); setmaxnreg
// (regs_dealloc<N>, regs_alloc<N>); wgmma's ordering (wgmma_fence,
// wgmma_commit, wgmma_wait<N>, pin_accumulators); and wgmma_m64n256k16_bf16,
// whose comment gives the accumulators' register layout the epilogue needs.
// For the TMA-store epilogue, in tma_ptx.h: fence_proxy_async_smem,
// tma_store_2d, bulk_commit, bulk_wait_read<N>, bulk_wait<N>. And two more,
// only this week's:

// A named barrier: the n threads (a multiple of 32) that call it with the
// same id (1-15; 0 is __syncthreads') wait for each other. One warpgroup's
// barrier, without stopping the other warpgroups.
[[maybe_unused]] static __device__ __forceinline__ void named_bar_sync(int id, int n)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}

// Two floats to shared memory at `addr` (8-byte aligned): one st.shared.v2.
[[maybe_unused]] static __device__ __forceinline__ void st_shared_f2(uint32_t addr, float a, float b)
{
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(a), "f"(b) : "memory");
}

// ---------------------------------------------------------------- the kernel

// desc0: the descriptor of a K-major BF16 128B-swizzled tile starting at
// shared address 0 (week 54's wgmma_desc_bf16_sw128(0, 0, ...) on the host);
// adding (address >> 4) moves it to a tile, and + 2 (32 bytes) to the next
// k16 slice. The grid is persistent: CTA b computes tiles b, b + gridDim.x, ...
// TSTORE: the epilogue goes through shared memory and TMA stores (c_map, a
// map over C in boxes of 32 x 64 FP32 with the 128B swizzle); otherwise it
// stores from registers to C (c_map unused; pairs: float2 stores allowed).
template <bool TSTORE>
__global__ void __launch_bounds__(THREADS, 1) ws_gemm_kernel(const __grid_constant__ CUtensorMap a_map,
                                                             const __grid_constant__ CUtensorMap b_map,
                                                             const __grid_constant__ CUtensorMap c_map, float *C,
                                                             size_t ldc, int M, int N, int K, uint64_t desc0,
                                                             int tiles_m, int tiles_n, int pairs)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // Any pass that is not sm_90a has no wgmma: the kernel is a trap there,
    // and the tests skip before any launch.
    __trap();
#else
    /* TODO (README, task 2). Week 54's kernel, persistent:
     * - barriers and the 1024-byte aligned ring as in week 54; one
     *   __syncthreads() after the init, none after it.
     * - producer (warpgroup 0, regs_dealloc; thread 0): for tile = blockIdx.x;
     *   tile < tiles_m * tiles_n; tile += gridDim.x: ws_tile_of(tile, ...,
     *   WS_GROUP_M, &tm, &tn), then week 54's k-loop, with a k-iteration
     *   counter `it` that is NOT reset per tile: stage ws_stage(it, STAGES),
     *   and from it >= STAGES on wait on empty[stage] for the release of
     *   k-iteration it - STAGES (parity ws_phase(it - STAGES, STAGES)).
     * - consumers (warpgroups 1, 2, regs_alloc): the same tiles and the same
     *   running `it`; per tile zero the accumulators, per k-tile wait on
     *   full[stage] (parity ws_phase(it, STAGES)), fence, four wgmmas,
     *   commit, wait<1>, release k-iteration it - 1's stage (not at a tile's
     *   first k-tile); after the tile's last: wait<0>, release its stage
     *   BEFORE the epilogue (the producer is already loading the next tile).
     * - the epilogue, two of them (the host launches the one C allows):
     *   TSTORE (C 16-byte aligned, N % 4 == 0, ldc % 4 == 0): through shared memory.
     *   The staging is 2 x CHUNK_BYTES a consumer, after the ring (thread 0
     *   also prefetches c_map). For chunk j = 0 .. 7 (columns 32j .. 32j + 31
     *   of the tile, the warpgroup's 64 rows), into buffer j % 2: each
     *   thread st_shared_f2's its 8 pairs of the chunk at row r, byte
     *   4 * column, with the 16-byte unit u of row r moved to u ^ (r % 8)
     *   (the 128B swizzle c_map has); fence_proxy_async_smem; thread 0
     *   bulk_wait_read<0> (chunk j - 1's store has read ITS buffer, which
     *   chunk j + 1 overwrites next); named_bar_sync(1 + c, 128); thread 0
     *   tma_store_2d(&c_map, buf, column, row) and bulk_commit (TMA clips at
     *   M and N: no guards; skip a box wholly past the edge). Before the
     *   kernel ends, thread 0 bulk_wait<0>. Otherwise (!TSTORE): from
     *   registers, as week 54 does, guarded, float2 where `pairs`. */
    (void)a_map, (void)b_map, (void)c_map, (void)C, (void)ldc, (void)M, (void)N, (void)K, (void)desc0;
    (void)tiles_m, (void)tiles_n, (void)pairs;
#endif
}

// ---------------------------------------------------------------- the host (given)
// encode_bf16_map (A's and B's tensor maps) and zero_c (C = 0 when K == 0)
// are in phase5/common/hopper_host.cuh, included above; C's map, and the
// choice between the two epilogues, are here.

// A tensor map over C for the TMA-store epilogue: M rows of N floats, ldc
// floats apart, in boxes of 32 columns x 64 rows with the 128B swizzle (the
// staging's layout); past M and N a store writes nothing. TMA's rules: the
// base 16-byte aligned, the row stride ldc * 4 a multiple of 16 (and below
// 2^40). And N a multiple of 4: a store writes whole 16-byte units of a
// row, so with N = 129 and ldc = 132 it would write columns 129-131, the
// row padding (seen on the H100). false where C breaks them: the kernel then
// stores from registers.
bool encode_c_map(CUtensorMap *map, float *C, int M, int N, size_t ldc)
{
    if ((uintptr_t)C % 16 != 0 || N % 4 != 0 || ldc % 4 != 0 || ldc >= ((size_t)1 << 38)) return false;
    cudaError_t e = cudaSuccess;
    PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled_fn(&e);
    if (!encode) return false;
    const cuuint64_t dims[2] = { (cuuint64_t)N, (cuuint64_t)M }, strides[1] = { (cuuint64_t)ldc * 4 };
    const cuuint32_t box[2] = { CHUNK_COLS, 64 }, unit[2] = { 1, 1 };
    return encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, C, dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Once per device: raise both kernels' shared-memory limits, and count the
// SMs (the persistent grid's size).
cudaError_t prepare_device(int *sms)
{
    static int done_for = -1, count = 0;
    int dev;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev != done_for) {
        if ((e = cudaFuncSetAttribute(ws_gemm_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)smem_bytes<true>())) != cudaSuccess ||
            (e = cudaFuncSetAttribute(ws_gemm_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)smem_bytes<false>())) != cudaSuccess ||
            (e = cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
            return e;
        done_for = dev;
    }
    *sms = count;
    return cudaSuccess;
}

}  // namespace

extern "C" cudaError_t ws_gemm_bf16_grid(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K,
                                         size_t ldc, int grid)
{
    if (M < 0 || N < 0 || K < 0 || K % 8 != 0 || ldc < (size_t)N || grid < 0) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    if (K == 0) return zero_c(C, ldc, M, N);
    if ((uintptr_t)A % 16 != 0 || (uintptr_t)B % 16 != 0) return cudaErrorInvalidValue;
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    if ((long long)tiles_m * tiles_n > INT_MAX) return cudaErrorInvalidValue;
    uint64_t desc0;
    if (wgmma_desc_bf16_sw128(0, 0, &desc0) != 0) return cudaErrorInvalidValue;  // week 54's task 1
    // Everything that can fail comes before the launch: a refused call writes nothing.
    CUtensorMap a_map, b_map;
    cudaError_t e;
    int sms;
    if ((e = encode_bf16_map(&a_map, A, M, K, BM)) != cudaSuccess) return e;
    if ((e = encode_bf16_map(&b_map, B, N, K, BN)) != cudaSuccess) return e;
    if ((e = prepare_device(&sms)) != cudaSuccess) return e;
    const int tiles = tiles_m * tiles_n, want = grid ? grid : sms, blocks = want < tiles ? want : tiles;
    // The epilogue: TMA stores where C allows them, registers elsewhere
    // (float2 stores where C and every row are 8-byte aligned).
    CUtensorMap c_map = {};
    if (encode_c_map(&c_map, C, M, N, ldc)) {
        ws_gemm_kernel<true><<<blocks, THREADS, smem_bytes<true>()>>>(a_map, b_map, c_map, C, ldc, M, N, K, desc0,
                                                                      tiles_m, tiles_n, 1);
    } else {
        const int pairs = (uintptr_t)C % 8 == 0 && ldc % 2 == 0;
        ws_gemm_kernel<false><<<blocks, THREADS, smem_bytes<false>()>>>(a_map, b_map, c_map, C, ldc, M, N, K,
                                                                        desc0, tiles_m, tiles_n, pairs);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t ws_gemm_bf16(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K, size_t ldc)
{
    return ws_gemm_bf16_grid(A, B, C, M, N, K, ldc, 0);
}
