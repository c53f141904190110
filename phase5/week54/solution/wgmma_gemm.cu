// wgmma_gemm.cu — week 54: a BF16 GEMM on Hopper's warpgroup MMA (wgmma),
// fed by TMA through a ring of shared-memory stages guarded by mbarriers.
//
// C (M x N, FP32) = A (M x K, BF16) B^T (B is N x K, BF16): both operands
// K-major. A CTA of three warpgroups (384 threads) owns a 128 x 256 tile
// of C:
//   warpgroup 0, the producer: one thread issues every TMA load, BK = 64
//     columns of K at a time (A 128 x 64, B 256 x 64: 48 KiB a stage) into
//     a ring of STAGES stages, each stage with two mbarriers: `full` (its
//     bytes have landed) and `empty` (both consumers are done reading it).
//     It gives most of its registers away (setmaxnreg.dec to 40).
//   warpgroups 1 and 2, the consumers: 64 rows of the tile each, a
//     64 x 256 FP32 accumulator of 128 registers a thread (setmaxnreg.inc
//     to 232). Per stage: wait on `full`, four wgmma m64n256k16 (one per
//     k16 slice of the stage), commit them as one group, wait until only
//     that group is still running (so the previous stage's group is done
//     reading its shared memory) and arrive on the previous stage's `empty`.
//   Epilogue: each consumer thread stores its accumulators to C directly,
//     guarded at the matrix's edges (TMA filled the out-of-bounds rows and
//     columns of A and B with zeros, so the products there are 0 and merely
//     not stored).
//
// sm_90a code (week.txt: nvflags -gencode=arch=compute_90a,code=sm_90a):
// wgmma and setmaxnreg exist on no other target, and the cubin loads on a
// compute capability 9.0 GPU only.
#include <cuda.h>  // CUtensorMap: the type only, nothing links libcuda
#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>

#include "hopper_host.cuh"  // given (phase5/common): encode_bf16_map, zero_c
#include "hopper_ptx.cuh"   // given (common/include): the PTX wrappers the kernel calls
#include "wgmma_desc.h"
#include "wgmma_gemm.h"

namespace {

constexpr int BM = 128, BN = 256, BK = 64;  // BK = 64 BF16 = 128 bytes: the 128B swizzle's span
constexpr int STAGES = 4;                   // 4 x 48 KiB: five would not fit the 227 KiB a CTA may have
constexpr int CONSUMERS = 2;                // warpgroups that issue wgmma, 64 rows of the tile each
constexpr int THREADS = 128 * (1 + CONSUMERS);
constexpr unsigned A_BYTES = BM * BK * 2, B_BYTES = BN * BK * 2, STAGE_BYTES = A_BYTES + B_BYTES;
constexpr unsigned SMEM_ALIGN = 1024;  // the 128B swizzle repeats every 1024 bytes
constexpr size_t SMEM_BYTES = STAGES * STAGE_BYTES + SMEM_ALIGN;
[[maybe_unused]] constexpr int GROUP_M = 16;  // tile order: 16 row-tiles of C share each column-tile (L2 reuse)
[[maybe_unused]] constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;  // 128 x 40 + 256 x 232 <= 65536
static_assert(BK == BF16_MAP_BOX_K, "a TMA box is one BK-wide k-tile (hopper_host.cuh)");

// ---------------------------------------------------------------- the PTX (given: read each one)
// In common/include/hopper_ptx.cuh (included above), each with the comment
// that explains it: smem_u32; the mbarriers (mbar_init,
// fence_mbar_init, mbar_arrive_expect_tx, mbar_arrive,
// mbar_wait_loop); TMA (tma_load_2d, prefetch_map); setmaxnreg
// (regs_dealloc<N>, regs_alloc<N>); wgmma's ordering (wgmma_fence,
// wgmma_commit, wgmma_wait<N>, pin_accumulators); and wgmma_m64n256k16_bf16,
// whose comment gives the accumulators' register layout the epilogue needs.

// ---------------------------------------------------------------- the kernel

// Which tile of C CTA `bid` computes: down a group of GROUP_M row-tiles
// first, then across, so that the CTAs running at the same time share the
// B tiles of a few column-tiles and the A tiles of GROUP_M row-tiles in L2.
[[maybe_unused]] __device__ __forceinline__ void tile_of(int bid, int tiles_m, int tiles_n, int *tm, int *tn)
{
    const int per_group = GROUP_M * tiles_n, first = bid / per_group * GROUP_M;
    const int rows = tiles_m - first < GROUP_M ? tiles_m - first : GROUP_M;
    *tm = first + bid % per_group % rows;
    *tn = bid % per_group / rows;
}

// desc0: the descriptor of a K-major BF16 128B-swizzled tile starting at
// shared address 0 (wgmma_desc_bf16_sw128(0, 0, ...) on the host); adding
// (address >> 4) moves it to a tile, and + 2 (32 bytes) to the next k16 slice.
__global__ void __launch_bounds__(THREADS, 1) wgmma_gemm_kernel(const __grid_constant__ CUtensorMap a_map,
                                                                const __grid_constant__ CUtensorMap b_map, float *C,
                                                                size_t ldc, int M, int N, int K, uint64_t desc0,
                                                                int tiles_m, int tiles_n, int pairs)
{
#if !defined(__CUDA_ARCH_FEAT_SM90_ALL)
    // Any pass that is not sm_90a (ARCH=sm_80, say, or a plain sm_90 pass)
    // has no wgmma: the kernel is a trap there, and the tests skip before
    // any launch.
    __trap();
#else
    //@solution
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    extern __shared__ unsigned char dyn[];
    // The 128B swizzle needs every tile 1024-byte aligned: round the dynamic
    // area up. Stage s: A at base + s * STAGE_BYTES, B A_BYTES after it.
    const uint32_t base = (smem_u32(dyn) + SMEM_ALIGN - 1) & ~(SMEM_ALIGN - 1);
    const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
    const int ktiles = (K + BK - 1) / BK;
    int tm, tn;
    tile_of(blockIdx.x, tiles_m, tiles_n, &tm, &tn);

    if (threadIdx.x == 0) {
        prefetch_map(&a_map);
        prefetch_map(&b_map);
        for (int s = 0; s < STAGES; s++) {
            mbar_init(smem_u32(&full[s]), 1);                   // the producer's arrive_expect_tx
            mbar_init(smem_u32(&empty[s]), CONSUMERS * 128);   // every consumer thread
        }
        fence_mbar_init();
    }
    __syncthreads();

    if (wg == 0) {  // ---------------- producer
        regs_dealloc<PRODUCER_REGS>();
        if (t == 0) {
            for (int k = 0; k < ktiles; k++) {
                const int s = k % STAGES;
                // the (k / STAGES)-th use of stage s waits for the consumers'
                // release of the use before it
                if (k >= STAGES) mbar_wait_loop(smem_u32(&empty[s]), (uint32_t)((k / STAGES - 1) & 1));
                const uint32_t bar = smem_u32(&full[s]), a = base + s * STAGE_BYTES;
                mbar_arrive_expect_tx(bar, STAGE_BYTES);
                tma_load_2d(a, &a_map, bar, k * BK, tm * BM);
                tma_load_2d(a + A_BYTES, &b_map, bar, k * BK, tn * BN);
            }
        }
        return;
    }

    // ---------------- consumers: warpgroup c = wg - 1 owns rows 64c .. 64c + 63 of the tile
    regs_alloc<CONSUMER_REGS>();
    const int c = wg - 1;
    float d[128];
#pragma unroll
    for (int i = 0; i < 128; i++) d[i] = 0.f;
    pin_accumulators(d);
    for (int k = 0; k < ktiles; k++) {
        const int s = k % STAGES;
        mbar_wait_loop(smem_u32(&full[s]), (uint32_t)((k / STAGES) & 1));
        const uint32_t a = base + s * STAGE_BYTES + c * 64 * (BK * 2), b = base + s * STAGE_BYTES + A_BYTES;
        const uint64_t da = desc0 + ((a & 0x3ffff) >> 4), db = desc0 + ((b & 0x3ffff) >> 4);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) wgmma_m64n256k16_bf16(d, da + 2 * kk, db + 2 * kk, 1);
        wgmma_commit();
        // Only this stage's group may still run: the previous stage's is
        // done reading shared memory, and its stage goes back to the producer.
        wgmma_wait<1>();
        pin_accumulators(d);
        if (k > 0) mbar_arrive(smem_u32(&empty[(k - 1) % STAGES]));
    }
    wgmma_wait<0>();
    pin_accumulators(d);

    // ---------------- epilogue: registers to C, guarded at the edges
    const int w = t / 32, l = t % 32;
    const int row0 = tm * BM + c * 64 + w * 16 + l / 4, col0 = tn * BN + 2 * (l % 4);
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int r = row0 + 8 * h;
        if (r >= M) continue;
        float *crow = C + (size_t)r * ldc;
#pragma unroll
        for (int j = 0; j < 32; j++) {
            const int col = col0 + 8 * j;
            const float v0 = d[4 * j + 2 * h], v1 = d[4 * j + 2 * h + 1];
            if (pairs && col + 1 < N) {
                *reinterpret_cast<float2 *>(crow + col) = make_float2(v0, v1);
            } else {
                if (col < N) crow[col] = v0;
                if (col + 1 < N) crow[col + 1] = v1;
            }
        }
    }
    //@starter
    //| /* TODO (README, task 2). tile_of(blockIdx.x, ...) gives this CTA's tile
    //|  * (tm, tn); round the dynamic shared memory's address up to SMEM_ALIGN
    //|  * (stage s: A at base + s * STAGE_BYTES, B A_BYTES after it).
    //|  * Thread 0: init full[s] (count 1) and empty[s] (count 256, every
    //|  * consumer thread) for each stage, fence_mbar_init(); __syncthreads().
    //|  * Warpgroup 0 (producer): regs_dealloc<PRODUCER_REGS>(); its thread 0,
    //|  * for each k-tile k: stage s = k % STAGES; from the second use of a stage
    //|  * on, wait on empty[s] (parity (k / STAGES - 1) & 1); mbar_arrive_expect_tx
    //|  * (full[s], STAGE_BYTES); tma_load_2d A at (k * BK, tm * BM) and B at
    //|  * (k * BK, tn * BN). Warpgroups 1, 2 (consumers, 64 rows each):
    //|  * regs_alloc<CONSUMER_REGS>(); zero 128 accumulators; per k-tile wait on
    //|  * full[s] (parity (k / STAGES) & 1), build the A and B descriptors from
    //|  * desc0 and the tiles' addresses, wgmma_fence(), four
    //|  * wgmma_m64n256k16_bf16 (+2 a k16 slice), wgmma_commit(), wgmma_wait<1>(),
    //|  * arrive on the previous stage's empty barrier. wgmma_wait<0>(), then
    //|  * store the accumulators (their layout: wgmma_m64n256k16_bf16 in
    //|  * hopper_ptx.cuh) with row < M and col < N guards. */
    //| (void)a_map, (void)b_map, (void)C, (void)ldc, (void)M, (void)N, (void)K, (void)desc0;
    //| (void)tiles_m, (void)tiles_n, (void)pairs;
    //@end
#endif
}

// ---------------------------------------------------------------- the host (given)
// encode_bf16_map (the two tensor maps) and zero_c (C = 0 when K == 0) are
// in phase5/common/hopper_host.cuh, included above.

// Raise the kernel's shared-memory limit once per device.
cudaError_t allow_smem()
{
    static int done_for = -1;
    int dev;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess || dev == done_for) return e;
    e = cudaFuncSetAttribute(wgmma_gemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM_BYTES);
    if (e == cudaSuccess) done_for = dev;
    return e;
}

}  // namespace

extern "C" cudaError_t wgmma_gemm_bf16(const uint16_t *A, const uint16_t *B, float *C, int M, int N, int K, size_t ldc)
{
    if (M < 0 || N < 0 || K < 0 || K % 8 != 0 || ldc < (size_t)N) return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    if (K == 0) return zero_c(C, ldc, M, N);
    if ((uintptr_t)A % 16 != 0 || (uintptr_t)B % 16 != 0) return cudaErrorInvalidValue;
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    if ((long long)tiles_m * tiles_n > INT_MAX) return cudaErrorInvalidValue;
    uint64_t desc0;
    if (wgmma_desc_bf16_sw128(0, 0, &desc0) != 0) return cudaErrorInvalidValue;  // task 1 not done yet
    // Everything that can fail comes before the launch: a refused call writes nothing.
    CUtensorMap a_map, b_map;
    cudaError_t e;
    if ((e = encode_bf16_map(&a_map, A, M, K, BM)) != cudaSuccess) return e;
    if ((e = encode_bf16_map(&b_map, B, N, K, BN)) != cudaSuccess) return e;
    if ((e = allow_smem()) != cudaSuccess) return e;
    // float2 stores need C and every row 8-byte aligned
    const int pairs = (uintptr_t)C % 8 == 0 && ldc % 2 == 0;
    wgmma_gemm_kernel<<<tiles_m * tiles_n, THREADS, SMEM_BYTES>>>(a_map, b_map, C, ldc, M, N, K, desc0, tiles_m,
                                                                  tiles_n, pairs);
    return cudaGetLastError();
}
