/* w4a16_decode.cu — week 58: y = x dequant(W) for M <= 16 rows of x, the
 * decode step of a language model. The packed weights are read once, 16
 * bytes a load, and every weight serves all M rows: at the copy's speed the
 * kernel is done (the README's byte count).
 *
 * At M = 16 the arithmetic (16 multiply-adds a weight) is more than the FP32
 * CUDA cores can do at the speed the weights arrive, so the rows go through
 * the tensor cores (mma.sync.m16n8k16), the weights dequantised in registers
 * (the 0x6400 trick, README) as one operand and x as the other. Neither
 * needs a trip through shared memory in W's order, because a dot product
 * does not care in which order k runs: the k-slots of an mma are mapped onto
 * the nibbles a thread already holds, and x is paired the same way. Where
 * the column tiles are too few to fill the GPU, the groups are split over
 * blocks too (split-K): each block writes FP32 partial sums, and the last
 * block of a column tile to finish (week 08's ticket) adds them in order and
 * writes y.
 *
 * Two arrangements, both in the README. The first (its Background, and the
 * shape the TODO below suggests): x is the A operand (rows past M zero), the
 * weights B; a block of 8 warps covers 256 columns, each thread loading one
 * uint4 of a word-row for every 32 k, the next group's words loaded before
 * this group's are used. The reference, since step 9 of the README's story,
 * swaps the operands: the weights are A (16 columns x 16 k, a thread's four
 * words rows g and g + 8 of two A tiles) and x is B (16 k x 8 rows), so at
 * M <= 8 one mma does the work of two and each thread ends with its own
 * columns; x is staged once a block in shared memory, already in the B
 * fragments' order, and read with ldmatrix; the scale multiplies each
 * group's FP32 sums, not each weight; blocks of 16 warps cover 512 columns,
 * one block an SM. The story says what each step gained, and what was tried
 * and lost. */
#include <string.h>
#include <cuda_fp16.h>
#include "w4a16_decode.h"

#define DEC_THREADS 256 /* the first arrangement's block: 8 warps */
#define DEC_COLS 256 /* its columns a block: 8 warps x 32 */
#define DEC_GROUP 128
#define DEC_XS 4           /* x chunks in a shared ring (the README's step 5, variant 0) */
#define DEC_MAX_SPLITS 32  /* at most this many blocks add into one column tile */

//@solution
/* The variants below share helpers the chosen one may not call: no warning
 * for an unused static function in this file. */
#pragma nv_diag_suppress 177
/* W58_DEC_VARIANT picks the decode main loop at compile time (-D...), for
 * measuring on the GPU. Each thread makes the same products in the same mma
 * chain in variants 0-3, so y is the same bit for bit wherever two of them
 * split the groups alike (0, 1 and 2 always do; 3 splits more where the GPU
 * holds more of its blocks, and its FP32 partials then add up in other
 * groupings, within the test's tolerance, not bit for bit); 5 at M <= 8
 * rounds differently (the scale applied to sums, not to each weight), within
 * the test's tolerance:
 *  0  the kernel above: x through the shared ring filled by cp.async, one
 *     __syncthreads a group, the next group's words in registers; 2 blocks
 *     an SM (102 registers);
 *  1  no barrier in the main loop: each warp reads its x from global memory
 *     through L1 (__ldg) and runs on its own; still one group in flight
 *     (124 registers);
 *  2  1, and two groups of words, scales and zeros in flight ahead of the
 *     one being dequantised (three register sets in rotation; 128
 *     registers, the most two blocks an SM allow);
 *  3  1 with more warps and more in flight: 3 blocks an SM
 *     (__launch_bounds__(256, 3), 80 registers), the next two groups' words,
 *     scales and zeros copied by cp.async into a per-thread ring in shared
 *     memory (60 KiB a block), each thread reading back only its own bytes,
 *     so still no barrier. 2's three register sets cannot be had at 80
 *     registers (the sets and the accumulators alone are 76), and even one
 *     group in flight in registers spills there.
 *  5  1 for M > 8; for M <= 8 a group that subtracts the zero in half
 *     (exact: small integers), leaves the scale out of the weights and
 *     applies it to the mmas' sums of the group in FP32 (a second set of
 *     accumulators; dec_group5), and loads and pairs only row g's x
 *     (122 registers).
 *  9  the operands swapped: the weights are the A operand (16 columns x
 *     16 k), x the B operand (16 k x 8 rows), so at M <= 8 one mma does
 *     the work of two above; each word dequantised exactly to q - z in 9
 *     instructions, the scale applied to the group's FP32 sums; x staged
 *     by the block in shared memory in B-fragment order (32 groups at a
 *     time), read by ldmatrix; blocks of 16 warps, one an SM (117-118
 *     registers). dec_group8 and w4_decode_kernel9 below say how.
 * Split-K's grid follows the blocks an SM, as it asks the occupancy
 * calculator: 4 splits at N = 16384 on an H100 for 0-2, 5 and 9, 6 for 3.
 * The default is 9 (README, step 9 of the story: on an H200, 0.720 of
 * COPY at M = 1 and 0.587 at M = 16 in the week's check, against 5's 0.662
 * and 0.563); before it 5, which is 1 at M = 16 (step 7), and before that
 * 1 (step 5: 0.59 and 0.56 against 0's 0.51 and 0.49).
 * A variant 4 (a producer warp filling a shared ring by cp.async.bulk on
 * mbarriers) lost to 1 on an H200 at every setting tried, 0.32-0.50 of
 * COPY, and was removed: instructor/tune/w58/NOTES.md has its figures. */
#ifndef W58_DEC_VARIANT
#define W58_DEC_VARIANT 9
#endif
#if W58_DEC_VARIANT < 0 || (W58_DEC_VARIANT > 3 && W58_DEC_VARIANT != 5 && W58_DEC_VARIANT != 9)
#error "W58_DEC_VARIANT is 0, 1, 2, 3 or 5"
#endif

static __device__ __forceinline__ __half2 as_h2(uint32_t u)
{
    __half2 h;
    memcpy(&h, &u, 4);
    return h;
}
static __device__ __forceinline__ uint32_t as_u32(__half2 h)
{
    uint32_t u;
    memcpy(&u, &h, 4);
    return u;
}

/* (w & 0x000f000f) | 0x64006400 in one lop3: the nibbles at bits 0-3 and
 * 16-19 become the mantissas of two halves with exponent 2^10, 1024 + q. */
static __device__ __forceinline__ uint32_t nibbles_to_1024q(uint32_t w)
{
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, 0xea;\n" : "=r"(r) : "r"(w), "r"(0x000f000fu), "r"(0x64006400u));
    return r;
}

/* One word's eight weights: d[i] = ((q_i - z) s, (q_i+4 - z) s), i = 0..3.
 * zz = 1024 + z in both halves, so (1024 + q) - zz = q - z exactly and the
 * one rounding is the product's: the layout's value. */
static __device__ __forceinline__ void dequant8(uint32_t w, __half2 zz, __half2 ss, uint32_t (&d)[4])
{
#pragma unroll
    for (int i = 0; i < 4; i++) d[i] = as_u32(__hmul2(__hsub2(as_h2(nibbles_to_1024q(w >> (4 * i))), zz), ss));
}

static __device__ __forceinline__ void mma16816(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

static __device__ __forceinline__ int lane_id()
{
    int l;
    asm volatile("mov.u32 %0, %%laneid;\n" : "=r"(l));
    return l;
}

static __device__ __forceinline__ void cp_async16(uint32_t saddr, const void *g)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(saddr), "l"(g));
}
static __device__ __forceinline__ void cp_async8(uint32_t saddr, const void *g)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(saddr), "l"(g));
}
/* cp.async.wait_group that the compiler may not move shared loads above
 * (variant 3 has no __syncthreads to fence them). */
template <int N> static __device__ __forceinline__ void cp_async_wait_mem()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
static __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> static __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

/* 8 floats (columns 8t + j from c[j][h], 8t + 4 + j from c[j][h+1]) as 8 halves. */
static __device__ __forceinline__ uint4 pack8(const float (&v)[8])
{
    return make_uint4(as_u32(__floats2half2_rn(v[0], v[1])), as_u32(__floats2half2_rn(v[2], v[3])),
                      as_u32(__floats2half2_rn(v[4], v[5])), as_u32(__floats2half2_rn(v[6], v[7])));
}
static __device__ __forceinline__ void row8(const float (&acc)[4][4], int h, float (&v)[8])
{
#pragma unroll
    for (int j = 0; j < 4; j++) v[j] = acc[j][h], v[4 + j] = acc[j][h + 1];
}

/* One group of 128 k for this thread's four columns: wc holds word-rows
 * 4s + t (s = 0..3) of columns col .. col+3, sc2 and zc2 their scales and
 * zeros; xf(s, xl, xh) gives x[row][32 s + 8 t .. +7] of rows g and g + 8
 * (zeros past M). Two mmas a column tile and s, in the order s, j.
 * Variants 1-3 use it; variant 0 keeps the same lines inline, as before:
 * through this function ptxas orders and allocates the loop differently,
 * and variant 0 is to stay today's machine code (its .text is identical). */
template <class XF>
static __device__ __forceinline__ void dec_group(float (&acc)[4][4], const uint4 (&wc)[4], uint2 sc2, uint2 zc2,
                                                 XF &&xf)
{
    const __half2 k1024 = as_h2(0x64006400u);
    __half2 zz[4], ss[4];
    const __half *sh = (const __half *)&sc2, *zh = (const __half *)&zc2;
#pragma unroll
    for (int j = 0; j < 4; j++) ss[j] = __half2half2(sh[j]), zz[j] = __hadd2(__half2half2(zh[j]), k1024);

#pragma unroll
    for (int s = 0; s < 4; s++) {
        uint4 xl, xh;
        xf(s, xl, xh);
        /* k-slots 2t, 2t+1 | 2t+8, 2t+9 of the first mma hold k = 0, 4 | 1, 5 of the word, of the second 2, 6 | 3, 7 */
        const uint32_t a0[4] = { __byte_perm(xl.x, xl.z, 0x5410), __byte_perm(xh.x, xh.z, 0x5410),
                                 __byte_perm(xl.x, xl.z, 0x7632), __byte_perm(xh.x, xh.z, 0x7632) };
        const uint32_t a1[4] = { __byte_perm(xl.y, xl.w, 0x5410), __byte_perm(xh.y, xh.w, 0x5410),
                                 __byte_perm(xl.y, xl.w, 0x7632), __byte_perm(xh.y, xh.w, 0x7632) };
        const uint32_t wv[4] = { wc[s].x, wc[s].y, wc[s].z, wc[s].w };
#pragma unroll
        for (int j = 0; j < 4; j++) {
            uint32_t d[4];
            dequant8(wv[j], zz[j], ss[j], d);
            mma16816(acc[j], a0, d[0], d[1]);
            mma16816(acc[j], a1, d[2], d[3]);
        }
    }
}

/* One group for variant 5 (M <= 8: rows 8-15 are zeros, their x neither
 * loaded nor paired): B = q - z exactly ((1024 + q) - (1024 + z) in half:
 * small integers), the group's products summed in accg by the mmas, then
 * scaled in FP32 into acc by the scales of the thread's output columns (sv:
 * columns 8t .. 8t + 7 of the warp's 32; acc[j][0] is column 8t + j,
 * acc[j][1] column 8t + 4 + j). One subtraction a pair of weights instead
 * of a subtraction and a product, and the scale applied to 8 sums a group
 * instead of 128 weights. With 16 rows the second set of accumulators does
 * not fit variant 1's 128 registers (ptxas spilled and it measured slower),
 * so M > 8 keeps variant 1's group. */
template <class XF>
static __device__ __forceinline__ void dec_group5(float (&acc)[4][4], const uint4 (&wc)[4], uint2 zc2, uint4 sv,
                                                  XF &&xf)
{
    const __half2 k1024 = as_h2(0x64006400u);
    __half2 zz[4];
    const __half *zh = (const __half *)&zc2;
#pragma unroll
    for (int j = 0; j < 4; j++) zz[j] = __hadd2(__half2half2(zh[j]), k1024);
    float accg[4][4];
#pragma unroll
    for (int s = 0; s < 4; s++) {
        uint4 xl;
        xf(s, xl);
        const uint32_t a0[4] = { __byte_perm(xl.x, xl.z, 0x5410), 0u,
                                 __byte_perm(xl.x, xl.z, 0x7632), 0u };
        const uint32_t a1[4] = { __byte_perm(xl.y, xl.w, 0x5410), 0u,
                                 __byte_perm(xl.y, xl.w, 0x7632), 0u };
        const uint32_t wv[4] = { wc[s].x, wc[s].y, wc[s].z, wc[s].w };
#pragma unroll
        for (int j = 0; j < 4; j++) {
            uint32_t d[4];
#pragma unroll
            for (int i = 0; i < 4; i++) d[i] = as_u32(__hsub2(as_h2(nibbles_to_1024q(wv[j] >> (4 * i))), zz[j]));
            if (s == 0)
#pragma unroll
                for (int q = 0; q < 4; q++) accg[j][q] = 0.f;
            mma16816(accg[j], a0, d[0], d[1]);
            mma16816(accg[j], a1, d[2], d[3]);
        }
    }
    const __half *sh = (const __half *)&sv;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const float s0 = __half2float(sh[j]), s1 = __half2float(sh[4 + j]);
        acc[j][0] = fmaf(s0, accg[j][0], acc[j][0]);
        acc[j][1] = fmaf(s1, accg[j][1], acc[j][1]);
    }
}

/* Variants of the main loop (W58_DEC_VARIANT, see the top of this region). */
template <int V> struct dec_cfg {
    static constexpr bool xring = V == 0;        /* x through the shared ring, a barrier a group */
    static constexpr int depth = V == 2 ? 3 : 2;  /* 1, 2: register sets of words (1 in use, depth - 1 in flight) */
    static constexpr int stages = V == 3 ? 3 : 0; /* 3: stages of the per-thread ring (stages - 1 in flight) */
    static constexpr int blocks = V == 3 ? 3 : 2; /* blocks an SM (__launch_bounds__) */
    /* 3: dynamic shared memory, a stage = each thread's 4 uint4 of words and one of scales and zeros */
    static constexpr int smem = stages * 5 * DEC_THREADS * 16;
};

template <int V>
static __global__ void __launch_bounds__(DEC_THREADS, dec_cfg<V>::blocks)
    w4_decode_kernel(const __half *__restrict__ x, const uint32_t *__restrict__ wq, const __half *__restrict__ sc,
                     const __half *__restrict__ zr, __half *__restrict__ y, float *__restrict__ ws,
                     unsigned *__restrict__ tickets, int M, int N, int K, int gps)
{
    /* x chunk: 16 rows x 128 halves (16 pieces of 16 bytes a row); odd rows
     * have their pieces XORed with 4, so that rows g and g+1, read by one
     * quarter-warp, fall on different banks. (Variant 0 only: the others
     * never touch it and the compiler drops it.) */
    __shared__ __align__(16) uint4 xs[DEC_XS][16][16];
    __shared__ bool last;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const int S = gridDim.y, split = blockIdx.y, groups = K / DEC_GROUP;
    const int g0 = split * gps, G = min(gps, groups - g0);
    const int wcol = blockIdx.x * DEC_COLS + warp * 32; /* the warp's first column */
    const int col = wcol + 4 * g;                        /* this thread's four weight columns */
    const bool has = col < N, lo_row = g < M, hi_row = g + 8 < M;

    float acc[4][4];
    auto zero_acc = [&] {
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int q = 0; q < 4; q++) acc[j][q] = 0.f;
    };

    if constexpr (dec_cfg<V>::xring) {
        /* Word-row 16 gi + 4 s + t of the split's group gi, columns col .. col+3. */
        const uint32_t *wp = wq + ((size_t)g0 * 16 + t) * N + col;
        const __half *sp = sc + (size_t)g0 * N + col, *zp = zr + (size_t)g0 * N + col;
        auto load_group = [&](int gi, uint4 (&w)[4], uint2 &s2, uint2 &z2) {
            if (has) {
                const uint32_t *p = wp + (size_t)gi * 16 * N;
#pragma unroll
                for (int s = 0; s < 4; s++) w[s] = __ldcs((const uint4 *)(p + (size_t)s * 4 * N)); /* read once: evict first */
                s2 = __ldg((const uint2 *)(sp + (size_t)gi * N));
                z2 = __ldg((const uint2 *)(zp + (size_t)gi * N));
            } else { /* past N: q = z = s = 0 dequantises to 0 */
#pragma unroll
                for (int s = 0; s < 4; s++) w[s] = make_uint4(0, 0, 0, 0);
                s2 = z2 = make_uint2(0, 0);
            }
        };

        /* The x ring: thread r * 16 + p copies piece p of row r (< M) of each group. */
        const int xr = threadIdx.x >> 4, xp = threadIdx.x & 15;
        const bool xcopy = xr < M;
        const char *xg = xcopy ? (const char *)(x + (size_t)xr * K + (size_t)g0 * DEC_GROUP + xp * 8) : NULL;
        const uint32_t xdst = (uint32_t)__cvta_generic_to_shared(&xs[0][xr][xp ^ ((xr & 1) << 2)]);
        auto copy_x = [&](int gi) {
            if (xcopy && gi < G) cp_async16(xdst + (gi % DEC_XS) * (uint32_t)sizeof(xs[0]), xg + (size_t)gi * DEC_GROUP * 2);
            cp_async_commit(); /* a group even when empty: the wait below counts them */
        };

        zero_acc();
        uint4 wc[4];
        uint2 sc2, zc2;
        load_group(0, wc, sc2, zc2);
#pragma unroll
        for (int c = 0; c < DEC_XS - 1; c++) copy_x(c);

        const int xsw = (g & 1) << 2; /* rows g and g + 8 have the same parity */
        const __half2 k1024 = as_h2(0x64006400u);
#pragma unroll 1
        for (int gi = 0; gi < G; gi++) {
            uint4 wn[4];
            uint2 sn2, zn2;
            if (gi + 1 < G) load_group(gi + 1, wn, sn2, zn2); /* in flight while this group is worked on */
            cp_async_wait<DEC_XS - 2>(); /* x of group gi has landed (this thread's piece) */
            __syncthreads();             /* ... everyone's; everyone is done with group gi - 1's slot */
            copy_x(gi + DEC_XS - 1);
            const uint4(*xk)[16] = xs[gi % DEC_XS];

            __half2 zz[4], ss[4];
            const __half *sh = (const __half *)&sc2, *zh = (const __half *)&zc2;
#pragma unroll
            for (int j = 0; j < 4; j++) ss[j] = __half2half2(sh[j]), zz[j] = __hadd2(__half2half2(zh[j]), k1024);

#pragma unroll
            for (int s = 0; s < 4; s++) {
                const int p = (4 * s + t) ^ xsw; /* x[row][k0 .. k0+7] of this thread's word-row */
                const uint4 xl = lo_row ? xk[g][p] : make_uint4(0, 0, 0, 0);
                const uint4 xh = hi_row ? xk[g + 8][p] : make_uint4(0, 0, 0, 0);
                /* k-slots 2t, 2t+1 | 2t+8, 2t+9 of the first mma hold k = 0, 4 | 1, 5 of the word, of the second 2, 6 | 3, 7 */
                const uint32_t a0[4] = { __byte_perm(xl.x, xl.z, 0x5410), __byte_perm(xh.x, xh.z, 0x5410),
                                         __byte_perm(xl.x, xl.z, 0x7632), __byte_perm(xh.x, xh.z, 0x7632) };
                const uint32_t a1[4] = { __byte_perm(xl.y, xl.w, 0x5410), __byte_perm(xh.y, xh.w, 0x5410),
                                         __byte_perm(xl.y, xl.w, 0x7632), __byte_perm(xh.y, xh.w, 0x7632) };
                const uint32_t wv[4] = { wc[s].x, wc[s].y, wc[s].z, wc[s].w };
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    uint32_t d[4];
                    dequant8(wv[j], zz[j], ss[j], d);
                    mma16816(acc[j], a0, d[0], d[1]);
                    mma16816(acc[j], a1, d[2], d[3]);
                }
            }
            if (gi + 1 < G) {
#pragma unroll
                for (int s = 0; s < 4; s++) wc[s] = wn[s];
                sc2 = sn2, zc2 = zn2;
            }
        }
        cp_async_wait<0>();
    } else if constexpr (dec_cfg<V>::stages > 0) {
        /* No barrier in the loop, x from global memory as in variants 1 and
         * 2; the words, scales and zeros of the next ST - 1 groups are on
         * their way into a ring of shared-memory stages by cp.async, each
         * thread copying and reading back only its own 80 bytes a group
         * (so cp.async.wait_group is the only wait: no other thread writes
         * or reads them, and a stage is copied into again only by the thread
         * that read it, after its mmas). Nothing in flight holds a register,
         * which is what lets three blocks an SM fit in 80 registers. */
        constexpr int ST = dec_cfg<V>::stages;
        constexpr uint32_t STAGE = 5 * DEC_THREADS * 16; /* bytes */
        extern __shared__ __align__(16) uint4 dsm[];     /* [ST][5][DEC_THREADS]: words s = 0..3, then scales | zeros */
        zero_acc();
        if (wcol < N) { /* warp-uniform: a warp wholly past N has nothing to store */
            size_t wo = ((size_t)g0 * 16 + t) * N + col, so = (size_t)g0 * N + col; /* the next group to copy */
            size_t xo = (size_t)g * K + (size_t)g0 * DEC_GROUP + 8 * t;             /* the group worked on, row g */
            const size_t x8 = (size_t)8 * K;
            const uint32_t mine = (uint32_t)__cvta_generic_to_shared(&dsm[threadIdx.x]);
            /* Copy the next group into stage st (bytes from mine) and close the
             * commit group (an empty one past the split's groups or past N:
             * the wait counts them). */
            auto copy_next = [&](bool any, uint32_t st) {
                if (has && any) {
#pragma unroll
                    for (int s = 0; s < 4; s++)
                        cp_async16(mine + st + s * (DEC_THREADS * 16), wq + wo + (size_t)s * 4 * N);
                    cp_async8(mine + st + 4 * (DEC_THREADS * 16), sc + so);
                    cp_async8(mine + st + 4 * (DEC_THREADS * 16) + 8, zr + so);
                }
                cp_async_commit();
                wo += (size_t)16 * N, so += N;
            };
#pragma unroll
            for (int c = 0; c < ST - 1; c++) copy_next(c < G, c * STAGE);
            uint32_t cur = 0, fill = (ST - 1) * STAGE; /* the stage of group gi, the stage to copy into */
#pragma unroll 1
            for (int gi = 0; gi < G; gi++) {
                cp_async_wait_mem<ST - 2>(); /* group gi has landed: ST - 2 later groups may still fly */
                copy_next(gi + ST - 1 < G, fill); /* group gi + ST - 1, into the stage group gi - 1 used */
                const uint4 *p = &dsm[cur / 16 + threadIdx.x];
                uint4 wc[4], szv = make_uint4(0, 0, 0, 0);
#pragma unroll
                for (int s = 0; s < 4; s++) wc[s] = has ? p[s * DEC_THREADS] : make_uint4(0, 0, 0, 0);
                if (has) szv = p[4 * DEC_THREADS];
                const int lg = lane_id() >> 2; /* g, read again: cheaper than a register held over the loop */
                const bool lo = lg < M, hi = lg + 8 < M;
                const uint2 sc2 = make_uint2(szv.x, szv.y), zc2 = make_uint2(szv.z, szv.w);
                dec_group(acc, wc, sc2, zc2, [&](int s, uint4 &xl, uint4 &xh) {
                    xl = lo ? __ldg((const uint4 *)(x + xo + 32 * s)) : make_uint4(0, 0, 0, 0);
                    xh = hi ? __ldg((const uint4 *)(x + xo + x8 + 32 * s)) : make_uint4(0, 0, 0, 0);
                });
                xo += DEC_GROUP;
                fill = cur, cur = cur + STAGE == ST * STAGE ? 0 : cur + STAGE;
            }
            cp_async_wait_mem<0>();
        }
    } else if constexpr (V == 5) {
        /* Variant 1's loop (no barrier, x through L1, one group in flight
         * in registers) for M <= 8 with dec_group5: only row g's x, and the
         * scales of the output columns (8 halves at ocol) instead of the
         * weight columns'. */
        zero_acc();
        if (wcol < N) {
            size_t wo = ((size_t)g0 * 16 + t) * N + col, zo = (size_t)g0 * N + col, so = (size_t)g0 * N + wcol + 8 * t;
            size_t xo = (size_t)g * K + (size_t)g0 * DEC_GROUP + 8 * t;
            const bool ocol_in = wcol + 8 * t < N; /* ocol, not col, decides (N = 8: only t = 0 has its columns) */
            auto issue = [&](uint4(&w)[4], uint2 &z2, uint4 &s4) {
                if (has) {
#pragma unroll
                    for (int s = 0; s < 4; s++) w[s] = __ldcs((const uint4 *)(wq + wo + (size_t)s * 4 * N));
                    z2 = __ldg((const uint2 *)(zr + zo));
                } else {
#pragma unroll
                    for (int s = 0; s < 4; s++) w[s] = make_uint4(0, 0, 0, 0);
                    z2 = make_uint2(0, 0);
                }
                s4 = ocol_in ? __ldg((const uint4 *)(sc + so)) : make_uint4(0, 0, 0, 0);
                wo += (size_t)16 * N, zo += N, so += N;
            };
            uint4 wb[2][4], sb[2];
            uint2 zb[2];
            if (G > 0) issue(wb[0], zb[0], sb[0]);
#pragma unroll 1
            for (int gb = 0; gb < G; gb += 2) {
#pragma unroll
                for (int r = 0; r < 2; r++) {
                    const int gi = gb + r;
                    if (gi >= G) break;
                    if (gi + 1 < G) issue(wb[r ^ 1], zb[r ^ 1], sb[r ^ 1]);
                    const bool lo = (lane_id() >> 2) < M;
                    dec_group5(acc, wb[r], zb[r], sb[r], [&](int s, uint4 &xl) {
                        xl = lo ? __ldg((const uint4 *)(x + xo + 32 * s)) : make_uint4(0, 0, 0, 0);
                    });
                    xo += DEC_GROUP;
                }
            }
        }
    } else {
        /* No barrier in the loop: each warp runs on its own, reading its x
         * straight from global memory (through L1: x is read-only and every
         * warp of every block of this split reads the same 4 KB a group).
         * Rows past M read nothing and are zeros. The words, scales and zeros
         * go round a ring of D register sets, D - 1 groups in flight ahead
         * of the one being worked on; the group loop is unrolled by D so
         * that every index into the ring is a constant (a copy from one set
         * to the next would wait for the loads in flight). */
        constexpr int D = dec_cfg<V>::depth;
        zero_acc();
        if (wcol < N) { /* warp-uniform: a warp wholly past N has nothing to store */
            /* Running offsets (in elements) of the next group to load: words
             * from wq, scales and zeros from sc and zr; and of the group to
             * work on in x, row g (row g + 8 is 8 K further). A pointer is
             * formed only where the load is made: rows past M read nothing. */
            size_t wo = ((size_t)g0 * 16 + t) * N + col, so = (size_t)g0 * N + col;
            size_t xo = (size_t)g * K + (size_t)g0 * DEC_GROUP + 8 * t;
            const size_t x8 = (size_t)8 * K;
            auto issue = [&](uint4(&w)[4], uint2 &s2, uint2 &z2) {
                if (has) {
#pragma unroll
                    for (int s = 0; s < 4; s++) /* read once: evict first */
                        w[s] = __ldcs((const uint4 *)(wq + wo + (size_t)s * 4 * N));
                    s2 = __ldg((const uint2 *)(sc + so));
                    z2 = __ldg((const uint2 *)(zr + so));
                } else { /* past N: q = z = s = 0 dequantises to 0 */
#pragma unroll
                    for (int s = 0; s < 4; s++) w[s] = make_uint4(0, 0, 0, 0);
                    s2 = z2 = make_uint2(0, 0);
                }
                wo += (size_t)16 * N, so += N;
            };
            uint4 wb[D][4];
            uint2 sb[D], zb[D];
#pragma unroll
            for (int r = 0; r < D - 1; r++)
                if (r < G) issue(wb[r], sb[r], zb[r]);
#pragma unroll 1
            for (int gb = 0; gb < G; gb += D) {
#pragma unroll
                for (int r = 0; r < D; r++) {
                    const int gi = gb + r; /* in ring set r */
                    if (gi >= G) break;
                    if (gi + D - 1 < G) issue(wb[(r + D - 1) % D], sb[(r + D - 1) % D], zb[(r + D - 1) % D]);
                    const int lg = lane_id() >> 2; /* g, read again: cheaper than a register held over the loop */
                    const bool lo = lg < M, hi = lg + 8 < M;
                    dec_group(acc, wb[r], sb[r], zb[r], [&](int s, uint4 &xl, uint4 &xh) {
                        xl = lo ? __ldg((const uint4 *)(x + xo + 32 * s)) : make_uint4(0, 0, 0, 0);
                        xh = hi ? __ldg((const uint4 *)(x + xo + x8 + 32 * s)) : make_uint4(0, 0, 0, 0);
                    });
                    xo += DEC_GROUP;
                }
            }
        }
    }

    /* Thread (g, t): rows g and g + 8, columns ocol .. ocol + 7. */
    const int ocol = wcol + 8 * t;
    float v[8];
    if (S == 1) {
        if (ocol < N) {
            if (lo_row) row8(acc, 0, v), *(uint4 *)(y + (size_t)g * N + ocol) = pack8(v);
            if (hi_row) row8(acc, 2, v), *(uint4 *)(y + (size_t)(g + 8) * N + ocol) = pack8(v);
        }
        return;
    }
    /* Split-K: partials to ws[split][row][col], then a ticket; the last block adds them in split order. */
    if (ocol < N)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int row = g + 8 * h;
            if (row >= M) continue;
            row8(acc, 2 * h, v);
            float4 *p = (float4 *)(ws + ((size_t)split * M + row) * N + ocol);
            p[0] = make_float4(v[0], v[1], v[2], v[3]);
            p[1] = make_float4(v[4], v[5], v[6], v[7]);
        }
    __threadfence(); /* the partials are visible to the whole device before the ticket is taken */
    __syncthreads();
    if (threadIdx.x == 0) last = atomicAdd(&tickets[blockIdx.x], 1u) == (unsigned)S - 1;
    __syncthreads();
    if (!last) return;
    if (ocol < N)
        for (int h = 0; h < 2; h++) {
            const int row = g + 8 * h;
            if (row >= M) continue;
            for (int j = 0; j < 8; j++) v[j] = 0.f;
            for (int sp_ = 0; sp_ < S; sp_++) {
                const float4 *p = (const float4 *)(ws + ((size_t)sp_ * M + row) * N + ocol);
                const float4 a = __ldcg(p), b = __ldcg(p + 1); /* from L2: another block wrote them */
                v[0] += a.x, v[1] += a.y, v[2] += a.z, v[3] += a.w, v[4] += b.x, v[5] += b.y, v[6] += b.z, v[7] += b.w;
            }
            *(uint4 *)(y + (size_t)row * N + ocol) = pack8(v);
        }
    if (threadIdx.x == 0) tickets[blockIdx.x] = 0; /* ready for the next launch */
}

/* Variant 9's group (and variant 8's, which read x through L1; removed,
 * its code in the history): the weights are the A operand, x the B operand.
 * An mma's A is 16 columns x 16 k (256 weights: 32 words), its B 16 k x 8
 * rows of x, so at M <= 8 one mma does what variants 0-5 do with two (their
 * B, the weights, is 16 k x 8 columns; their A, x, is 16 rows of which M are
 * used). Thread (g, t) loads word-row 4 s + t of four columns, col .. col + 3
 * (col = the warp's first + 4 g), as one uint4; column col + j is row g (j
 * even) or g + 8 (j odd) of A tile j / 2, and what comes out of the mmas is
 * thread (g, t)'s own columns, x rows 2 t, 2 t + 1 (and 8 more at M > 8).
 * Each word is dequantised exactly to q - z with one shift, four lop3 and
 * four half2 operations (the pairs (q1, q5), (q3, q7) come out times 16 and
 * one HFMA2 with 1/16 brings them back while it subtracts 64 + z); unless
 * HS, the mmas sum x (q - z) over the group in FP32 and the scale of the
 * thread's column multiplies those sums (4 FFMAs a column a group where the
 * weights took 128 products); with HS each weight is multiplied by its
 * scale in half first. NT n8 tiles of x rows (1 at M <= 8, 2 past it); TT
 * A tiles a thread (2: four columns). */
static __device__ __forceinline__ uint32_t lop3_or(uint32_t w, uint32_t mask, uint32_t bits)
{
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, 0xea;\n" : "=r"(r) : "r"(w), "r"(mask), "r"(bits));
    return r;
}

template <int NT, int TT, bool HS, class XF>
static __device__ __forceinline__ void dec_group8(float (&acc)[TT][NT][4], const uint32_t (&wc)[4][2 * TT],
                                                  const uint32_t (&sc)[TT], const uint32_t (&zc)[TT], XF &&xf)
{
    const __half *zh = (const __half *)&zc[0], *sh = (const __half *)&sc[0];
    __half2 zl[2 * TT], zf[2 * TT], ss[2 * TT];
#pragma unroll
    for (int j = 0; j < 2 * TT; j++) {
        const __half2 z = __half2half2(zh[j]);
        zl[j] = __hadd2(z, as_h2(0x64006400u));        /* 1024 + z */
        zf[j] = __hneg2(__hadd2(z, as_h2(0x54005400u))); /* -(64 + z) */
        ss[j] = __half2half2(sh[j]);
    }
    const __half2 k16 = as_h2(0x2c002c00u); /* 1/16 */
    float accg[TT][NT][4];
#pragma unroll
    for (int s = 0; s < 4; s++) {
        uint32_t b[NT][2][2]; /* [nt][mma][reg]: (k0,k4), (k1,k5) | (k2,k6), (k3,k7) of row 8 nt + g */
        xf(s, b);
        uint32_t d[2 * TT][4]; /* word j: (q0,q4), (q1,q5), (q2,q6), (q3,q7), each less z */
#pragma unroll
        for (int j = 0; j < 2 * TT; j++) {
            const uint32_t w = wc[s][j], w8 = w >> 8;
            d[j][0] = as_u32(__hsub2(as_h2(lop3_or(w, 0x000f000fu, 0x64006400u)), zl[j]));
            d[j][1] = as_u32(__hfma2(as_h2(lop3_or(w, 0x00f000f0u, 0x64006400u)), k16, zf[j]));
            d[j][2] = as_u32(__hsub2(as_h2(lop3_or(w8, 0x000f000fu, 0x64006400u)), zl[j]));
            d[j][3] = as_u32(__hfma2(as_h2(lop3_or(w8, 0x00f000f0u, 0x64006400u)), k16, zf[j]));
            if constexpr (HS)
#pragma unroll
                for (int i = 0; i < 4; i++) d[j][i] = as_u32(__hmul2(as_h2(d[j][i]), ss[j]));
        }
#pragma unroll
        for (int tau = 0; tau < TT; tau++) {
            /* A rows g, g + 8: words 2 tau, 2 tau + 1; slots 2t, 2t+1 | 2t+8, 2t+9 */
            const uint32_t a0[4] = { d[2 * tau][0], d[2 * tau + 1][0], d[2 * tau][1], d[2 * tau + 1][1] };
            const uint32_t a1[4] = { d[2 * tau][2], d[2 * tau + 1][2], d[2 * tau][3], d[2 * tau + 1][3] };
#pragma unroll
            for (int nt = 0; nt < NT; nt++) {
                if constexpr (HS) {
                    mma16816(acc[tau][nt], a0, b[nt][0][0], b[nt][0][1]);
                    mma16816(acc[tau][nt], a1, b[nt][1][0], b[nt][1][1]);
                } else {
                    if (s == 0)
#pragma unroll
                        for (int q = 0; q < 4; q++) accg[tau][nt][q] = 0.f;
                    mma16816(accg[tau][nt], a0, b[nt][0][0], b[nt][0][1]);
                    mma16816(accg[tau][nt], a1, b[nt][1][0], b[nt][1][1]);
                }
            }
        }
    }
    if constexpr (!HS)
#pragma unroll
        for (int tau = 0; tau < TT; tau++) {
            const float s0 = __half2float(sh[2 * tau]), s1 = __half2float(sh[2 * tau + 1]);
#pragma unroll
            for (int nt = 0; nt < NT; nt++) {
                acc[tau][nt][0] = fmaf(s0, accg[tau][nt][0], acc[tau][nt][0]);
                acc[tau][nt][1] = fmaf(s0, accg[tau][nt][1], acc[tau][nt][1]);
                acc[tau][nt][2] = fmaf(s1, accg[tau][nt][2], acc[tau][nt][2]);
                acc[tau][nt][3] = fmaf(s1, accg[tau][nt][3], acc[tau][nt][3]);
            }
        }
}

/* Loads of one uint4 of words (four columns) and one uint2 of halves. */
template <int TT> struct v8ld;
template <> struct v8ld<2> {
    static __device__ __forceinline__ void cs(uint32_t (&r)[4], const uint32_t *p)
    {
        const uint4 v = __ldcs((const uint4 *)p);
        r[0] = v.x, r[1] = v.y, r[2] = v.z, r[3] = v.w;
    }
    static __device__ __forceinline__ void g(uint32_t (&r)[2], const __half *p)
    {
        const uint2 v = __ldg((const uint2 *)p);
        r[0] = v.x, r[1] = v.y;
    }
};

/* Variant 9: the group above with x staged in shared memory. Every warp
 * of a block needs the same x, all MR = 8 NT rows of it: through L1 that is,
 * at 16 rows, twice the bytes of the words each warp reads (ncu on variant
 * 8 at M = 16: L1 busy 75 %, DRAM 41 %). Here the block copies the x of XC
 * groups at a time into shared memory once, already in the order of the
 * mma's B fragments, and each warp takes its fragments with one ldmatrix.x4
 * an n8 tile and a k-step: for group gi, step s and fragment f (0: k = 0, 4;
 * 1: 1, 5; 2: 2, 6; 3: 3, 7 of each of the step's four word-rows), an 8 x 8
 * matrix of halves with row m = x row m, elements 2 t', 2 t' + 1 = that
 * pair of word-row 4 s + t'. Rows M .. MR - 1 hold zeros. A barrier pair
 * every XC groups (one or two a launch at the decode shape); none between. */
static __device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], uint32_t addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

/* W58_TIMELINE (instructor/tune/w58/quick.cu's timeline): thread 0 of each
 * block writes the global timer at its start (0), at the end of its main
 * loop (1) and at its exit (2); w58_timeline copies them out. Off in the
 * workbook's builds. */
#ifdef W58_TIMELINE
__device__ unsigned long long g_w58_tl[3 * 4096];
#define W58_TL_MARK(k)                                                                                                 \
    do {                                                                                                               \
        const unsigned b_ = blockIdx.y * gridDim.x + blockIdx.x;                                                       \
        if (threadIdx.x == 0 && b_ < 4096) {                                                                           \
            unsigned long long t_;                                                                                     \
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t_));                                                     \
            g_w58_tl[3 * b_ + (k)] = t_;                                                                               \
        }                                                                                                              \
    } while (0)
#else
#define W58_TL_MARK(k) ((void)0)
#endif
#ifndef W58_XB
#define W58_XB 4 /* x pieces a thread loads before it stores any (the staging's batch) */
#endif
template <int NT, int D, int WPB, int BL, bool HS>
static __global__ void __launch_bounds__(32 * WPB, BL)
    w4_decode_kernel9(const __half *__restrict__ x, const uint32_t *__restrict__ wq, const __half *__restrict__ sc,
                      const __half *__restrict__ zr, __half *__restrict__ y, float *__restrict__ ws,
                      unsigned *__restrict__ tickets, int M, int N, int K, int gps, int XC)
{
    constexpr int TT = 2, CW = 32, MR = 8 * NT;
    extern __shared__ __align__(16) uint32_t xsm[]; /* [XC][4 s][4 f][MR][4 words] */
    __shared__ bool last;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    W58_TL_MARK(0);
    const int S = gridDim.y, split = blockIdx.y, groups = K / DEC_GROUP;
    const int g0 = split * gps, G = min(gps, groups - g0);
    const int wcol = blockIdx.x * (WPB * CW) + warp * CW;
    const int col = wcol + 4 * g;
    const bool has = col < N;

    float acc[TT][NT][4];
#pragma unroll
    for (int a = 0; a < TT; a++)
#pragma unroll
        for (int nt = 0; nt < NT; nt++)
#pragma unroll
            for (int q = 0; q < 4; q++) acc[a][nt][q] = 0.f;

    /* x of groups c0 .. c0 + XC - 1 of the split into xsm (all threads):
     * rows below M only (rows M .. MR - 1 are zeroed once, below), XB
     * pieces a thread at a time, all XB loads issued before the first
     * store, so a staging waits about one L2 round trip per XB pieces a
     * thread (a piece past the split loads x's first piece, kept in L1, and
     * stores zeros: no branch around a load). */
    auto put_piece = [&](int m, int gi, int r, uint4 v) {
        const uint32_t p[4] = { __byte_perm(v.x, v.z, 0x5410), __byte_perm(v.x, v.z, 0x7632),
                                __byte_perm(v.y, v.w, 0x5410), __byte_perm(v.y, v.w, 0x7632) };
        uint32_t *dst = xsm + ((size_t)((gi * 4 + (r >> 2)) * 4) * MR + m) * 4 + (r & 3);
#pragma unroll
        for (int f = 0; f < 4; f++) dst[f * MR * 4] = p[f];
    };
    auto stage = [&](int c0) {
        const int n16 = M * XC * 16; /* uint4 pieces: row m, group gi, word-row r */
        for (int i0 = threadIdx.x; i0 < n16; i0 += W58_XB * 32 * WPB) {
            uint4 v[W58_XB];
#pragma unroll
            for (int u = 0; u < W58_XB; u++) {
                const int i = i0 + u * 32 * WPB;
                const int m = i / (XC * 16), rest = i - m * (XC * 16), gi = rest >> 4, r = rest & 15;
                const bool ok = i < n16 && c0 + gi < G;
                v[u] = __ldg((const uint4 *)(ok ? x + (size_t)m * K + (size_t)(g0 + c0 + gi) * DEC_GROUP + 8 * r : x));
                if (!ok) v[u] = make_uint4(0, 0, 0, 0);
            }
#pragma unroll
            for (int u = 0; u < W58_XB; u++) {
                const int i = i0 + u * 32 * WPB;
                if (i >= n16) break;
                const int m = i / (XC * 16), rest = i - m * (XC * 16);
                put_piece(m, rest >> 4, rest & 15, v[u]);
            }
        }
    };
    for (int i = threadIdx.x; i < (MR - M) * XC * 16; i += 32 * WPB) { /* the zero rows, once */
        const int m = M + i / (XC * 16), rest = i % (XC * 16);
        put_piece(m, rest >> 4, rest & 15, make_uint4(0, 0, 0, 0));
    }
    const uint32_t xbase = (uint32_t)__cvta_generic_to_shared(xsm) + ((lane >> 3) * MR + (lane & 7)) * 16;

    size_t wo = ((size_t)g0 * 16 + t) * N + col, so = (size_t)g0 * N + col;
    auto issue = [&](uint32_t(&w)[4][2 * TT], uint32_t(&s2)[TT], uint32_t(&z2)[TT]) {
        if (has) {
#pragma unroll
            for (int s = 0; s < 4; s++) v8ld<TT>::cs(w[s], wq + wo + (size_t)s * 4 * N);
            v8ld<TT>::g(s2, sc + so);
            v8ld<TT>::g(z2, zr + so);
        } else {
#pragma unroll
            for (int s = 0; s < 4; s++)
#pragma unroll
                for (int j = 0; j < 2 * TT; j++) w[s][j] = 0;
#pragma unroll
            for (int j = 0; j < TT; j++) s2[j] = z2[j] = 0;
        }
        wo += (size_t)16 * N, so += N;
    };
    uint32_t wb[D][4][2 * TT], sb[D][TT], zb[D][TT];
#pragma unroll
    for (int r = 0; r < D - 1; r++)
        if (r < G) issue(wb[r], sb[r], zb[r]);
    int cx = 0; /* group index within the staged chunk */
#pragma unroll 1
    for (int gb = 0; gb < G; gb += D) {
#pragma unroll
        for (int r = 0; r < D; r++) {
            const int gi = gb + r;
            if (gi >= G) break;
            if (gi + D - 1 < G) issue(wb[(r + D - 1) % D], sb[(r + D - 1) % D], zb[(r + D - 1) % D]);
            if (gi % XC == 0) { /* block-uniform */
                __syncthreads(); /* everyone is done with the last chunk */
                stage(gi);
                __syncthreads();
                cx = 0;
            }
            const uint32_t xg = xbase + (uint32_t)cx * (16 * MR * 16);
            dec_group8<NT, TT, HS>(acc, wb[r], sb[r], zb[r], [&](int s, uint32_t(&b)[NT][2][2]) {
#pragma unroll
                for (int nt = 0; nt < NT; nt++) {
                    uint32_t q[4];
                    ldsm_x4(q, xg + (uint32_t)(s * 4 * MR * 16 + nt * 8 * 16));
                    b[nt][0][0] = q[0], b[nt][0][1] = q[1], b[nt][1][0] = q[2], b[nt][1][1] = q[3];
                }
            });
            cx++;
        }
    }

    W58_TL_MARK(1);
    /* Thread (g, t): rows 8 nt + 2 t + h below M, columns col .. col + 3
     * (acc[tau][nt][h] is column col + 2 tau, acc[tau][nt][2 + h] the next). */
    auto each_row = [&](auto &&f) {
#pragma unroll
        for (int nt = 0; nt < NT; nt++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int row = 8 * nt + 2 * t + h;
                if (row < M) f(row, make_float4(acc[0][nt][h], acc[0][nt][2 + h], acc[1][nt][h], acc[1][nt][2 + h]));
            }
    };
    auto put_y = [&](int row, float4 v) {
        *(uint2 *)(y + (size_t)row * N + col) =
            make_uint2(as_u32(__floats2half2_rn(v.x, v.y)), as_u32(__floats2half2_rn(v.z, v.w)));
    };
    if (S == 1) {
        if (has) each_row(put_y);
        W58_TL_MARK(2);
        return;
    }
    if (has) each_row([&](int row, float4 v) { *(float4 *)(ws + ((size_t)split * M + row) * N + col) = v; });
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) last = atomicAdd(&tickets[blockIdx.x], 1u) == (unsigned)S - 1;
    __syncthreads();
    if (!last) {
        W58_TL_MARK(2);
        return;
    }
    if (has)
        for (int row = 2 * t; row < M; row += (row & 1) ? 7 : 1) {
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            for (int sp_ = 0; sp_ < S; sp_++) {
                const float4 a = __ldcg((const float4 *)(ws + ((size_t)sp_ * M + row) * N + col));
                v.x += a.x, v.y += a.y, v.z += a.z, v.w += a.w;
            }
            put_y(row, v);
        }
    if (threadIdx.x == 0) tickets[blockIdx.x] = 0;
    W58_TL_MARK(2);
}

#ifndef W58_D1
#define W58_D1 3
#endif
#ifndef W58_D2
#define W58_D2 2
#endif
#ifndef W58_BL1
#define W58_BL1 1 /* blocks an SM */
#endif
#ifndef W58_BL2
#define W58_BL2 1
#endif
#ifndef W58_HS2
#define W58_HS2 0
#endif

static float *g_ws;
static unsigned *g_tickets;
static cudaError_t dec_workspace(size_t floats, size_t tickets);

#ifndef W58_XC
#define W58_XC 32 /* most groups of x staged at once */
#endif
#ifndef W58_WPB1
#define W58_WPB1 16
#endif
#ifndef W58_WPB2
#define W58_WPB2 16
#endif

/* Blocks the device holds at once of kernel f (SMs x its blocks an SM with
 * smem bytes of dynamic shared memory, asked for where past the 48 KiB a
 * block gets without asking), asked once per device: the caller keeps
 * known_dev and known_slots. */
template <class F>
static cudaError_t slots_of(F f, int threads, size_t smem, int &known_dev, int &known_slots, int *slots)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev != known_dev) {
        int sms = 0, per_sm = 0;
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (e == cudaSuccess && smem > 48 * 1024)
            e = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, threads, smem);
        if (e != cudaSuccess) return e;
        known_slots = sms * (per_sm > 0 ? per_sm : 1), known_dev = dev;
    }
    *slots = known_slots;
    return cudaSuccess;
}

template <int NT, int D, int WPB, int BL, bool HS>
static cudaError_t dec9_launch(const __half *x, const uint32_t *wq, const __half *sc, const __half *zr, __half *y,
                               int M, int N, int K)
{
    static int known_dev = -1, known_slots = 0;
    constexpr size_t smax = (size_t)W58_XC * 16 * 8 * NT * 16; /* bytes of xsm at XC = W58_XC */
    int slots = 0;
    cudaError_t e = slots_of(w4_decode_kernel9<NT, D, WPB, BL, HS>, 32 * WPB, smax, known_dev, known_slots, &slots);
    if (e != cudaSuccess) return e;
    const int cols = 32 * WPB, tiles = (N + cols - 1) / cols, groups = K / DEC_GROUP;
    int S = slots / tiles;
    S = S < 1 ? 1 : S > DEC_MAX_SPLITS ? DEC_MAX_SPLITS : S;
    S = S > groups ? groups : S;
    const int gps = (groups + S - 1) / S;
    S = (groups + gps - 1) / gps;
    const int XC = gps < W58_XC ? gps : W58_XC;
    if (S > 1 && (e = dec_workspace((size_t)S * M * N, (size_t)tiles)) != cudaSuccess) return e;
    w4_decode_kernel9<NT, D, WPB, BL, HS><<<dim3((unsigned)tiles, (unsigned)S), 32 * WPB, (size_t)XC * 16 * 8 * NT * 16>>>(
        x, wq, sc, zr, y, g_ws, g_tickets, M, N, K, gps, XC);
    return cudaGetLastError();
}

/* The dynamic shared memory a launch of the chosen variant takes (0 but for 3). */
#if W58_DEC_VARIANT != 9 /* variant 9 asks for its own (dec9_launch) */
static constexpr size_t dec_smem() { return dec_cfg<W58_DEC_VARIANT>::stages > 0 ? dec_cfg<W58_DEC_VARIANT>::smem : 0; }
#define DEC_KERNEL_ASKED (w4_decode_kernel<W58_DEC_VARIANT>)

/* Blocks the device holds at once (SMs x blocks an SM), asked once per device. */
static cudaError_t dec_slots(int *slots)
{
    static int known_dev = -1, known_slots = 0;
    return slots_of(DEC_KERNEL_ASKED, DEC_THREADS, dec_smem(), known_dev, known_slots, slots);
}
#endif

/* The split-K workspace: partial sums and one ticket per column tile, kept
 * between calls (grown when a call needs more) on the device first used.
 * Tickets start at 0 and every launch leaves them at 0. */
static size_t g_ws_floats, g_n_tickets;
static int g_ws_dev = -1;

static cudaError_t dec_workspace(size_t floats, size_t tickets)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev != g_ws_dev) g_ws = NULL, g_tickets = NULL, g_ws_floats = g_n_tickets = 0, g_ws_dev = dev;
    if (floats > g_ws_floats) {
        if (g_ws) cudaFree(g_ws); /* waits for the device: no launch still uses it */
        g_ws = NULL, g_ws_floats = 0;
        if ((e = cudaMalloc((void **)&g_ws, floats * sizeof(float))) != cudaSuccess) return e;
        g_ws_floats = floats;
    }
    if (tickets > g_n_tickets) {
        if (g_tickets) cudaFree(g_tickets);
        g_tickets = NULL, g_n_tickets = 0;
        if ((e = cudaMalloc((void **)&g_tickets, tickets * sizeof(unsigned))) != cudaSuccess) return e;
        if ((e = cudaMemsetAsync(g_tickets, 0, tickets * sizeof(unsigned), 0)) != cudaSuccess) return e;
        g_n_tickets = tickets;
    }
    return cudaSuccess;
}
#ifdef W58_TIMELINE
cudaError_t w58_timeline(unsigned long long *host, int blocks) /* host NULL: clear them */
{
    if (!host) {
        void *p = NULL;
        cudaError_t e = cudaGetSymbolAddress(&p, g_w58_tl);
        return e != cudaSuccess ? e : cudaMemset(p, 0, sizeof g_w58_tl);
    }
    return cudaMemcpyFromSymbol(host, g_w58_tl, sizeof(unsigned long long) * 3 * (size_t)blocks);
}
#endif

//@starter
//| /* TODO: the decode kernel. One suggested shape (the README's):
//|  *  - a block of 8 warps covers 256 columns; thread (g = lane/4, t = lane%4)
//|  *    of warp w loads one uint4 of packed words (word-row 4s + t of a group,
//|  *    columns 32w + 4g .. +3) for every 32 k: 16-byte loads, each word read
//|  *    once, the next group's words loaded before this group's are used;
//|  *  - dequantise in registers: (w >> 4i) & 0x000f000f | 0x64006400 is
//|  *    half2(1024 + q_i, 1024 + q_i+4); subtract 1024 + z, multiply by s;
//|  *  - M <= 16 rows: the rows are the A operand of mma.sync.m16n8k16 (rows
//|  *    past M zero), the dequantised pairs the B operand; pair x the same way
//|  *    (__byte_perm) so that the k-slots of A and B match;
//|  *  - too few column tiles to fill the GPU: split the groups over blocks
//|  *    and let the last block of a tile add the FP32 partials (week 08).
//|  * A plain shift-and-convert, one FP32 FMA a weight and row, is correct
//|  * too: the README says where it stops being memory-bound. */
//@end

cudaError_t w4a16_decode(const uint16_t *x_, const uint32_t *wq, const uint16_t *scales_, const uint16_t *zeros_,
                         uint16_t *y_, int M, int N, int K)
{
    //@solution
    if (M < 0 || M > 16 || N < 0 || K < 0 || K % DEC_GROUP || N % 8) return cudaErrorInvalidValue;
    if (((uintptr_t)x_ | (uintptr_t)wq | (uintptr_t)scales_ | (uintptr_t)zeros_ | (uintptr_t)y_) & 15)
        return cudaErrorInvalidValue;
    if (M == 0 || N == 0) return cudaSuccess;
    if (K == 0) return cudaMemsetAsync(y_, 0, (size_t)M * N * 2, 0); /* 0x0000 is +0 */
#if W58_DEC_VARIANT == 9
    if (M <= 8)
        return dec9_launch<1, W58_D1, W58_WPB1, W58_BL1, false>((const __half *)x_, wq, (const __half *)scales_,
                                                         (const __half *)zeros_, (__half *)y_, M, N, K);
    return dec9_launch<2, W58_D2, W58_WPB2, W58_BL2, W58_HS2>((const __half *)x_, wq, (const __half *)scales_,
                                                     (const __half *)zeros_, (__half *)y_, M, N, K);
#else
    int slots = 0;
    cudaError_t e = dec_slots(&slots);
    if (e != cudaSuccess) return e;
    /* As many splits as leave every block resident at once (one wave), in
     * whole groups, at most DEC_MAX_SPLITS. */
    const int tiles = (N + DEC_COLS - 1) / DEC_COLS, groups = K / DEC_GROUP;
    int S = slots / tiles;
    S = S < 1 ? 1 : S > DEC_MAX_SPLITS ? DEC_MAX_SPLITS : S;
    S = S > groups ? groups : S;
    const int gps = (groups + S - 1) / S;
    S = (groups + gps - 1) / gps;
    if (S > 1 && (e = dec_workspace((size_t)S * M * N, (size_t)tiles)) != cudaSuccess) return e;
    const dim3 grid((unsigned)tiles, (unsigned)S);
#if W58_DEC_VARIANT == 5
    if (M <= 8) /* rows 8-15 are zeros: variant 5's group; past 8 rows, variant 1's */
        w4_decode_kernel<5><<<grid, DEC_THREADS, dec_smem()>>>((const __half *)x_, wq, (const __half *)scales_,
                                                              (const __half *)zeros_, (__half *)y_, g_ws, g_tickets,
                                                              M, N, K, gps);
    else
        w4_decode_kernel<1><<<grid, DEC_THREADS, dec_smem()>>>((const __half *)x_, wq, (const __half *)scales_,
                                                              (const __half *)zeros_, (__half *)y_, g_ws, g_tickets,
                                                              M, N, K, gps);
#else
    w4_decode_kernel<W58_DEC_VARIANT><<<grid, DEC_THREADS, dec_smem()>>>(
        (const __half *)x_, wq, (const __half *)scales_, (const __half *)zeros_, (__half *)y_, g_ws, g_tickets, M, N, K,
        gps);
#endif
    return cudaGetLastError();
#endif
    //@starter
    //| (void)x_, (void)wq, (void)scales_, (void)zeros_, (void)y_, (void)M, (void)N, (void)K;
    //| return cudaSuccess;
    //@end
}
