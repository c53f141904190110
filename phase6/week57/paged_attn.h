/* paged_attn.h — week 57: paged decode attention (one query token a
 * sequence against a KV cache kept in fixed-size blocks), split-K over the
 * keys and the log-sum-exp merge of the partial softmaxes.
 *
 * The layouts (all on the device; bf16 values as their uint16_t bits):
 *
 *   q        [batch][num_q_heads][head_dim]                    bf16
 *   k_cache  [num_blocks][num_kv_heads][block_size][head_dim]  bf16
 *   v_cache  [num_blocks][num_kv_heads][block_size][head_dim]  bf16 (the same)
 *   block_tables [batch][max_blocks_per_seq]                   int32
 *   seq_lens [batch]                                           int32
 *   out      [batch][num_q_heads][head_dim]                    bf16
 *
 * Token t of sequence b lives in physical block block_tables[b][t /
 * block_size], slot t % block_size (paged_kv_offset below). Query head h
 * reads KV head h / (num_q_heads / num_kv_heads) (grouped-query attention:
 * the G = num_q_heads / num_kv_heads query heads of a group share one KV
 * head). The output row of (b, h) is softmax(scale q K^T) V over the
 * sequence's seq_lens[b] tokens; a sequence of length 0 gives zeros. The
 * scores, the softmax and the sums are FP32; out is rounded to bf16.
 *
 * Split-K: with partition > 0 the keys of a sequence are cut into
 * partitions of `partition` tokens; one block per (sequence, KV head,
 * partition) writes a partial result to the workspace, and a second kernel
 * (the merge) combines a sequence's partials into out. With partition == 0
 * one block per (sequence, KV head) walks the whole sequence and writes out
 * itself; no workspace, no merge. */
#ifndef PAGED_ATTN_H
#define PAGED_ATTN_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PAGED_PARTITION and PAGED_WARPS may be set on the compile line (tuning: the
 * benchmarks' partition in the test, the block's warps in the kernel);
 * PAGED_CHUNK is part of the contract (the argument checks) and may not. */
#define PAGED_CHUNK 16 /* tokens a warp takes at a time: block_size and partition are multiples of it */
#ifndef PAGED_PARTITION
#define PAGED_PARTITION 512 /* vLLM's partition for its split kernel, the benchmarks' */
#endif
#ifndef PAGED_WARPS
#define PAGED_WARPS 4 /* warps of an attention block */
#endif

typedef struct {
    const uint16_t *q, *k_cache, *v_cache; /* 16-byte aligned */
    const int32_t *block_tables, *seq_lens;
    uint16_t *out;
    int batch, num_q_heads, num_kv_heads, head_dim; /* head_dim 64 or 128; G = q / kv heads 1, 2, 4 or 8 */
    int num_blocks, block_size;                     /* block_size a power of two, 16 to 256 */
    int max_blocks_per_seq;
    int max_seq_len; /* >= every seq_lens[b], <= max_blocks_per_seq * block_size: sizes the split grid */
    int partition;   /* 0 (no split) or a multiple of PAGED_CHUNK */
    float scale;     /* > 0 and finite: 1/sqrt(head_dim) usually */
} paged_attn_args;

/* Where token t of a sequence lives, in elements from the cache's base:
 * block `phys` (its block-table entry), KV head kvh, slot t % block_size. */
static inline size_t paged_kv_offset(int phys, int kvh, int slot, int num_kv_heads, int block_size, int head_dim)
{
    return (((size_t)phys * num_kv_heads + kvh) * block_size + slot) * head_dim;
}

/* Partitions of a sequence of n tokens (0 for n == 0), and the most any
 * sequence of the batch has: the split grid's depth. */
static inline int paged_partitions(int n, int partition)
{
    return n <= 0 ? 0 : partition <= 0 ? 1 : (n + partition - 1) / partition;
}

/* The workspace of a split launch, in two arrays of floats:
 *   ml [batch][num_q_heads][P][2]         m and l of each partition
 *   po [batch][num_q_heads][P][head_dim]  its unnormalised output
 * with P = paged_partitions(max_seq_len, partition). For the tokens j of
 * partition p, with x_j = scale * log2(e) * q . k_j (base-2 units):
 *   m = max_j x_j,   l = sum_j 2^(x_j - m),   po[d] = sum_j 2^(x_j - m) v_j[d].
 * paged_attn_ws_floats gives the floats of both (ml first, po after it, at
 * ws + paged_attn_ws_ml_floats); 0 when partition == 0. */
size_t paged_attn_ws_ml_floats(const paged_attn_args *a);
size_t paged_attn_ws_floats(const paged_attn_args *a);

/* The whole decode step: the attention kernel and, when split, the merge.
 * ws: paged_attn_ws_floats(a) floats (NULL when that is 0). Launches on the
 * default stream without waiting and returns the first error:
 * cudaErrorInvalidValue for a head_dim, group size, block_size or partition
 * it does not take, a max_seq_len past the block table, a scale that is not
 * positive and finite, a NULL or misaligned pointer, a negative size; then
 * nothing is launched. batch == 0 is nothing to do. Nothing outside
 * out[0 .. batch * num_q_heads * head_dim) and the workspace is written. */
cudaError_t paged_attn(const paged_attn_args *a, float *ws);

/* The merge alone, on partials in the workspace layout above: for every
 * (b, h), out = sum_p 2^(m_p - M) po_p / sum_p 2^(m_p - M) l_p over the
 * paged_partitions(seq_lens[b], partition) partitions of b, M = max_p m_p
 * (zeros when b has none). max_partitions is P of the layout. A partition
 * may be empty (m = -inf, l = 0, po = 0): it weighs nothing. Same errors and
 * stream as paged_attn. */
cudaError_t paged_attn_merge(const float *ml, const float *po, const int32_t *seq_lens, uint16_t *out, int batch,
                             int num_q_heads, int head_dim, int max_partitions, int partition);

#ifdef __cplusplus
}
#endif
#endif
