/* w4a16_decode.cu — week 58: y = x dequant(W) for M <= 16 rows of x, the
 * decode step of a language model. The packed weights are read once, 16
 * bytes a load, and every weight serves all M rows.
 *
 * At M = 16 the arithmetic (16 multiply-adds a weight) is more than the FP32
 * CUDA cores can do at the speed the weights arrive, so the rows go through
 * the tensor cores: x is the A operand of mma.sync.m16n8k16 (rows past M are
 * zeros), the weights dequantised in registers are B. Neither needs a trip
 * through shared memory in W's order, because a dot product does not care
 * in which order k runs: the k-slots of one mma are mapped onto the nibbles a
 * thread already holds, and x is permuted the same way.
 *
 * Thread (g = lane/4, t = lane%4) of warp w loads, for every 32 rows of k,
 * one uint4: word-row 4s + t of the group (s = 0..3), columns c .. c+3 with
 * c = 32w + 4g. Each word dequantises (the 0x6400 trick, README) into four
 * half2 (q_i, q_i+4), i = 0..3: (q0,q4), (q1,q5) are the two B registers of
 * one mma, (q2,q6), (q3,q7) of a second. Column c + j is column g of the
 * j-th n8 tile. The A registers are the same pairs of x (x0,x4), (x1,x5),
 * ... of rows g and g+8, taken from shared memory and paired with __byte_perm.
 * What comes out: thread (g, t) holds rows g and g+8, columns 32w + 8t ..
 * 32w + 8t + 7 of y, one 16-byte store each.
 *
 * A block of 8 warps covers 256 columns and a range of groups; x of that
 * range goes through a ring of shared-memory chunks (one group: 16 rows x
 * 128 halves) filled by cp.async, read by all 8 warps. The next group's
 * weights are loaded into registers before this group is dequantised, so
 * a thread always has 64 bytes in flight. With few column tiles (N / 256
 * below what the GPU holds at once) the groups are split over blocks too
 * (split-K): each block writes its FP32 partial sums, and the last block of
 * a column tile to finish (week 08's ticket) adds them in order and writes
 * y. */
#include <string.h>
#include <cuda_fp16.h>
#include "w4a16_decode.h"

#define DEC_THREADS 256
#define DEC_COLS 256 /* columns a block: 8 warps x 32 */
#define DEC_GROUP 128
#define DEC_XS 4           /* x chunks in the shared ring */
#define DEC_MAX_SPLITS 32  /* at most this many blocks add into one column tile */

//@solution
/* W58_DEC_VARIANT picks the decode main loop at compile time (-D...), for
 * measuring on the GPU. Each thread makes the same products in the same mma
 * chain in every variant, so y is the same bit for bit wherever two variants
 * split the groups alike (0, 1 and 2 always do; 3 splits more where the GPU
 * holds more of its blocks, and its FP32 partials then add up in other
 * groupings, within the test's tolerance, not bit for bit):
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
 * Split-K's grid follows the blocks an SM, as it asks the occupancy
 * calculator: 4 splits at N = 16384 on an H100 for 0-2, 6 for 3.
 *  4  warp-specialised, for keeping the memory busy: a kernel of its own
 *     (w4_decode_bulk_kernel, below the main one, whose comment has the
 *     design): 8 consumer warps as in 1 and a producer warp whose lanes copy
 *     each group's words, scales, zeros and x into a 5-stage shared ring
 *     with cp.async.bulk, completing on an mbarrier a stage (sm_90); about
 *     136 KiB an SM in flight. Not yet measured; it falls back to 1 where
 *     the bulk path cannot run (below sm_90).
 * Split-K's grid follows the blocks an SM, as it asks the occupancy
 * calculator: 4 splits at N = 16384 on an H100 for 0-2, 6 for 3.
 * The default is 1, the fastest on an H200 at M = 1 and 16 (README, step 5
 * of the story: 0.59 and 0.56 of COPY against 0.51 and 0.49 for 0). */
#ifndef W58_DEC_VARIANT
#define W58_DEC_VARIANT 1
#endif
#if W58_DEC_VARIANT < 0 || W58_DEC_VARIANT > 4
#error "W58_DEC_VARIANT is 0, 1, 2, 3 or 4"
#endif
#if W58_DEC_VARIANT == 4
#include "hopper_ptx.cuh" /* mbar_init, fence_mbar_init, mbar_arrive_expect_tx, mbar_arrive, mbar_wait_loop, smem_u32 */
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

#if W58_DEC_VARIANT == 4
/* ------------------------------------------------------------ variant 4
 * Warp-specialised: warps 0..7 of a 288-thread block are the consumers,
 * with variant 1's thread mapping (warp w: columns c0 + 32 w .. + 31 of
 * the block's tile c0 = 256 blockIdx.x; thread (g, t): columns
 * c0 + 32 w + 4 g .. + 3, word-rows 4 s + t of a group); warp 8 is the
 * producer, whose lanes copy the split's groups with cp.async.bulk (one
 * bulk copy a lane a group, no registers held while they fly) into a ring
 * of DEC4_ST stages of shared memory, each completing on its "full"
 * mbarrier; the consumers arrive on the stage's "empty" mbarrier when they
 * have read it, and the producer refills it.
 *
 * Why the tile is 256 columns by one group: in W's storage ([K/8][N] words,
 * row-major) the words of one word-row and the tile's columns are 4 x 256 =
 * 1 KiB contiguous, and no longer run is both contiguous and owned by one
 * block (a group's 16 word-rows are N words apart). So a stage is 16 copies
 * of 1 KiB (word-rows 0..15 of the group, lanes 0..15), the group's scales
 * and zeros for the tile (512 B each, lanes 0 and 1) and x's rows 0..M-1 of
 * the group (256 B each, lanes 16 .. 15 + M); rows of x past M are not
 * copied and are read as zeros, as in the other variants.
 *
 * The stage in shared memory (bytes; every copy starts 16-byte aligned):
 *   word-row r (0..15) at r * DEC4_WROW, DEC4_WROW = 1056 = 1024 + 32: the
 *     consumers' 16-byte loads (8 threads a phase: g = 2h, 2h + 1, t = 0..3
 *     read word-rows 4 s + t, columns 4 g .. 4 g + 3) fall at 32 t + 16 g
 *     mod 128, eight different bank quads; with 1024 they would be a 4-way
 *     conflict;
 *   scales at DEC4_SOFF, zeros at DEC4_ZOFF (256 halves each);
 *   x row r (0..15) at DEC4_XOFF + r * DEC4_XROW, DEC4_XROW = 320 = 256 + 64:
 *     rows g and g + 1 of one phase 64 bytes apart mod 128, no conflict (the
 *     XOR of variant 0's ring cannot be had: a bulk copy writes its bytes in
 *     order).
 *   23040 bytes a stage; 5 stages are 112.5 KiB a block, and with the
 *   128 static bytes (the mbarriers, the ticket's flag) and the 1 KiB the
 *   driver keeps a block, two blocks fit the 228 KiB of an SM (2 x 116,352
 *   = 232,704 <= 233,472).
 * In flight: up to 4 stages a block while the fifth is read, 2 x 4 x 17 KiB
 * of words, scales and zeros = 136 KiB an SM, about 4.5 times Little's
 * ~30 KiB (4 TB/s x ~1 us / 132 SMs).
 *
 * Every shape w4a16_decode accepts can take the bulk path: the pointers are
 * 16-byte aligned (checked before the launch), K is a multiple of 128 and N
 * of 8, so every source address (wq + (16 gi + r) N + c0: 4 N and 4 c0 are
 * multiples of 16; sc + gi N + c0: 2 N, 2 c0 multiples of 16; x + r K +
 * 128 gi: 2 K a multiple of 256) is 16-byte aligned and every size (4 cn,
 * 2 cn with cn = min(256, N - c0) a multiple of 8; 256) a multiple of 16.
 * A partial last tile (cn < 256: N = 8, 120, 4104 in the test) copies cn
 * columns and leaves the rest of the stage as it was: threads whose four
 * columns are past N (col >= N, which with N and col multiples of 8 and 4
 * is all four or none) read zeros instead, as in variant 1, and their
 * outputs are never stored (dec_finish's ocol < N). The fall-back to
 * variant 1's kernel (w4a16_decode) is for a build or device that cannot
 * run this kernel: a binary below sm_90 (cp.async.bulk and mbarrier
 * transaction counts are sm_90 PTX; the kernel is compiled empty there) or
 * a device whose opt-in shared memory is smaller than the ring, or on which
 * no block fits.
 *
 * The mbarriers, per stage s, use u = 0, 1, ... (group gi = s + u ST):
 *   full[s], count 1: the producer's lane 0 arrives once with expect_tx of
 *     the use's bytes (16 x 4 cn + 2 x 2 cn + 256 M, at most 21,504, far
 *     below the 2^20 - 1 a phase may count) before any lane issues a copy
 *     (__syncwarp between); the phase completes when the copies have
 *     delivered all of them. Consumers of use u wait on parity u & 1: the
 *     producer can be at most one phase ahead of a waiting consumer (it
 *     refills use u + 1 only after this consumer's warp arrived on empty for
 *     use u), so the parity cannot alias.
 *   empty[s], count 8: lane 0 of each consumer warp arrives after the warp
 *     has read use u (__syncwarp first: the other lanes' shared loads are
 *     ordered before lane 0's arrive, which releases them). The producer
 *     waits for completion u - 1 (parity (u - 1) & 1) before the copies of
 *     use u, u >= 1; use 0 needs no wait. Every consumer warp runs every
 *     group, those past N too, so each phase gets its 8 arrivals.
 * Before leaving the loop the producer waits for the full phases of its
 * last min(G, ST) uses: no copy is still writing when its warp goes on (its
 * threads take part in dec_finish's barriers and store nothing).
 *
 * Knobs (for the sweep): W58_DEC4_STAGES (default 5), W58_DEC4_BLOCKS
 * (blocks an SM asked of __launch_bounds__, default 2; 3 blocks fit with 3
 * stages, 1 with up to 10) and W58_DEC4_XBULK (default 1; 0 leaves x out of
 * the stage, M small copies fewer a group, and the consumers read x through
 * L1 as variant 1 does: 17,920 bytes a stage, 6 stages by default).
 * Registers: two blocks of 288 threads an SM leave 113 a thread, so ptxas
 * is held to 112; it uses 72 (nvcc 13, sm_90, no spills). */
#define DEC4_CWARPS 8                              /* consumer warps (256 columns) */
#define DEC4_THREADS (32 * (DEC4_CWARPS + 1))     /* + the producer warp */
#define DEC4_WROW 1056                             /* bytes from one word-row of a stage to the next */
#define DEC4_SOFF (16 * DEC4_WROW)                 /* 16896: the tile's scales of the group */
#define DEC4_ZOFF (DEC4_SOFF + 2 * DEC_COLS)       /* 17408: its zeros */
#define DEC4_XOFF (DEC4_ZOFF + 2 * DEC_COLS)       /* 17920: x, 16 rows */
#define DEC4_XROW 320                              /* bytes from one row of x to the next */
#ifndef W58_DEC4_XBULK
#define W58_DEC4_XBULK 1 /* 0: x is not in the stage; the consumers read it through L1 as variant 1 does */
#endif
#define DEC4_STAGE (W58_DEC4_XBULK ? DEC4_XOFF + 16 * DEC4_XROW : DEC4_XOFF) /* 23040 (17920 without x) */
#ifndef W58_DEC4_STAGES
#define W58_DEC4_STAGES (W58_DEC4_XBULK ? 5 : 6)
#endif
#ifndef W58_DEC4_BLOCKS
#define W58_DEC4_BLOCKS 2
#endif
static_assert(DEC4_WROW % 16 == 0 && DEC4_WROW >= 4 * DEC_COLS && DEC4_WROW % 128 == 32, "word-rows: aligned, apart");
static_assert(DEC4_SOFF % 16 == 0 && DEC4_ZOFF % 16 == 0 && DEC4_XOFF % 16 == 0, "copies start 16-byte aligned");
static_assert(DEC4_XROW % 16 == 0 && DEC4_XROW >= 2 * DEC_GROUP && DEC4_XROW % 128 == 64, "x rows: aligned, apart");
static_assert(DEC4_STAGE % 128 == 0, "stages 128-byte aligned");
static_assert(W58_DEC4_STAGES >= 2 && W58_DEC4_STAGES * DEC4_STAGE <= 227 * 1024 - 128, "the ring fits a block");

/* The end of variant 4's kernel: thread (g, t) of a warp whose first
 * column is wcol stores rows g and g + 8 of its accumulators (mine: this
 * warp has columns; the producer warp has none), straight to y, or with
 * split-K as FP32 partials followed by the last-block ticket. Every thread
 * of the block calls it (its __syncthreads). The same lines as the end of
 * w4_decode_kernel, which keeps its own copy: called from there too, they
 * change the machine code of variants 0 and 3. */
[[maybe_unused]] static __device__ __forceinline__ void dec_finish(const float (&acc)[4][4], bool mine, int wcol, int g, int t, int M,
                                                  int N, int S, int split, bool lo_row, bool hi_row,
                                                  __half *__restrict__ y, float *__restrict__ ws,
                                                  unsigned *__restrict__ tickets, bool &last)
{
    /* Thread (g, t): rows g and g + 8, columns ocol .. ocol + 7. */
    const int ocol = wcol + 8 * t;
    float v[8];
    if (S == 1) {
        if (mine && ocol < N) {
            if (lo_row) row8(acc, 0, v), *(uint4 *)(y + (size_t)g * N + ocol) = pack8(v);
            if (hi_row) row8(acc, 2, v), *(uint4 *)(y + (size_t)(g + 8) * N + ocol) = pack8(v);
        }
        return;
    }
    /* Split-K: partials to ws[split][row][col], then a ticket; the last block adds them in split order. */
    if (mine && ocol < N)
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
    if (mine && ocol < N)
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

/* createpolicy: an L2 policy that evicts these lines first (the words are
 * read once; __ldcs's hint in the other variants). */
[[maybe_unused]] static __device__ __forceinline__ uint64_t l2_evict_first()
{
    uint64_t p;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(p));
    return p;
}
/* One 1-D bulk copy of `bytes` (a multiple of 16) from global memory at src
 * (16-byte aligned) to shared memory at dst (16-byte aligned); the bytes
 * complete a transaction on the mbarrier at bar. The _hint form takes an L2
 * policy from createpolicy. (tma_ptx.h has the tensor-map copies; this is
 * the plain one, no tensor map.) */
[[maybe_unused]] static __device__ __forceinline__ void bulk_g2s(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
}
[[maybe_unused]] static __device__ __forceinline__ void bulk_g2s_hint(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar,
                                                     uint64_t policy)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], "
                 "%4;\n" ::"r"(dst), "l"(src), "r"(bytes), "r"(bar), "l"(policy)
                 : "memory");
}

static __global__ void __launch_bounds__(DEC4_THREADS, W58_DEC4_BLOCKS)
    w4_decode_bulk_kernel(const __half *__restrict__ x, const uint32_t *__restrict__ wq, const __half *__restrict__ sc,
                          const __half *__restrict__ zr, __half *__restrict__ y, float *__restrict__ ws,
                          unsigned *__restrict__ tickets, int M, int N, int K, int gps)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int ST = W58_DEC4_STAGES;
    extern __shared__ __align__(128) unsigned char ring[]; /* [ST][DEC4_STAGE] */
    __shared__ __align__(8) uint64_t full[ST], empty[ST];
    __shared__ bool last;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const int S = gridDim.y, split = blockIdx.y, groups = K / DEC_GROUP;
    const int g0 = split * gps, G = min(gps, groups - g0); /* G >= 1: the host makes no empty split */
    const int c0 = blockIdx.x * DEC_COLS;                  /* the tile's first column, < N */
    const uint32_t ring0 = smem_u32(ring), full0 = smem_u32(full), empty0 = smem_u32(empty);

    if (threadIdx.x == 0) {
        for (int s = 0; s < ST; s++) mbar_init(full0 + 8 * s, 1), mbar_init(empty0 + 8 * s, DEC4_CWARPS);
        fence_mbar_init(); /* the inits are seen by the async proxy (the bulk copies' complete_tx) */
    }
    __syncthreads(); /* ... and by every thread, before any waits or arrives */

    float acc[4][4];
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
        for (int q = 0; q < 4; q++) acc[j][q] = 0.f;

    if (warp == DEC4_CWARPS) {
        /* The producer. Lane l < 16 copies word-row l of each group (4 cn
         * bytes), lane 16 + r copies row r < M of x (256 bytes), and lanes 0
         * and 1 also the scales and the zeros (2 cn bytes each). Offsets are
         * in bytes from each array's start, the group's start added per use. */
        const int cn = min(DEC_COLS, N - c0); /* the tile's columns: a multiple of 8, 8..256 */
        const uint32_t wbytes = 4u * (uint32_t)cn, sbytes = 2u * (uint32_t)cn;
        const uint32_t tx = 16u * wbytes + 2u * sbytes + (W58_DEC4_XBULK ? 2u * DEC_GROUP * (uint32_t)M : 0u);
        const bool wlane = lane < 16, xlane = W58_DEC4_XBULK && lane >= 16 && lane - 16 < M, slane = lane < 2;
        const char *wsrc = (const char *)wq, *xsrc = (const char *)x;
        const char *ssrc = (const char *)(lane == 0 ? sc : zr);
        /* this lane's first group: word-row 16 g0 + l, columns c0..; x row l - 16, k = 128 g0..; the scales or zeros of g0 */
        size_t woff = (((size_t)g0 * 16 + lane) * N + c0) * 4, xoff = ((size_t)(xlane ? lane - 16 : 0) * K + (size_t)g0 * DEC_GROUP) * 2;
        size_t soff = ((size_t)g0 * N + c0) * 2;
        const size_t wstep = (size_t)16 * N * 4, sstep = (size_t)N * 2; /* one group on; x's step is 256 */
        const uint32_t wdst = (uint32_t)lane * DEC4_WROW, xdst = DEC4_XOFF + (uint32_t)(lane & 15) * DEC4_XROW;
        const uint32_t sdst = lane == 0 ? DEC4_SOFF : DEC4_ZOFF;
        const uint64_t pol = l2_evict_first();
        int st = 0;
        uint32_t ph = 0; /* u & 1 of stage st's next use u */
#pragma unroll 1
        for (int gi = 0; gi < G; gi++) {
            if (gi >= ST) mbar_wait_loop(empty0 + 8 * st, ph ^ 1); /* completion u - 1: the consumers are done with it */
            const uint32_t bar = full0 + 8 * st, sb = ring0 + (uint32_t)st * DEC4_STAGE;
            if (lane == 0) mbar_arrive_expect_tx(bar, tx);
            __syncwarp(); /* the expectation is in before any byte can land */
            if (wlane) bulk_g2s_hint(sb + wdst, wsrc + woff, wbytes, bar, pol);
            else if (xlane) bulk_g2s(sb + xdst, xsrc + xoff, 2u * DEC_GROUP, bar);
            if (slane) bulk_g2s(sb + sdst, ssrc + soff, sbytes, bar);
            woff += wstep, xoff += 2 * DEC_GROUP, soff += sstep;
            if (++st == ST) st = 0, ph ^= 1;
        }
        /* Drain: the last use of each stage used (groups G - ST .. G - 1) has landed. */
#pragma unroll 1
        for (int gi = G > ST ? G - ST : 0; gi < G; gi++) mbar_wait_loop(full0 + 8 * (gi % ST), (uint32_t)(gi / ST) & 1);
    } else {
        /* A consumer: variant 1's group loop with the words, scales, zeros and
         * x read from the stage instead of global memory. */
        const int cw = 32 * warp + 4 * g; /* this thread's first column in the tile */
        const bool has = c0 + cw < N, lo = g < M, hi = g + 8 < M;
        const uint32_t woff = (uint32_t)t * DEC4_WROW + 4u * cw; /* word-row t (4 s + t for s), columns cw .. cw + 3 */
        const uint32_t soff = DEC4_SOFF + 2u * cw;
        const uint32_t xoff = DEC4_XOFF + (uint32_t)g * DEC4_XROW + 16u * t; /* row g, k = 8 t .. (+ 32 s) */
        size_t xo = (size_t)g * K + (size_t)g0 * DEC_GROUP + 8 * t; /* XBULK 0: x[g][k] of the group worked on, in halves */
        int st = 0;
        uint32_t ph = 0;
#pragma unroll 1
        for (int gi = 0; gi < G; gi++) {
            mbar_wait_loop(full0 + 8 * st, ph); /* use u of stage st has landed (acquire: its bytes are visible) */
            const unsigned char *sb = ring + st * DEC4_STAGE;
            uint4 wc[4];
#pragma unroll
            for (int s = 0; s < 4; s++) wc[s] = has ? *(const uint4 *)(sb + woff + 4 * s * DEC4_WROW) : make_uint4(0, 0, 0, 0);
            const uint2 sc2 = has ? *(const uint2 *)(sb + soff) : make_uint2(0, 0);
            const uint2 zc2 = has ? *(const uint2 *)(sb + soff + 2 * DEC_COLS) : make_uint2(0, 0);
            dec_group(acc, wc, sc2, zc2, [&](int s, uint4 &xl, uint4 &xh) {
                if constexpr (W58_DEC4_XBULK) {
                    xl = lo ? *(const uint4 *)(sb + xoff + 64 * s) : make_uint4(0, 0, 0, 0);
                    xh = hi ? *(const uint4 *)(sb + xoff + 8 * DEC4_XROW + 64 * s) : make_uint4(0, 0, 0, 0);
                } else {
                    xl = lo ? __ldg((const uint4 *)(x + xo + 32 * s)) : make_uint4(0, 0, 0, 0);
                    xh = hi ? __ldg((const uint4 *)(x + xo + (size_t)8 * K + 32 * s)) : make_uint4(0, 0, 0, 0);
                }
            });
            xo += DEC_GROUP;
            __syncwarp(); /* every lane's reads of the stage are done ... */
            if (lane == 0) mbar_arrive(empty0 + 8 * st); /* ... before the warp hands it back */
            if (++st == ST) st = 0, ph ^= 1;
        }
    }
    dec_finish(acc, warp < DEC4_CWARPS, c0 + 32 * warp, g, t, M, N, S, split, g < M, g + 8 < M, y, ws, tickets, last);
#endif
}

/* Blocks of the bulk kernel the device holds at once (SMs x blocks an SM),
 * asked once per device; 0 where it cannot run here (the fall-back to
 * variant 1): a binary for this device below sm_90, where the kernel is
 * compiled empty; less opt-in shared memory a block than its ring and static
 * bytes; or no block fitting an SM. */
static constexpr size_t dec4_smem() { return (size_t)W58_DEC4_STAGES * DEC4_STAGE; }
static cudaError_t dec4_slots(int *slots)
{
    static int known_dev = -1, known_slots = 0;
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev != known_dev) {
        int sms = 0, optin = 0, per_sm = 0;
        cudaFuncAttributes fa;
        if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess) return e;
        if ((e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) != cudaSuccess) return e;
        if ((e = cudaFuncGetAttributes(&fa, w4_decode_bulk_kernel)) != cudaSuccess) return e;
        if (fa.binaryVersion >= 90 && (size_t)optin >= dec4_smem() + fa.sharedSizeBytes) {
            if ((e = cudaFuncSetAttribute(w4_decode_bulk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)dec4_smem())) != cudaSuccess)
                return e;
            if ((e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, w4_decode_bulk_kernel, DEC4_THREADS,
                                                                   dec4_smem())) != cudaSuccess)
                return e;
        }
        known_slots = sms * per_sm; /* 0: fall back */
        known_dev = dev;
    }
    *slots = known_slots;
    return cudaSuccess;
}
#endif /* W58_DEC_VARIANT == 4 */

/* The main kernel's variant: W58_DEC_VARIANT, or 1 where variant 4 falls back. */
#define DEC_MAIN_V (W58_DEC_VARIANT == 4 ? 1 : W58_DEC_VARIANT)

/* The dynamic shared memory a launch of the main kernel takes (0 but for 3). */
static constexpr size_t dec_smem() { return dec_cfg<DEC_MAIN_V>::stages > 0 ? dec_cfg<DEC_MAIN_V>::smem : 0; }

/* Blocks the device holds at once (SMs x blocks an SM), asked once per device. */
static cudaError_t dec_slots(int *slots)
{
    static int known_dev = -1, known_slots = 0;
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev != known_dev) {
        int sms = 0, per_sm = 0;
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if constexpr (dec_smem() > 0) { /* past the 48 KiB a block gets without asking */
            if (e == cudaSuccess)
                e = cudaFuncSetAttribute(w4_decode_kernel<DEC_MAIN_V>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)dec_smem());
        }
        if (e == cudaSuccess)
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, w4_decode_kernel<DEC_MAIN_V>, DEC_THREADS,
                                                              dec_smem());
        if (e != cudaSuccess) return e;
        known_slots = sms * (per_sm > 0 ? per_sm : 1);
        known_dev = dev;
    }
    *slots = known_slots;
    return cudaSuccess;
}

/* The split-K workspace: partial sums and one ticket per column tile, kept
 * between calls (grown when a call needs more) on the device first used.
 * Tickets start at 0 and every launch leaves them at 0. */
static float *g_ws;
static unsigned *g_tickets;
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
    int slots = 0;
    cudaError_t e;
    bool bulk = false; /* variant 4's kernel, where it can run */
#if W58_DEC_VARIANT == 4
    if ((e = dec4_slots(&slots)) != cudaSuccess) return e;
    bulk = slots > 0;
#endif
    if (!bulk && (e = dec_slots(&slots)) != cudaSuccess) return e;
    /* As many splits as leave every block resident at once (one wave), in
     * whole groups, at most DEC_MAX_SPLITS. */
    const int tiles = (N + DEC_COLS - 1) / DEC_COLS, groups = K / DEC_GROUP;
    int S = slots / tiles;
    S = S < 1 ? 1 : S > DEC_MAX_SPLITS ? DEC_MAX_SPLITS : S;
    S = S > groups ? groups : S;
    const int gps = (groups + S - 1) / S;
    S = (groups + gps - 1) / gps;
    if (S > 1 && (e = dec_workspace((size_t)S * M * N, (size_t)tiles)) != cudaSuccess) return e;
#if W58_DEC_VARIANT == 4
    if (bulk) {
        w4_decode_bulk_kernel<<<dim3((unsigned)tiles, (unsigned)S), DEC4_THREADS, dec4_smem()>>>(
            (const __half *)x_, wq, (const __half *)scales_, (const __half *)zeros_, (__half *)y_, g_ws, g_tickets, M, N,
            K, gps);
        return cudaGetLastError();
    }
#endif
    w4_decode_kernel<DEC_MAIN_V><<<dim3((unsigned)tiles, (unsigned)S), DEC_THREADS, dec_smem()>>>(
        (const __half *)x_, wq, (const __half *)scales_, (const __half *)zeros_, (__half *)y_, g_ws, g_tickets, M, N, K,
        gps);
    return cudaGetLastError();
    //@starter
    //| (void)x_, (void)wq, (void)scales_, (void)zeros_, (void)y_, (void)M, (void)N, (void)K;
    //| return cudaSuccess;
    //@end
}
