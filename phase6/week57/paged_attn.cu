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
    /* TODO (README, "Tasks"): block (kvh, b, part) = (blockIdx.x, .y, .z).
     *  1. n = seq_lens[b] (clamped to 0 .. max_seq_len); the tokens
     *     [t0, t1) of this partition (the whole sequence when
     *     a.partition == 0); return at once when the partition is empty.
     *  2. Each lane holds 8 elements (16 bytes) of a K row: RL = D / 8
     *     lanes a row, TPL = 32 / RL rows a warp load. Load the G query
     *     rows' matching 8 elements into float registers, times
     *     scale * log2(e), so that every exponential is fast_exp2.
     *  3. Warp w takes chunks of PAGED_CHUNK tokens c = t0 + w * 16,
     *     + 4 * 16, ...: the chunk's block is block_tables[b][c >> lbs],
     *     its rows start at paged_kv_offset(phys, kvh, c % block_size, ...).
     *     Load the chunk's K and V rows (ld_stream16, nothing past t1),
     *     the scores (8 FMAs, then __shfl_xor_sync over the RL lanes),
     *     -INFINITY past t1, then the online-softmax update of (m, l,
     *     acc) for each head: never 0 * (what a slot past t1 holds).
     *  4. Merge the warps' (m, l, acc) through shared memory (the merge
     *     rule of the README) and write out (no split) or the partition's
     *     m, l and unnormalised output to ml and po (paged_attn.h). */
}

/* ---- the merge: grid (num_q_heads, batch), head_dim threads; thread d
 * writes out[b][h][d] from the partials of (b, h). */
static __global__ void paged_merge_kernel(const float *__restrict__ ml, const float *__restrict__ po,
                                          const int32_t *__restrict__ seq_lens, uint16_t *__restrict__ out,
                                          const int num_q_heads, const int D, const int P, const int partition)
{
    /* TODO (README, "The merge"): (h, b) = (blockIdx.x, .y), d = threadIdx.x.
     * The sequence has ceil(seq_lens[b] / partition) partitions (at most P);
     * M = the largest m, then L = sum 2^(m_p - M) l_p and O = sum 2^(m_p - M) po_p[d];
     * out = O / L as bf16, 0 when there is no partition. An empty partition
     * (m = -inf) weighs 0; never compute -inf - -inf. */
}

/* ---- launchers, given. */

template <int D, int G>
static void launch_attn(const paged_attn_args *a, int lbs, float *ml, float *po, int P)
{
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
