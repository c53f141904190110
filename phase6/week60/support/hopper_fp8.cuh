// hopper_fp8.cuh — week 60, given: the one new instruction, the FP8 wgmma,
// and two small helpers the epilogue uses. The rest of the Hopper GEMM's
// inline PTX is Phase 5's, under the names weeks 54 and 55 use (so a week 55
// kernel moves here unchanged), in the workbook's common/include/:
// hopper_ptx.cuh, which includes tma_ptx.h. Read each one before you call it.
//
//   (tma_ptx.h)      smem_u32; mbar_init, fence_mbar_init, mbar_arrive_expect_tx,
//                    mbar_arrive; tma_load_2d, tma_store_2d, prefetch_map;
//                    fence_proxy_async_smem, bulk_commit, bulk_wait_read<N>,
//                    bulk_wait<N>; encode_tiled_fn (host: the driver's encoder)
//   (hopper_ptx.cuh) mbar_wait_loop; regs_dealloc<N>, regs_alloc<N> (setmaxnreg);
//                    wgmma_fence, wgmma_commit, wgmma_wait<N>, pin_accumulators
//   here             named_bar_sync (one warpgroup's barrier), st_shared_b32
//                    (4 bytes to shared memory), wgmma_m64n256k32_e4m3 (one
//                    64 x 256 x 32 FP8 wgmma, and its register layout)
//
// sm_90a only: call the device ones from code compiled for sm_90a alone.
// Each is static and inlined: every file that includes this header gets its
// own copy. ([[maybe_unused]]: the starter calls none of them yet.)
#ifndef W60_HOPPER_FP8_CUH
#define W60_HOPPER_FP8_CUH

#include <stdint.h>
#include "hopper_ptx.cuh"

// ---------------------------------------------------------------- barriers, stores

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

// ---------------------------------------------------------------- the FP8 wgmma

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

#endif
