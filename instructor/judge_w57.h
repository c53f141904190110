/* judge_w57.h — week 57's judge and its runner agree on the exercise
 * numbers and on each call's arguments. */
#ifndef JUDGE_W57_H
#define JUDGE_W57_H

enum { W57_FN_MERGE = 1, W57_FN_DECODE, W57_FN_WS, W57_FN_DECODE_TIMED };

/* W57_FN_MERGE:  paged_attn_merge: p[0] ml, p[1] po, p[2] seq_lens, p[3] out
 *                (each NULL where the judge sends none); i64[1] batch,
 *                i64[2] num_q_heads, i64[3] head_dim, i64[4] max_partitions,
 *                i64[5] partition.
 * W57_FN_DECODE: paged_attn: p[0] q, p[1] k_cache, p[2] v_cache, p[3] the
 *                block tables with seq_lens f64[3] int32s after their start
 *                (one buffer: a call has at most JD_MAX_ARGS pointers), p[4]
 *                out, p[5] the workspace (NULL where none); i64[1] batch,
 *                i64[2] num_q_heads, i64[3] num_kv_heads, i64[4] head_dim,
 *                i64[5] num_blocks, i64[6] block_size, i64[7]
 *                max_blocks_per_seq; f64[0] scale (as a float), f64[1]
 *                max_seq_len, f64[2] partition, f64[3] seq_lens' offset;
 *                i64[0] 1: paged_attn(NULL, ws) (the NULL arguments case),
 *                2: block_tables NULL, seq_lens still where they were.
 * W57_FN_WS:     the scalars of W57_FN_DECODE (no buffer): out carries two
 *                uint64: paged_attn_ws_floats and paged_attn_ws_ml_floats.
 * W57_FN_DECODE_TIMED: the timed protocol's one input and one output:
 *                p[0] q (batch x num_q_heads x head_dim bf16), then
 *                k_cache, v_cache (num_blocks x num_kv_heads x block_size
 *                x head_dim bf16 each), the block tables (batch x
 *                max_blocks_per_seq int32), seq_lens (batch int32) and the
 *                workspace (floats), one after another, each at a 256-byte
 *                boundary (w57_timed_layout); p[1] out; the scalars as for
 *                W57_FN_DECODE.
 * (A timed request's i64[0] is the judge's: its output length in 4-byte words.) */

#include <stddef.h>

/* The byte offsets of the timed input's parts: q, k, v, tables, lens, ws, end. */
static inline void w57_timed_layout(size_t nq, size_t cache, size_t ntab, size_t batch, size_t wsf, size_t off[7])
{
    const size_t sz[6] = { nq * 2, cache * 2, cache * 2, ntab * 4, batch * 4, wsf * 4 };
    off[0] = 0;
    for (int i = 0; i < 6; i++) off[i + 1] = (off[i] + sz[i] + 255) & ~(size_t)255;
}

#endif
