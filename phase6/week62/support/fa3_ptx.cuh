// fa3_ptx.cuh — week 62's own PTX wrappers, given: what the attention kernel
// needs beside phase 5's (hopper_ptx.cuh and tma_ptx.h, in the workbook's
// common/include/). Read each one before you write the kernel.
//
//   tma_load_3d              a TMA box load from a 3-D tensor map (d, row, head)
//   wgmma_m64n128k16_ss      S = Q K^T: A and B from shared memory (descriptors)
//   wgmma_m64n128k16_rs      O += P V: A (P) from registers, B (V) MN-major in shared memory
//   pin64                    pin_accumulators for 64 registers
//   fast_exp2                ex2.approx.ftz.f32
//   pack_bf16x2              two floats to one bf16x2 register (the A fragment's element pair)
//
// sm_90a only (wgmma): call them from code compiled for sm_90a alone.
// ([[maybe_unused]]: a starter calls none of them until you write the kernel.)
#ifndef WEEK62_FA3_PTX_CUH
#define WEEK62_FA3_PTX_CUH

#include <cuda.h>  // CUtensorMap: the type only
#include <stdint.h>

#include "hopper_ptx.cuh"  // smem_u32, mbarriers, setmaxnreg, wgmma fence / commit / wait (phase 5's, common/include)

// Start fetching the box at (x, y, z) of a 3-D tensor map into shared memory
// at `dst`; its bytes (the whole box, zeros included where it lies past the
// tensor's edge) complete a transaction on the mbarrier `bar`. Here x is the
// column along D, y the row (token) inside one head, z the head (b * H + h):
// rows past S read as zeros and never another head's.
[[maybe_unused]] static __device__ __forceinline__ void tma_load_3d(uint32_t dst, const CUtensorMap *map, uint32_t bar,
                                                                    int x, int y, int z)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
                 ::"r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(x), "r"(y), "r"(z)
                 : "memory");
}

// The 64 accumulators' "+f" list, for the two wgmmas below.
#define FA3_D64(d)                                                                                                   \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),     \
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),       \
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),      \
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),      \
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),      \
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),      \
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),      \
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define FA3_D64_LIST                                                                                                 \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
    "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, "   \
    "%46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"

// d (64 x 128 FP32, 64 registers a thread) (+)= A (64 x 16 BF16, descriptor
// da, K-major) times B (128 x 16 BF16, descriptor db, K-major) transposed:
// S = Q K^T, both operands with D contiguous. scale_d == 0: d = A B^T (the
// first k-step of a tile), else d += A B^T. Issued by all 128 threads of a
// warpgroup together; asynchronous (wgmma_commit, wgmma_wait).
// Thread l of warp w of the warpgroup holds, for j = 0..15 (columns 8j..8j+7):
//   d[4j + 0], d[4j + 1]: row 16w + l/4,     columns 8j + 2(l%4), + 1
//   d[4j + 2], d[4j + 3]: row 16w + l/4 + 8, the same columns
[[maybe_unused]] static __device__ __forceinline__ void wgmma_m64n128k16_ss(float (&d)[64], uint64_t da, uint64_t db,
                                                                           int scale_d)
{
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %66, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " FA3_D64_LIST ", %64, %65, p, 1, 1, 0, 0;\n\t}"
                 : FA3_D64(d)
                 : "l"(da), "l"(db), "r"(scale_d));
}

// d (64 x 128 FP32) += A (64 x 16 BF16 from registers) times B (16 x 128
// BF16, descriptor db): O += P V. a[0..3] are the thread's A fragment, two
// bf16 a register (the lower column in the low half), in the accumulator's
// own layout restricted to 16 columns (PTX ISA, "Register fragment layout
// for matrix A" of wgmma .m64nNk16):
//   a[0]: row 16w + l/4,     columns 2(l%4), + 1     a[1]: row + 8, the same columns
//   a[2]: row 16w + l/4,     columns 2(l%4) + 8, + 9 a[3]: row + 8, the same columns
// The last immediate, imm-trans-b = 1, says that B is MN-major (V's rows
// are keys, D contiguous: N contiguous, not K): the descriptor is the
// MN-major one (fa3_fwd_desc, FA3_DESC_V). Always accumulates (scale-d 1).
// a[] must not change until the wgmma is waited for.
[[maybe_unused]] static __device__ __forceinline__ void wgmma_m64n128k16_rs(float (&d)[64], const uint32_t (&a)[4],
                                                                           uint64_t db)
{
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, 1, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " FA3_D64_LIST
                 ", {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n\t}"
                 : FA3_D64(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

// pin_accumulators (hopper_ptx.cuh) for 64 registers: keeps the compiler
// from moving the accumulators' uses across wgmma_fence and wgmma_wait.
[[maybe_unused]] static __device__ __forceinline__ void pin64(float (&d)[64])
{
#pragma unroll
    for (int i = 0; i < 64; i++) asm volatile("" : "+f"(d[i])::"memory");
}

// 2^x, one MUFU op (ex2.approx, denormals flushed; 2^-inf = 0).
[[maybe_unused]] static __device__ __forceinline__ float fast_exp2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

// lo and hi rounded to bf16 (nearest even) in one register: lo in bits
// 0-15, hi in 16-31 (the lower column of an A fragment pair goes low).
[[maybe_unused]] static __device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi)
{
    uint32_t r;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

#endif
