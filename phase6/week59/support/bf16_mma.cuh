/* bf16_mma.cuh — week 59's PTX wrappers (given): the week 26 and 38 ones for
 * bf16, and one vector reduction of sm_90. Included by the given forward
 * (attn_fwd_lse.cu) and by the exercise (flash_bwd.cu). [[maybe_unused]]: the
 * starter does not call them yet. */
#ifndef W59_BF16_MMA_CUH
#define W59_BF16_MMA_CUH

#include <stdint.h>
#include <cuda_bf16.h>

[[maybe_unused]] static __device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* 16 bytes global -> shared; when !full nothing is read and the 16 bytes are
 * zero-filled (src must still be a valid address). */
[[maybe_unused]] static __device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, bool full)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(full ? 16 : 0)
                 : "memory");
}
[[maybe_unused]] static __device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
/* Wait until at most N of this thread's committed groups are still in flight. */
template <int N> static __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Four 8 x 8 b16 matrices; lanes 8i .. 8i+7 give the row addresses of matrix i.
 * Without .trans lane l gets row l / 4, elements 2 (l % 4), +1 of each matrix;
 * with .trans the same of the transposed matrix. */
[[maybe_unused]] static __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}
[[maybe_unused]] static __device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

/* c += a (16 x 16, row) * b (16 x 8, col); bf16 in, fp32 accumulate.
 * g = lane / 4, t = lane % 4: a holds rows g, g+8 x k 2t..2t+1, 2t+8..2t+9;
 * b holds k 2t..2t+1, 2t+8..2t+9 x column g; c holds rows g, g+8 x columns 2t, 2t+1. */
[[maybe_unused]] static __device__ __forceinline__ void mma_bf16_16816(float (&c)[4], const uint32_t (&a)[4],
                                                                       uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* Two floats to one bf16x2 register: lo in the low half (the lower k). */
[[maybe_unused]] static __device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi)
{
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
}

/* 2^x on the special-function unit; 2^-inf = +0. */
[[maybe_unused]] static __device__ __forceinline__ float fast_exp2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}

/* p[0] += a, p[1] += b in one reduction (no value returned), p 8-byte aligned:
 * the vector form of red is sm_90's (PTX ISA 8.1), half the operations of two
 * atomicAdd. */
[[maybe_unused]] static __device__ __forceinline__ void red_add_f32x2(float *p, float a, float b)
{
    asm volatile("red.relaxed.gpu.global.add.v2.f32 [%0], {%1, %2};\n" ::"l"(p), "f"(a), "f"(b) : "memory");
}

/* Element offset of 16-byte chunk c of row r in a tile with rows of D bf16,
 * the chunk XORed with the row's low 3 bits: the 8 rows one ldmatrix phase
 * reads at the same chunk fall in 8 different 16-byte bank groups. */
template <int D> static __device__ __forceinline__ int swz(int r, int c) { return r * D + ((c ^ (r & 7)) << 3); }

#endif
