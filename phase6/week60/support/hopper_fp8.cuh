// hopper_fp8.cuh — week 60, given: the inline PTX of the Hopper GEMM (the
// same instructions weeks 54 and 55 use, under the same names, so a week 55
// kernel moves here unchanged) and the one new instruction, the FP8 wgmma;
// and the host's route to cuTensorMapEncodeTiled. Read each one before you
// call it.
//
//   smem_u32                                 a shared address as PTX takes it
//   mbar_init, fence_mbar_init, mbar_arrive_expect_tx, mbar_arrive, mbar_wait_loop
//                                            the ring's mbarriers
//   tma_load_2d, tma_store_2d, prefetch_map  TMA
//   fence_proxy_async_smem, bulk_commit, bulk_wait_read<N>, bulk_wait<N>
//                                            the TMA-store epilogue's ordering
//   regs_dealloc<N>, regs_alloc<N>           setmaxnreg
//   named_bar_sync                           one warpgroup's barrier
//   st_shared_b32                            4 bytes to shared memory
//   wgmma_fence, wgmma_commit, wgmma_wait<N>, pin_accumulators
//                                            wgmma's ordering
//   wgmma_m64n256k32_e4m3                    one 64 x 256 x 32 FP8 wgmma, and its register layout
//   encode_tiled_fn                          (host) the driver's tensor-map encoder
//
// (phase5/common/ holds weeks 54-56's copy; a phase-6 week cannot include
// another phase's common folder, so the ones this week needs are here.)
// sm_90a only: call the device ones from code compiled for sm_90a alone.
// Each is static and inlined: every file that includes this header gets its
// own copy. ([[maybe_unused]]: the starter calls none of them yet.)
#ifndef W60_HOPPER_FP8_CUH
#define W60_HOPPER_FP8_CUH

#include <cuda.h>          // CUtensorMap and its enums: types only, nothing links libcuda
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled_v12000
#include <cuda_runtime.h>
#include <stdint.h>

// ---------------------------------------------------------------- shared memory and mbarriers

// The 32-bit shared-window address of a shared variable (what .shared operands take).
[[maybe_unused]] static __device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

// Set up the mbarrier at `bar` to expect `count` arrivals a phase.
[[maybe_unused]] static __device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

// Publish the mbarrier inits to the async proxy (the TMA unit) before first use.
[[maybe_unused]] static __device__ __forceinline__ void fence_mbar_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// One arrival that also announces `bytes` of TMA transactions still to land:
// the phase completes when every arrival is in and every byte has landed.
[[maybe_unused]] static __device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

// One plain arrival (a consumer handing a stage back).
[[maybe_unused]] static __device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// Wait until the phase of this parity has completed; try_wait may return
// before it has (after a time the hardware picks), so the asm loops.
[[maybe_unused]] static __device__ __forceinline__ void mbar_wait_loop(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n\t.reg .pred ready;\n"
                 "W60_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 ready, [%0], %1;\n\t"
                 "@!ready bra W60_WAIT;\n\t}" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}

// ---------------------------------------------------------------- TMA

// Load the box at element (x, y) of `map` (x along the rows, y down them)
// into shared memory at dst; its bytes complete transactions on `bar`.
// Elements outside the tensor arrive as zeros (and still count as bytes).
[[maybe_unused]] static __device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *map, uint32_t bar,
                                                                    int x, int y)
{
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
            dst),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(x), "r"(y)
        : "memory");
}

// Store the box in shared memory at src to element (x, y) of `map`; the
// parts of the box outside the tensor are not written (whole 16-byte units:
// see fp8_gemm.h for why N must then be a multiple of 8).
[[maybe_unused]] static __device__ __forceinline__ void tma_store_2d(const CUtensorMap *map, uint32_t src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(
                     reinterpret_cast<uint64_t>(map)),
                 "r"(src), "r"(x), "r"(y)
                 : "memory");
}

// Fetch a tensor map (a __grid_constant__ kernel parameter) into the TMA unit early.
[[maybe_unused]] static __device__ __forceinline__ void prefetch_map(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// This thread's shared-memory writes (generic proxy) before the TMA reads
// (async proxy) of the stores that follow.
[[maybe_unused]] static __device__ __forceinline__ void fence_proxy_async_smem()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// The TMA stores issued since the last commit become one bulk group.
[[maybe_unused]] static __device__ __forceinline__ void bulk_commit()
{
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

// Wait until at most N bulk groups still read their shared memory (.read:
// the source may be reused; their global writes may still be in flight).
template <int N> [[maybe_unused]] static __device__ __forceinline__ void bulk_wait_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

// Wait until at most N bulk groups are incomplete, global writes included.
template <int N> [[maybe_unused]] static __device__ __forceinline__ void bulk_wait()
{
    asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
}

// ---------------------------------------------------------------- registers, barriers, stores

// setmaxnreg: a whole warpgroup (same N in all 128 threads) lowers or raises
// its register limit. Needs a register cap at entry (__launch_bounds__(T, 1)).
template <int N> [[maybe_unused]] static __device__ __forceinline__ void regs_dealloc()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
}
template <int N> [[maybe_unused]] static __device__ __forceinline__ void regs_alloc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
}

// The n threads (a multiple of 32) that call this with the same id (1-15;
// 0 is __syncthreads') wait for one another; other warps run on.
[[maybe_unused]] static __device__ __forceinline__ void named_bar_sync(int id, int n)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}

// Four bytes (two BF16 values) to shared memory at addr (4-byte aligned).
[[maybe_unused]] static __device__ __forceinline__ void st_shared_b32(uint32_t addr, uint32_t v)
{
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

// ---------------------------------------------------------------- wgmma

// By the whole warpgroup: fence (register writes by ordinary instructions,
// such as the accumulators' zeros, are done before the wgmmas after it read
// them); commit (the wgmmas since the last commit are one group); wait<N>
// (at most N groups still run; the others' registers and shared memory are free).
[[maybe_unused]] static __device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
[[maybe_unused]] static __device__ __forceinline__ void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N> [[maybe_unused]] static __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// The compiler does not know a wgmma in flight still writes d: this empty
// asm, reading and writing every accumulator, keeps their uses from moving
// across the fence and the wait.
[[maybe_unused]] static __device__ __forceinline__ void pin_accumulators(float (&d)[128])
{
#pragma unroll
    for (int i = 0; i < 128; i++) asm volatile("" : "+f"(d[i])::"memory");
}

// One FP8 wgmma: d (64 x 256 FP32, 128 registers a thread) += A (64 x 32
// E4M3, descriptor da) times B (256 x 32 E4M3, descriptor db) transposed.
// Both from shared memory and both K-major: FP8 wgmma has no transpose
// operands (PTX ISA, wgmma.mma_async: the transpose is only for .f16/.bf16),
// so the two trailing 1s are imm-scale-a and imm-scale-b (+1: no negation).
// scale_d == 0 ignores d's old value. k32 is 32 bytes of a row, as BF16's
// k16 is: the descriptors are week 54's, bit for bit, and the next slice is
// 32 bytes on (+2 in the start-address field). Issued by all 128 threads of
// a warpgroup; returns at once. The accumulators' layout is BF16's: thread
// l of warp w holds, for j = 0..31 (columns 8j..8j+7):
//   d[4j + 0], d[4j + 1]: row 16w + l/4,     columns 8j + 2(l%4), + 1
//   d[4j + 2], d[4j + 3]: row 16w + l/4 + 8, the same columns
// Precision (PTX ISA 9.2 and later, wgmma.mma_async, "Precision and
// rounding"): with .e4m3/.e5m2 inputs and .f32 accumulators, the current
// implementation accumulates "at higher than half precision but lower than
// single precision" (README, "The tolerance").
[[maybe_unused]] static __device__ __forceinline__ void wgmma_m64n256k32_e4m3(float (&d)[128], uint64_t da,
                                                                             uint64_t db, int scale_d)
{
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %130, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                 "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
                 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
                 "%128, %129, p, 1, 1;\n\t}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                   "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                   "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                   "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                   "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
                   "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
                   "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
                   "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                   "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]),
                   "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                   "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]),
                   "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]),
                   "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]),
                   "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),
                   "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),
                   "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]),
                   "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]),
                   "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db), "r"(scale_d));
}

// ---------------------------------------------------------------- the host

// cuTensorMapEncodeTiled is the driver's: ask the runtime for its address
// (the 12.0 prototype), so nothing links -lcuda. NULL, with *err set, when
// the driver has none.
[[maybe_unused]] static PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_fn(cudaError_t *err)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
    if (fn) return fn;
    void *p = nullptr;
    cudaDriverEntryPointQueryResult got = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &got);
    if (e != cudaSuccess || got != cudaDriverEntryPointSuccess || !p) {
        *err = e != cudaSuccess ? e : cudaErrorNotSupported;
        return nullptr;
    }
    fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    return fn;
}

#endif
