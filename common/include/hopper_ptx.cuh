// hopper_ptx.cuh — the PTX wrappers of Phase 5's Hopper GEMMs (weeks 54 and
// 55; phase5/common/, on every phase-5 week's include path), given: read
// each one before you write a kernel that calls it.
//
//   (from tma_ptx.h, included)      smem_u32, the mbarriers of the TMA ring
//                                   (mbar_init, fence_mbar_init, mbar_arrive_expect_tx,
//                                   mbar_arrive), TMA (tma_load_2d, prefetch_map)
//   mbar_wait_loop                  the wait on a phase, the loop inside the asm
//   regs_dealloc<N>, regs_alloc<N>  setmaxnreg: registers moved between warpgroups
//   wgmma_fence, wgmma_commit, wgmma_wait<N>, pin_accumulators
//                                   wgmma's ordering
//   wgmma_m64n256k16_bf16           one 64 x 256 x 16 BF16 wgmma, and its register layout
//
// sm_90a only: call them from code compiled for sm_90a alone (the weeks'
// kernels sit inside #if defined(__CUDA_ARCH_FEAT_SM90_ALL)). Each is a
// static __device__ __forceinline__ function, so every kernel file that
// includes this header gets its own inlined copy, exactly as if it were
// written in that file. ([[maybe_unused]]: a starter calls none of them
// until you write the kernel.)
#ifndef PHASE5_HOPPER_PTX_CUH
#define PHASE5_HOPPER_PTX_CUH

#include <stdint.h>

// the mbarrier and TMA wrappers (smem_u32, mbar_init, fence_mbar_init,
// mbar_arrive_expect_tx, mbar_arrive, tma_load_2d, prefetch_map): the same
// ones weeks 53 and 56 use
#include "tma_ptx.h"

// Wait until the phase with this parity has completed: tma_ptx.h's mbar_wait
// with the retry loop inside the asm (labels are local to its { } block)
// rather than around it. The same instruction and the same meaning; ptxas
// schedules the two forms differently, and weeks 54 and 55 were measured on
// the H100 with this one, weeks 53 and 56 with the other.
[[maybe_unused]] static __device__ __forceinline__ void mbar_wait_loop(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n\t.reg .pred done;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra LAB_WAIT;\n\t}" ::"r"(bar), "r"(parity)
                 : "memory");
}

// Registers: a warpgroup (all 128 threads, the same value) lowers or raises
// its per-thread register limit. Works only in a kernel with a register cap
// at entry (__launch_bounds__(THREADS, 1)); ptxas warns C7508 when it cannot.
template <int N> [[maybe_unused]] static __device__ __forceinline__ void regs_dealloc()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
}
template <int N> [[maybe_unused]] static __device__ __forceinline__ void regs_alloc()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
}

// wgmma's ordering, by the warpgroup (all 128 threads):
// fence: register writes by ordinary instructions (the accumulators' zeros)
//   are done before the wgmmas that follow read them;
// commit: the wgmmas issued since the last commit become one group;
// wait<N>: at most N groups are still running; the others' accumulators
//   may be read and their shared memory reused.
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
// The compiler does not know that a wgmma in flight still writes d: this
// empty asm, "reading and writing" each register, keeps it from moving the
// accumulators' uses across the fence and wait above.
[[maybe_unused]] static __device__ __forceinline__ void pin_accumulators(float (&d)[128])
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
[[maybe_unused]] static __device__ __forceinline__ void wgmma_m64n256k16_bf16(float (&d)[128], uint64_t da,
                                                                             uint64_t db, int scale_d)
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

#endif
