/* paged_attn.cu — week 57: paged decode attention with split-K and the
 * log-sum-exp merge.
 *
 * The attention kernel: one block of PAGED_WARPS warps per (sequence, KV
 * head, partition). It serves all G query heads of the KV head's group from
 * the same loads: each K and V row is read from DRAM once and used G times.
 * The warps take the partition's chunks of PAGED_CHUNK tokens in turn (warp
 * w: chunks w, w + 4, ...). Within a warp, RL = D / 8 lanes hold one K row,
 * 16 bytes (8 bf16) each, so one 16-byte load instruction of the warp reads
 * TPL = 32 / RL whole rows: 2 at D = 128, 4 at D = 64. A lane keeps the 8
 * query elements that match its slice of the row, for each of the G heads,
 * in registers, scaled into base-2 units; a dot product is 8 FMAs in the
 * lane and a reduction over the RL lanes of the row. Each warp keeps its
 * own online softmax (m, l and an unnormalised output per head); at the
 * end the block merges its warps through shared memory and writes either
 * the final row (no split) or the partition's (m, l, unnormalised output)
 * to the workspace, which the merge kernel combines.
 *
 * Token t's block-table entry is read once per chunk (a chunk never
 * crosses a block: block_size is a multiple of PAGED_CHUNK), the next
 * chunk's one while the current chunk's K and V are loaded. */
#include <cuda_bf16.h>
#include <math.h>
#include "paged_attn.h"
//@solution

/* ---- tuning knobs (compile line, -DNAME=VALUE; unset, each is the value the
 * reference was measured with: the ring of 2 stages below, 3 blocks an SM,
 * `make tune-w57`'s best set on an H200, 2026-11-28, instructor/tune/w57):
 *   PAGED_WARPS       (paged_attn.h) warps a block: 1, 2, 4 (default) or 8.
 *   PAGED_TOKENS      tokens of a warp's turn: 16 (default, = PAGED_CHUNK) or
 *                     8; a turn never crosses a KV block (it divides
 *                     PAGED_CHUNK, which divides block_size and partition).
 *   PAGED_TOKENS_G8   the turn at G = 8 (default PAGED_TOKENS): 8 there
 *                     keeps D = 128's 64 scores and 16 loads a lane from
 *                     spilling.
 *   PAGED_MIN_BLOCKS  __launch_bounds__'s blocks an SM: 3 (default) or
 *                     0 (none given) or 1 .. 8 (a register cap for ptxas),
 *                     for G <= 4 only: G = 8 needs its 255.
 *   PAGED_PARTITION   (paged_attn.h) not the kernel's: the partition the
 *                     test's benchmarks pass (give it to the test's compile).
 *   PAGED_STAGES      2 (default) .. 8: K and V go through a ring of that
 *                     many turns a warp in shared memory, by cp.async: while
 *                     a warp computes turn i, turns i + 1 .. i + STAGES - 1
 *                     are in flight (a lane copies and later reads only its
 *                     own 16-byte pieces: no barrier). The prologue issues
 *                     seq_lens, q and the table entries of the warp's first
 *                     32 turns together; table entries come 32 turns a load,
 *                     one lane a turn, taken by a shuffle. (The kernel that
 *                     loaded K and V into registers at the top of each turn,
 *                     the README's step 2, measured on the H100 and the
 *                     H200, is in the repository's history: commit
 *                     848a13b and before.)
 *   PAGED_SPAN        1 (default) .. 64: partitions a
 *                     block (split launches): the block walks SPAN
 *                     consecutive partitions of its (sequence, KV head) as
 *                     one stream of turns, the ring running across their
 *                     edges, and merges and writes each partition's partial
 *                     as its warps pass its end (one barrier a partition,
 *                     the merge buffer double): the workspace layout and the
 *                     API's partition are unchanged, the blocks and their
 *                     start-up chains are 1 / SPAN. */
#ifndef PAGED_TOKENS
#define PAGED_TOKENS PAGED_CHUNK
#endif
#ifndef PAGED_TOKENS_G8
#define PAGED_TOKENS_G8 PAGED_TOKENS
#endif
#ifndef PAGED_MIN_BLOCKS
#define PAGED_MIN_BLOCKS 3
#endif
#ifndef PAGED_STAGES
#define PAGED_STAGES 2
#endif
#ifndef PAGED_SPAN
#define PAGED_SPAN 1
#endif
static_assert(PAGED_WARPS == 1 || PAGED_WARPS == 2 || PAGED_WARPS == 4 || PAGED_WARPS == 8, "PAGED_WARPS: 1, 2, 4 or 8");
static_assert(PAGED_TOKENS == 8 || PAGED_TOKENS == 16, "PAGED_TOKENS: 8 or 16");
static_assert(PAGED_TOKENS_G8 == 8 || PAGED_TOKENS_G8 == 16, "PAGED_TOKENS_G8: 8 or 16");
static_assert(PAGED_CHUNK % PAGED_TOKENS == 0 && PAGED_CHUNK % PAGED_TOKENS_G8 == 0, "a turn must not cross a KV block");
static_assert(PAGED_MIN_BLOCKS >= 0 && PAGED_MIN_BLOCKS <= 8, "PAGED_MIN_BLOCKS: 0 to 8");
static_assert(PAGED_STAGES >= 2 && PAGED_STAGES <= 8, "PAGED_STAGES: 2 to 8");
static_assert(PAGED_SPAN >= 1 && PAGED_SPAN <= 64, "PAGED_SPAN: 1 to 64");
#if PAGED_MIN_BLOCKS > 0 /* the kernel's __launch_bounds__(threads) takes a second argument (undone after it) */
#pragma push_macro("__launch_bounds__")
#undef __launch_bounds__
#define __launch_bounds__(t) __annotate__(launch_bounds(t, G >= 8 ? 1 : PAGED_MIN_BLOCKS))
#endif
//@end

/* ---- helpers, given. [[maybe_unused]]: the starter does not call them yet. */

/* 8 bf16 (one 16-byte load) to 8 floats: a bf16 is the top half of a float. */
[[maybe_unused]] static __device__ __forceinline__ void bf16x8_to_f32(const uint4 u, float (&f)[8])
{
    const uint32_t w[4] = { u.x, u.y, u.z, u.w };
#pragma unroll
    for (int i = 0; i < 4; i++) {
        f[2 * i] = __uint_as_float(w[i] << 16);
        f[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u);
    }
}

/* 16 bytes from a cache read once (evict-first: no other block wants them). */
[[maybe_unused]] static __device__ __forceinline__ uint4 ld_stream16(const uint16_t *p)
{
    return __ldcs(reinterpret_cast<const uint4 *>(p));
}

/* 2^x on the special-function unit; 2^-inf = +0. */
[[maybe_unused]] static __device__ __forceinline__ float fast_exp2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}

[[maybe_unused]] static __device__ __forceinline__ uint16_t f32_to_bf16_bits(float x)
{
    return __bfloat16_as_ushort(__float2bfloat16_rn(x));
}

//@solution
/* The online-softmax step of one turn, for each head: the turn's max across
 * the warp's TPL rows of each load, the rescale of l and acc, and
 * p = 2^(x - m) in place of the scores. */
template <int G, int LOADS, int RL>
static __device__ __forceinline__ void turn_softmax(float (&s)[LOADS][G], float (&m)[G], float (&l)[G],
                                                    float (&acc)[G][8])
{
#pragma unroll
    for (int g = 0; g < G; g++) {
        float bm = s[0][g];
#pragma unroll
        for (int j = 1; j < LOADS; j++) bm = fmaxf(bm, s[j][g]);
#pragma unroll
        for (int o = RL; o < 32; o <<= 1) bm = fmaxf(bm, __shfl_xor_sync(0xffffffffu, bm, o));
        const float mn = fmaxf(m[g], bm);        /* finite: the turn has a token (c < t1) */
        const float alpha = fast_exp2(m[g] - mn); /* 0 on the first turn (m = -inf) */
        m[g] = mn;
        float ps = 0.f;
#pragma unroll
        for (int j = 0; j < LOADS; j++) ps += (s[j][g] = fast_exp2(s[j][g] - mn));
        l[g] = l[g] * alpha + ps;
#pragma unroll
        for (int e = 0; e < 8; e++) acc[g][e] *= alpha;
    }
}

/* 16 bytes global -> shared without a register (cached in L2 only); a
 * group of them is committed, and waited for until at most N newer groups
 * are still in flight. */
static __device__ __forceinline__ void cp_async16(uint4 *dst, const uint16_t *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src) : "memory");
}
static __device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> static __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

/* The ring's bytes (dynamic shared memory): PAGED_STAGES turns of K and V
 * rows a warp, TOK rows of D bf16 each. */
template <int D, int G> static __host__ __device__ constexpr int paged_ring_bytes()
{
    return PAGED_WARPS * PAGED_STAGES * 2 * (G >= 8 ? PAGED_TOKENS_G8 : PAGED_TOKENS) * D * 2;
}

//@end
/* ---- the attention kernel: grid (num_kv_heads, batch, P), PAGED_WARPS * 32
 * threads. lbs = log2(block_size). Split (a.partition > 0): block z owns
 * tokens [z * partition, min(n, (z + 1) * partition)) and writes its
 * partial to ml and po (P partitions a (b, h) row, paged_attn.h's layout);
 * no split: z = 0 owns the whole sequence and writes out. */
template <int D, int G>
static __global__ void __launch_bounds__(PAGED_WARPS * 32)
    paged_attn_kernel(const paged_attn_args a, const int lbs, float *__restrict__ ml, float *__restrict__ po,
                      const int P)
{
    //@solution
    constexpr int RL = D / 8, TPL = 32 / RL;
    constexpr int TOK = G >= 8 ? PAGED_TOKENS_G8 : PAGED_TOKENS;
    constexpr int LOADS = TOK / TPL;
    constexpr int S = PAGED_STAGES;
    constexpr int NB = PAGED_SPAN > 1 ? 2 : 1; /* merge buffers: a block of one partition needs one */
    static_assert(paged_ring_bytes<D, G>() + NB * PAGED_WARPS * G * (D + 2) * 4 <= 227 * 1024,
                  "PAGED_STAGES: the ring and the merge buffers pass 227 KB of shared memory");
    const int kvh = blockIdx.x, b = blockIdx.y;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int sub = lane / RL, col = (lane % RL) * 8;
    const int step = PAGED_WARPS * TOK;
    const int pz = a.partition ? (int)blockIdx.z * PAGED_SPAN : 0; /* the block's first partition */
    const int T0 = pz * a.partition;                                /* its first token (0 unsplit) */
    const int c0 = T0 + warp * TOK;                                 /* the warp's turn i: tokens c0 + i * step .. + TOK - 1 */
    const int32_t *tbl = a.block_tables + (size_t)b * a.max_blocks_per_seq;

    /* In flight together: seq_lens, q, and the table entries of the warp's
     * first 32 turns (lane i: turn i's; the token clamped below max_seq_len,
     * inside the table; an entry past the sequence is loaded, never used). */
    const long long lastc = a.max_seq_len > 0 ? a.max_seq_len - 1 : 0;
    int tb = __ldg(tbl + (int)(min((long long)c0 + (long long)lane * step, lastc) >> lbs));
    uint4 qraw[G];
#pragma unroll
    for (int g = 0; g < G; g++)
        qraw[g] = *reinterpret_cast<const uint4 *>(a.q + ((size_t)b * a.num_q_heads + (size_t)kvh * G + g) * D + col);
    int n = a.seq_lens[b];
    n = n < 0 ? 0 : n > a.max_seq_len ? a.max_seq_len : n;
    /* The block's tokens [T0, Tend): SPAN partitions (or the sequence). */
    const int Tend = a.partition ? (int)min((long long)n, (long long)T0 + (long long)PAGED_SPAN * a.partition) : n;
    if (a.partition && T0 >= n) return; /* the whole block: no barrier is passed yet */
    const int pend = a.partition ? (Tend - 1) / a.partition + 1 : 1; /* one past the block's last partition */

    const float qs = a.scale * 1.4426950408889634f;
    float q[G][8];
#pragma unroll
    for (int g = 0; g < G; g++) {
        bf16x8_to_f32(qraw[g], q[g]);
#pragma unroll
        for (int e = 0; e < 8; e++) q[g][e] *= qs;
    }

    const size_t blk = (size_t)a.num_kv_heads * a.block_size * D; /* elements of a physical block */
    const size_t head = (size_t)kvh * a.block_size * D + col;      /* this head's rows within it, this lane's column */
    const long long limc = Tend > 0 ? Tend - 1 : 0;                /* table entries past the block's tokens: clamped */
    /* tb: the entries of turns eb .. eb + 31; tbn: the next 32, loaded 32 turns ahead. */
    int eb = 0, tbn = 0;
    if ((long long)c0 + 32LL * step < Tend)
        tbn = __ldg(tbl + (int)(min((long long)c0 + (long long)(32 + lane) * step, limc) >> lbs));

    /* The ring: [warp][stage][K, V][load j][lane], 16 bytes each; a lane
     * copies and reads only its own pieces. */
    extern __shared__ __align__(16) uint4 paged_ring[];
    uint4 *const ring = paged_ring + (size_t)warp * S * 2 * LOADS * 32 + lane;

    /* Turn i's loads into stage i % S, one commit group a turn (empty past
     * the block's tokens, so that the group count stays i + 1). Warp-uniform. */
    auto issue = [&](const int i) {
        const long long cl = (long long)c0 + (long long)i * step;
        if (cl < Tend) {
            const int c = (int)cl;
            if (i - eb == 32) { /* the next 32 entries; load the ones after them */
                eb += 32, tb = tbn;
                if ((long long)c0 + (long long)(eb + 32) * step < Tend)
                    tbn = __ldg(tbl + (int)(min((long long)c0 + (long long)(eb + 32 + lane) * step, limc) >> lbs));
            }
            const int phys = __shfl_sync(0xffffffffu, tb, i - eb);
            const size_t base = (size_t)phys * blk + head + (size_t)(c & (a.block_size - 1)) * D;
            uint4 *dst = ring + (size_t)(i % S) * 2 * LOADS * 32;
#pragma unroll
            for (int j = 0; j < LOADS; j++) {
                const int r = j * TPL + sub;
                if (c + r < Tend) { /* past the sequence: not read (zeros at use) */
                    cp_async16(dst + j * 32, a.k_cache + base + (size_t)r * D);
                    cp_async16(dst + (LOADS + j) * 32, a.v_cache + base + (size_t)r * D);
                }
            }
        }
        cp_async_commit();
    };

    float m[G], l[G], acc[G][8];
#pragma unroll
    for (int g = 0; g < G; g++) {
        m[g] = -INFINITY, l[g] = 0.f;
#pragma unroll
        for (int e = 0; e < 8; e++) acc[g][e] = 0.f;
    }
    /* The block's warps merge a partition in shared memory, double-buffered
     * by partition when SPAN > 1: one barrier each. */
    __shared__ float sm_m[NB][PAGED_WARPS][G], sm_l[NB][PAGED_WARPS][G];
    __shared__ float sm_o[NB][PAGED_WARPS][G][D];

#pragma unroll 1
    for (int s = 0; s < S - 1; s++) issue(s);
    int pc = pz; /* the partition (m, l, acc) belong to */
#pragma unroll 1
    for (int i = 0;; i++) {
        const long long cl = (long long)c0 + (long long)i * step;
        /* the turn's partition: pz for every turn of a block of one (an int
         * division a turn with SPAN > 1; cl < Tend fits an int) */
        const int p = cl >= Tend ? pend : PAGED_SPAN > 1 && a.partition ? (int)cl / a.partition : pz;
        /* Partitions pc .. p - 1 are done for this warp: every warp passes
         * each partition of the block here once, in order (the same barriers). */
#pragma unroll 1
        for (; pc < p; pc++) {
            const int bf = (pc - pz) & (NB - 1);
#pragma unroll
            for (int g = 0; g < G; g++)
#pragma unroll
                for (int o = RL; o < 32; o <<= 1) {
                    l[g] += __shfl_xor_sync(0xffffffffu, l[g], o);
#pragma unroll
                    for (int e = 0; e < 8; e++) acc[g][e] += __shfl_xor_sync(0xffffffffu, acc[g][e], o);
                }
            if (lane == 0)
#pragma unroll
                for (int g = 0; g < G; g++) sm_m[bf][warp][g] = m[g], sm_l[bf][warp][g] = l[g];
            if (sub == 0)
#pragma unroll
                for (int g = 0; g < G; g++)
#pragma unroll
                    for (int e = 0; e < 8; e++) sm_o[bf][warp][g][col + e] = acc[g][e];
            __syncthreads();
            for (int x = threadIdx.x; x < G * D; x += PAGED_WARPS * 32) {
                const int g = x / D, d = x % D;
                float M = -INFINITY;
#pragma unroll
                for (int w = 0; w < PAGED_WARPS; w++) M = fmaxf(M, sm_m[bf][w][g]);
                float L = 0.f, O = 0.f;
                if (M != -INFINITY)
#pragma unroll
                    for (int w = 0; w < PAGED_WARPS; w++) {
                        const float wt = fast_exp2(sm_m[bf][w][g] - M);
                        L = fmaf(wt, sm_l[bf][w][g], L);
                        O = fmaf(wt, sm_o[bf][w][g][d], O);
                    }
                const size_t row = (size_t)b * a.num_q_heads + (size_t)kvh * G + g;
                if (!a.partition) {
                    a.out[row * D + d] = f32_to_bf16_bits(L > 0.f ? O / L : 0.f);
                } else {
                    const size_t r = row * P + pc;
                    po[r * D + d] = O;
                    if (d == 0) ml[2 * r] = M, ml[2 * r + 1] = L;
                }
            }
#pragma unroll
            for (int g = 0; g < G; g++) {
                m[g] = -INFINITY, l[g] = 0.f;
#pragma unroll
                for (int e = 0; e < 8; e++) acc[g][e] = 0.f;
            }
        }
        if (cl >= Tend) break;
        const int c = (int)cl;

        issue(i + S - 1);      /* into the stage turn i - 1 left */
        cp_async_wait<S - 1>(); /* turn i's group is complete */
        const uint4 *src = ring + (size_t)(i % S) * 2 * LOADS * 32;
        const uint4 zero = make_uint4(0, 0, 0, 0);

        float s[LOADS][G];
#pragma unroll
        for (int j = 0; j < LOADS; j++) {
            const bool in = c + j * TPL + sub < Tend;
            float kf[8];
            bf16x8_to_f32(in ? src[j * 32] : zero, kf);
#pragma unroll
            for (int g = 0; g < G; g++) {
                float d = 0.f;
#pragma unroll
                for (int e = 0; e < 8; e++) d = fmaf(q[g][e], kf[e], d);
#pragma unroll
                for (int o = RL / 2; o; o >>= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
                s[j][g] = in ? d : -INFINITY;
            }
        }
        turn_softmax<G, LOADS, RL>(s, m, l, acc);
#pragma unroll
        for (int j = 0; j < LOADS; j++) {
            const bool in = c + j * TPL + sub < Tend;
            float vf[8];
            bf16x8_to_f32(in ? src[(LOADS + j) * 32] : zero, vf);
#pragma unroll
            for (int g = 0; g < G; g++)
#pragma unroll
                for (int e = 0; e < 8; e++) acc[g][e] = fmaf(s[j][g], vf[e], acc[g][e]);
        }
    }
    //@starter
    //| /* TODO (README, "Tasks"): block (kvh, b, part) = (blockIdx.x, .y, .z).
    //|  *  1. n = seq_lens[b] (clamped to 0 .. max_seq_len); the tokens
    //|  *     [t0, t1) of this partition (the whole sequence when
    //|  *     a.partition == 0); return at once when the partition is empty.
    //|  *  2. Each lane holds 8 elements (16 bytes) of a K row: RL = D / 8
    //|  *     lanes a row, TPL = 32 / RL rows a warp load. Load the G query
    //|  *     rows' matching 8 elements into float registers, times
    //|  *     scale * log2(e), so that every exponential is fast_exp2.
    //|  *  3. Warp w takes chunks of PAGED_CHUNK tokens c = t0 + w * 16,
    //|  *     + 4 * 16, ...: the chunk's block is block_tables[b][c >> lbs],
    //|  *     its rows start at paged_kv_offset(phys, kvh, c % block_size, ...).
    //|  *     Load the chunk's K and V rows (ld_stream16, nothing past t1),
    //|  *     the scores (8 FMAs, then __shfl_xor_sync over the RL lanes),
    //|  *     -INFINITY past t1, then the online-softmax update of (m, l,
    //|  *     acc) for each head: never 0 * (what a slot past t1 holds).
    //|  *  4. Merge the warps' (m, l, acc) through shared memory (the merge
    //|  *     rule of the README) and write out (no split) or the partition's
    //|  *     m, l and unnormalised output to ml and po (paged_attn.h). */
    //@end
}
//@solution
#if PAGED_MIN_BLOCKS > 0
#pragma pop_macro("__launch_bounds__")
#endif
//@end

/* ---- the merge: grid (num_q_heads, batch), head_dim threads; thread d
 * writes out[b][h][d] from the partials of (b, h). */
static __global__ void paged_merge_kernel(const float *__restrict__ ml, const float *__restrict__ po,
                                          const int32_t *__restrict__ seq_lens, uint16_t *__restrict__ out,
                                          const int num_q_heads, const int D, const int P, const int partition)
{
    //@solution
    const int h = blockIdx.x, b = blockIdx.y, d = threadIdx.x;
    const int n = seq_lens[b];
    int np = n <= 0 ? 0 : (n + partition - 1) / partition;
    np = np < P ? np : P;
    const size_t r0 = ((size_t)b * num_q_heads + h) * P;
    float M = -INFINITY;
    for (int p = 0; p < np; p++) M = fmaxf(M, ml[2 * (r0 + p)]);
    float L = 0.f, O = 0.f;
    if (M != -INFINITY) /* no partition, or only empty ones: zeros */
        for (int p = 0; p < np; p++) {
            const float wt = fast_exp2(ml[2 * (r0 + p)] - M); /* <= 1; an empty partition (m = -inf): 0 */
            L = fmaf(wt, ml[2 * (r0 + p) + 1], L);
            O = fmaf(wt, po[(r0 + p) * D + d], O);
        }
    out[((size_t)b * num_q_heads + h) * D + d] = f32_to_bf16_bits(L > 0.f ? O / L : 0.f);
    //@starter
    //| /* TODO (README, "The merge"): (h, b) = (blockIdx.x, .y), d = threadIdx.x.
    //|  * The sequence has ceil(seq_lens[b] / partition) partitions (at most P);
    //|  * M = the largest m, then L = sum 2^(m_p - M) l_p and O = sum 2^(m_p - M) po_p[d];
    //|  * out = O / L as bf16, 0 when there is no partition. An empty partition
    //|  * (m = -inf) weighs 0; never compute -inf - -inf. */
    //@end
}

/* ---- launchers, given. */

template <int D, int G>
static void launch_attn(const paged_attn_args *a, int lbs, float *ml, float *po, int P)
{
    //@solution
    /* the ring in dynamic shared memory; SPAN partitions a block */
    constexpr int bytes = paged_ring_bytes<D, G>();
    const unsigned z = a->partition ? (unsigned)((P + PAGED_SPAN - 1) / PAGED_SPAN) : 1u;
    /* Past 48 KB a kernel must ask; the carveout all shared memory (the loads
     * skip L1): blocks an SM are then set by the ring. A failure shows in the
     * launch's error. */
    if (bytes > 48 * 1024)
        (void)cudaFuncSetAttribute(paged_attn_kernel<D, G>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    (void)cudaFuncSetAttribute(paged_attn_kernel<D, G>, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
    paged_attn_kernel<D, G><<<dim3((unsigned)a->num_kv_heads, (unsigned)a->batch, z), PAGED_WARPS * 32, bytes>>>(*a, lbs, ml, po, P);
    return;
    //@end
    const dim3 grid((unsigned)a->num_kv_heads, (unsigned)a->batch, (unsigned)P);
    paged_attn_kernel<D, G><<<grid, PAGED_WARPS * 32>>>(*a, lbs, ml, po, P);
}

template <int D>
static cudaError_t launch_attn_g(const paged_attn_args *a, int G, int lbs, float *ml, float *po, int P)
{
    switch (G) {
    case 1: launch_attn<D, 1>(a, lbs, ml, po, P); break;
    case 2: launch_attn<D, 2>(a, lbs, ml, po, P); break;
    case 4: launch_attn<D, 4>(a, lbs, ml, po, P); break;
    case 8: launch_attn<D, 8>(a, lbs, ml, po, P); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

static int split_depth(const paged_attn_args *a) { return paged_partitions(a->max_seq_len, a->partition); }

size_t paged_attn_ws_ml_floats(const paged_attn_args *a)
{
    if (!a || a->partition <= 0 || a->batch <= 0 || a->num_q_heads <= 0) return 0;
    return (size_t)a->batch * a->num_q_heads * split_depth(a) * 2;
}

size_t paged_attn_ws_floats(const paged_attn_args *a)
{
    if (!a || a->partition <= 0 || a->batch <= 0 || a->num_q_heads <= 0 || a->head_dim <= 0) return 0;
    return (size_t)a->batch * a->num_q_heads * split_depth(a) * (2 + (size_t)a->head_dim);
}

static int misaligned(const void *p, uintptr_t to) { return !p || ((uintptr_t)p & (to - 1)); }

cudaError_t paged_attn_merge(const float *ml, const float *po, const int32_t *seq_lens, uint16_t *out, int batch,
                             int num_q_heads, int head_dim, int max_partitions, int partition)
{
    if (batch < 0 || batch > 65535 || num_q_heads <= 0 || (head_dim != 64 && head_dim != 128) ||
        max_partitions < 0 || partition <= 0)
        return cudaErrorInvalidValue;
    if (batch == 0) return cudaSuccess;
    if ((max_partitions && (misaligned(ml, 4) || misaligned(po, 4))) || misaligned(seq_lens, 4) ||
        misaligned(out, 2))
        return cudaErrorInvalidValue;
    paged_merge_kernel<<<dim3((unsigned)num_q_heads, (unsigned)batch), (unsigned)head_dim>>>(
        ml, po, seq_lens, out, num_q_heads, head_dim, max_partitions, partition);
    return cudaGetLastError();
}

cudaError_t paged_attn(const paged_attn_args *a, float *ws)
{
    if (!a || a->batch < 0 || a->batch > 65535) return cudaErrorInvalidValue;
    if (a->batch == 0) return cudaSuccess;
    const int bs = a->block_size;
    if ((a->head_dim != 64 && a->head_dim != 128) || a->num_kv_heads <= 0 || a->num_q_heads <= 0 ||
        a->num_q_heads % a->num_kv_heads || bs < PAGED_CHUNK || bs > 256 || (bs & (bs - 1)) || a->num_blocks <= 0 ||
        a->max_blocks_per_seq <= 0 || a->max_seq_len < 0 ||
        (long long)a->max_seq_len > (long long)a->max_blocks_per_seq * bs || a->partition < 0 ||
        a->partition % PAGED_CHUNK || !(a->scale > 0.f) || !isfinite(a->scale))
        return cudaErrorInvalidValue;
    const int G = a->num_q_heads / a->num_kv_heads;
    if (G != 1 && G != 2 && G != 4 && G != 8) return cudaErrorInvalidValue;
    if (misaligned(a->q, 16) || misaligned(a->k_cache, 16) || misaligned(a->v_cache, 16) ||
        misaligned(a->block_tables, 4) || misaligned(a->seq_lens, 4) || misaligned(a->out, 2))
        return cudaErrorInvalidValue;
    const int P = split_depth(a);
    if (P > 65535 || (a->partition && P && misaligned(ws, 16))) return cudaErrorInvalidValue;
    int lbs = 0;
    while ((1 << lbs) < bs) lbs++;
    float *ml = a->partition ? ws : NULL, *po = a->partition ? ws + paged_attn_ws_ml_floats(a) : NULL;
    const int Pz = a->partition ? P : 1; /* split with max_seq_len 0: nothing to attend, the merge writes zeros */
    cudaError_t e = cudaSuccess;
    if (Pz)
        e = a->head_dim == 64 ? launch_attn_g<64>(a, G, lbs, ml, po, Pz) : launch_attn_g<128>(a, G, lbs, ml, po, Pz);
    if (e != cudaSuccess || !a->partition) return e;
    return paged_attn_merge(ml, po, a->seq_lens, a->out, a->batch, a->num_q_heads, a->head_dim, P, a->partition);
}
