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
//     stage handed back, and the epilogue from registers to C.
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
#include "hopper_ptx.cuh"   // given (phase5/common): week 54's PTX wrappers
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
constexpr size_t SMEM_BYTES = STAGES * STAGE_BYTES + SMEM_ALIGN;
[[maybe_unused]] constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;  // 128 x 40 + 256 x 232 <= 65536
static_assert(BK == BF16_MAP_BOX_K, "a TMA box is one BK-wide k-tile (hopper_host.cuh)");

// ---------------------------------------------------------------- the PTX (given: week 54's, unchanged)
// In phase5/common/hopper_ptx.cuh (included above), each with the comment
// that explains it: smem_u32; the mbarriers (mbar_init,
// fence_mbar_init, mbar_arrive_expect_tx, mbar_arrive,
// mbar_wait_loop); TMA (tma_load_2d, prefetch_map); setmaxnreg
// (regs_dealloc<N>, regs_alloc<N>); wgmma's ordering (wgmma_fence,
// wgmma_commit, wgmma_wait<N>, pin_accumulators); and wgmma_m64n256k16_bf16,
// whose comment gives the accumulators' register layout the epilogue needs.

// ---------------------------------------------------------------- the kernel

// desc0: the descriptor of a K-major BF16 128B-swizzled tile starting at
// shared address 0 (week 54's wgmma_desc_bf16_sw128(0, 0, ...) on the host);
// adding (address >> 4) moves it to a tile, and + 2 (32 bytes) to the next
// k16 slice. The grid is persistent: CTA b computes tiles b, b + gridDim.x, ...
__global__ void __launch_bounds__(THREADS, 1) ws_gemm_kernel(const __grid_constant__ CUtensorMap a_map,
                                                             const __grid_constant__ CUtensorMap b_map, float *C,
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
     *   BEFORE the epilogue (the producer is already loading the next tile),
     *   then store as week 54 does. */
    (void)a_map, (void)b_map, (void)C, (void)ldc, (void)M, (void)N, (void)K, (void)desc0;
    (void)tiles_m, (void)tiles_n, (void)pairs;
#endif
}

// ---------------------------------------------------------------- the host (given)
// encode_bf16_map (the two tensor maps) and zero_c (C = 0 when K == 0) are
// in phase5/common/hopper_host.cuh, included above.

// Once per device: raise the kernel's shared-memory limit, and count the
// SMs (the persistent grid's size).
cudaError_t prepare_device(int *sms)
{
    static int done_for = -1, count = 0;
    int dev;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev != done_for) {
        if ((e = cudaFuncSetAttribute(ws_gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM_BYTES)) !=
                cudaSuccess ||
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
    const int tiles = tiles_m * tiles_n, want = grid ? grid : sms;
    // float2 stores need C and every row 8-byte aligned
    const int pairs = (uintptr_t)C % 8 == 0 && ldc % 2 == 0;
    ws_gemm_kernel<<<want < tiles ? want : tiles, THREADS, SMEM_BYTES>>>(a_map, b_map, C, ldc, M, N, K, desc0,
                                                                         tiles_m, tiles_n, pairs);
    return cudaGetLastError();
}

extern "C" cudaError_t ws_gemm_bf16(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K, size_t ldc)
{
    return ws_gemm_bf16_grid(A, B, C, M, N, K, ldc, 0);
}
