/* judge_w57_runner.c — week 57's runner (instructor/judge.h): this main,
 * judge_runner.c and the student's paged_attn.o, nothing that writes a
 * record. Each entry calls one function of the week's API on what the judge
 * sent (judge_w57.h); judge_w57.c holds every check. */
#include <stdint.h>
#include <string.h>

#include "judge.h"
#include "judge_w57.h"
#include "paged_attn.h"

/* p[0] ml, p[1] po, p[2] seq_lens, p[3] out; i64[1..5] batch heads D max_partitions partition;
 * an error the call returned is cleared after it, as the test's decode_args clears it */
static int merge(const jr_args *a)
{
    cudaError_t e = paged_attn_merge((const float *)a->p[0], (const float *)a->p[1], (const int32_t *)a->p[2],
                                     (uint16_t *)a->p[3], (int)a->i64[1], (int)a->i64[2], (int)a->i64[3],
                                     (int)a->i64[4], (int)a->i64[5]);
    if (e != cudaSuccess) cudaGetLastError();
    return (int)e;
}

static paged_attn_args args_of(const jr_args *a, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                               const int32_t *tab, const int32_t *lens, uint16_t *out)
{
    paged_attn_args r = { q, k, v, tab, lens, out, (int)a->i64[1], (int)a->i64[2], (int)a->i64[3], (int)a->i64[4],
                          (int)a->i64[5], (int)a->i64[6], (int)a->i64[7], (int)a->f64[1], (int)a->f64[2],
                          (float)a->f64[0] };
    return r;
}

/* p[0] q, p[1] k, p[2] v, p[3] tables (seq_lens f64[3] int32s in), p[4] out, p[5] ws; i64[0] 1: the
 * arguments NULL, 2: block_tables NULL (seq_lens where they were) */
static int decode(const jr_args *a)
{
    const int32_t *tab = (const int32_t *)a->p[3], *lens = tab ? tab + (size_t)a->f64[3] : NULL;
    if (a->i64[0] == 2) tab = NULL; /* block_tables NULL, seq_lens still there */
    paged_attn_args pa = args_of(a, (const uint16_t *)a->p[0], (const uint16_t *)a->p[1], (const uint16_t *)a->p[2],
                                 tab, lens, (uint16_t *)a->p[4]);
    cudaError_t e = paged_attn(a->i64[0] == 1 ? NULL : &pa, (float *)a->p[5]);
    if (e != cudaSuccess) cudaGetLastError();
    return (int)e;
}

/* the scalars of decode: paged_attn_ws_floats and paged_attn_ws_ml_floats into out */
static int ws(const jr_args *a)
{
    paged_attn_args pa = args_of(a, NULL, NULL, NULL, NULL, NULL, NULL);
    const uint64_t w[2] = { paged_attn_ws_floats(&pa), paged_attn_ws_ml_floats(&pa) };
    memcpy(a->out, w, sizeof w), *a->out_len = sizeof w;
    return 0;
}

/* p[0] q | k | v | tables | lens | ws (w57_timed_layout), p[1] out */
static int decode_timed(const jr_args *a)
{
    const size_t batch = (size_t)a->i64[1], nq = batch * (size_t)a->i64[2] * (size_t)a->i64[4];
    const size_t cache = (size_t)a->i64[5] * (size_t)a->i64[3] * (size_t)a->i64[6] * (size_t)a->i64[4];
    paged_attn_args pa = args_of(a, NULL, NULL, NULL, NULL, NULL, NULL);
    const size_t wsf = paged_attn_ws_floats(&pa);
    size_t off[7];
    w57_timed_layout(nq, cache, batch * (size_t)a->i64[7], batch, wsf, off);
    unsigned char *in = (unsigned char *)a->p[0];
    pa = args_of(a, (const uint16_t *)(in + off[0]), (const uint16_t *)(in + off[1]), (const uint16_t *)(in + off[2]),
                 (const int32_t *)(in + off[3]), (const int32_t *)(in + off[4]), (uint16_t *)a->p[1]);
    return (int)paged_attn(&pa, wsf ? (float *)(in + off[5]) : NULL);
}

JR_MAIN({ W57_FN_MERGE, "paged_attn_merge", merge }, { W57_FN_DECODE, "paged_attn", decode },
        { W57_FN_WS, "paged_attn_ws_floats", ws }, { W57_FN_DECODE_TIMED, "paged_attn", decode_timed })
