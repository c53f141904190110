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
#include <cuda.h>          // CUtensorMap and its enums: types only, nothing links libcuda
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_runtime.h>
#include <limits.h>
#include <stdint.h>

#include "wgmma_desc.h"  // week 54 (uses: phase5/week54): the descriptor template desc0
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

// ---------------------------------------------------------------- the PTX (given: week 54's, unchanged)
// Week 54's wrappers, repeated: they live in week 54's wgmma_gemm.cu, and a
// week may include a used week's headers but never its .cu.
// ([[maybe_unused]]: the starter calls none of them until you write the kernel.)

// A shared-memory address as the 32-bit offset PTX's shared::cta operands take.
[[maybe_unused]] __device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// mbarriers, as in week 53: init with an arrival count, the init made
// visible to the async proxy (TMA), arrive (with or without announcing the
// bytes a TMA load will deliver), and wait for the phase of a given parity.
[[maybe_unused]] __device__ __forceinline__ void mbarrier_init(uint32_t bar, uint32_t arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals) : "memory");
}
[[maybe_unused]] __device__ __forceinline__ void fence_barrier_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
[[maybe_unused]] __device__ __forceinline__ void mbarrier_expect_bytes(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
[[maybe_unused]] __device__ __forceinline__ void mbarrier_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
// The loop is inside the asm (labels are local to its { } block): try_wait
// may return false after a time the hardware chooses, and then we ask again.
[[maybe_unused]] __device__ __forceinline__ void mbarrier_wait_parity(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n\t.reg .pred done;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra LAB_WAIT;\n\t}" ::"r"(bar), "r"(parity)
                 : "memory");
}

// TMA: the box at (x = column of K, y = row) of `map` into shared memory at
// dst, its bytes counted on the mbarrier bar. Past the tensor's edge TMA
// writes zeros, and still counts the whole box's bytes.
[[maybe_unused]] __device__ __forceinline__ void tma_load_tile(uint32_t dst, const CUtensorMap *map, uint32_t bar,
                                                               int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar)
                 : "memory");
}
[[maybe_unused]] __device__ __forceinline__ void tma_prefetch_map(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}

// Registers: a warpgroup (all 128 threads, the same value) lowers or raises
// its per-thread register limit. Works only in a kernel with a register cap
// at entry (__launch_bounds__(THREADS, 1)); ptxas warns C7508 when it cannot.
template <int N> [[maybe_unused]] __device__ __forceinline__ void regs_dealloc()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
}
template <int N> [[maybe_unused]] __device__ __forceinline__ void regs_alloc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
}

// wgmma's ordering, by the warpgroup (all 128 threads):
// fence: register writes by ordinary instructions (the accumulators' zeros)
//   are done before the wgmmas that follow read them;
// commit: the wgmmas issued since the last commit become one group;
// wait<N>: at most N groups are still running; the others' accumulators
//   may be read and their shared memory reused.
[[maybe_unused]] __device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
[[maybe_unused]] __device__ __forceinline__ void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N> [[maybe_unused]] __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
// The compiler does not know that a wgmma in flight still writes d: this
// empty asm, "reading and writing" each register, keeps it from moving the
// accumulators' uses across the fence and wait above.
[[maybe_unused]] __device__ __forceinline__ void pin_accumulators(float (&d)[128])
{
#pragma unroll
    for (int i = 0; i < 128; i++) asm volatile("" : "+f"(d[i])::"memory");
}

// One wgmma: d (64 x 256 FP32, 128 registers a thread) += A (64 x 16 BF16,
// descriptor da) times B (256 x 16 BF16, descriptor db) transposed, both
// K-major in shared memory (the two 0s: no transpose). scale_d == 0 would
// ignore d's old value (d = A B^T); the 1s scale A and B by +1. Issued by all
// 128 threads of a warpgroup together; returns at once (asynchronous).
// Thread l of warp w of the warpgroup holds, for j = 0..31 (columns 8j..8j+7):
//   d[4j + 0], d[4j + 1]: row 16w + l/4,     columns 8j + 2(l%4), + 1
//   d[4j + 2], d[4j + 3]: row 16w + l/4 + 8, the same columns
[[maybe_unused]] __device__ __forceinline__ void wgmma_m64n256k16_bf16(float (&d)[128], uint64_t da, uint64_t db,
                                                                      int scale_d)
{
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %130, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
                 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
                 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
                 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127},"
                 " %128, %129, p, 1, 1, 0, 0;\n\t}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                   "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                   "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                   "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                   "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                   "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                   "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                   "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                   "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db), "r"(scale_d));
}

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

// C = 0 where K == 0: rows of N floats, ldc apart.
__global__ void zero_kernel(float *C, size_t ldc, int M, int N)
{
    const size_t n = (size_t)M * N;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        C[i / N * ldc + i % N] = 0.f;
}

// ---------------------------------------------------------------- the host (given)

// A tensor map over a row-major BF16 matrix of `rows` rows of K elements, in
// boxes of 64 x box_rows with the 128B swizzle and zeros past the edges
// (week 53's rules: base 16-byte aligned, row stride K * 2 a multiple of 16).
// cuTensorMapEncodeTiled comes from the runtime's driver entry point, so
// nothing links -lcuda.
cudaError_t encode_bf16_map(CUtensorMap *map, const uint16_t *base, int rows, int K, int box_rows)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    if (!encode) {
        void *fn = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found);
        if (e != cudaSuccess) return e;
        if (found != cudaDriverEntryPointSuccess || !fn) return cudaErrorNotSupported;
        encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    }
    const cuuint64_t dims[2] = { (cuuint64_t)K, (cuuint64_t)rows }, strides[1] = { (cuuint64_t)K * 2 };
    const cuuint32_t box[2] = { BK, (cuuint32_t)box_rows }, unit[2] = { 1, 1 };
    CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<uint16_t *>(base), dims, strides, box, unit,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

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
    if (K == 0) {
        const size_t n = (size_t)M * N;
        zero_kernel<<<(unsigned)(n / 256 + 1 < 4096 ? n / 256 + 1 : 4096), 256>>>(C, ldc, M, N);
        return cudaGetLastError();
    }
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
