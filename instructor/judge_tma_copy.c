/* judge_tma_copy.c — judge_tma_copy.h: the checks of Phase 5's TMA copies
 * that judge-w53 and judge-w56 share. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_tma_copy.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

const char *jt_status(int s) { return cudaGetErrorName((cudaError_t)s); }

void jt_fit(tma_copy_shape s, int copies, size_t *src, size_t *dst)
{
    size_t ls = tma_round4(s.cols) + s.pad_src, ld = tma_round4(s.cols) + s.pad_dst;
    if (4 * s.rows * ls > *src) *src = 4 * s.rows * ls;
    if (4 * (size_t)copies * s.rows * ld > *dst) *dst = 4 * (size_t)copies * s.rows * ld;
}

int jt_room_open(jd *J, jt_room *R, jd_tally *t)
{
    R->src.id = R->dst.id = -1;
    R->hs = malloc(R->src_cap), R->hd = malloc(R->dst_cap);
    if (!R->hs || !R->hd) return jd_failf(t, "buffers: the judge is out of memory"), -1;
    if (jd_gbuf_alloc(J, &R->src, R->src_cap, t) != 0 || jd_gbuf_alloc(J, &R->dst, R->dst_cap, t) != 0) return -1;
    return 0;
}

void jt_room_close(jd *J, jt_room *R)
{
    jd_gbuf_free(J, &R->src), jd_gbuf_free(J, &R->dst);
    free(R->hs), free(R->hd);
    R->hs = R->hd = NULL;
}

/* A request of c on R's buffers or none (R NULL: the addresses): the scalars. */
static void setup(jd_req *rq, const jt_call *c, size_t ld_src, size_t ld_dst, size_t rows, size_t cols)
{
    jd_call_setup(rq, c->fn, 1, 2); /* p[0], p[1] NULL until an argument is set: the addresses in i64[5], i64[6] */
    rq->i64[1] = (long long)ld_src, rq->i64[2] = (long long)ld_dst, rq->i64[3] = (long long)rows;
    rq->i64[4] = (long long)cols, rq->i64[7] = c->i64_7, rq->f64[0] = c->f64_0;
}

int jt_raw(jd *J, const jt_call *c, uint64_t src, size_t ld_src, uint64_t dst, size_t ld_dst, size_t rows, size_t cols,
           int *status, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    setup(&rq, c, ld_src, ld_dst, rows, cols);
    rq.i64[5] = (long long)src, rq.i64[6] = (long long)dst;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", c->fn_name, J->why), -1;
    *status = rp.status;
    return 0;
}

void jt_empty_host(jd *J, const jt_call *c, jd_tally *t)
{
    int s;
    for (size_t i = 0; i < COUNT(TMA_EMPTY_SHAPES) && !J->lost; i++) {
        t->tests++;
        if (jt_raw(J, c, 0, 3, 0, 5, TMA_EMPTY_SHAPES[i][0], TMA_EMPTY_SHAPES[i][1], &s, t) != 0) return;
        if (s != 0)
            jd_failf(t, "%zu x %zu with NULL pointers: an empty copy is cudaSuccess, got %s", TMA_EMPTY_SHAPES[i][0],
                     TMA_EMPTY_SHAPES[i][1], jt_status(s));
    }
}

int jt_untouched(jt_room *R, size_t bytes, const char *what, jd_tally *t)
{
    int f = jd_gbuf_fetch(&R->dst, 0, bytes, R->hd, "dst", what, t);
    if (f) return f < 0 ? -1 : 0;
    const unsigned char *h = (const unsigned char *)R->hd;
    for (size_t i = 0; i < bytes; i++)
        if (h[i] != 0xFF) return jd_failf(t, "%s: dst was written (byte %zu)", what, i), 0;
    return 0;
}

int jt_poison(jt_room *R, size_t bytes, const char *what, jd_tally *t)
{
    if (jd_gbuf_poison(&R->src, 0, bytes) != 0 || jd_gbuf_poison(&R->dst, 0, bytes) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    return 0;
}

int jt_case(jd *J, jt_room *R, const jt_call *c, wb_rng *rng, tma_copy_shape s, int specials, jd_tally *t)
{
    const size_t ls = tma_round4(s.cols) + s.pad_src, ld = tma_round4(s.cols) + s.pad_dst;
    const size_t ns = s.rows * ls, nd = (size_t)c->copies * s.rows * ld;
    char what[200];
    snprintf(what, sizeof what, "%s: %zu x %zu, ld_src %zu, ld_dst %zu%s", c->label, s.rows, s.cols, ls, ld,
             specials ? ", NaN/Inf/-0/denormals" : "");
    t->tests++;
    if (ns * 4 > R->src_cap || nd * 4 > R->dst_cap) return jd_failf(t, "%s: the judge's buffers are too small", what), -1;
    wb_fill_uniform_f32(rng, (float *)R->hs, ns, -1000, 1000);
    if (specials)
        for (size_t i = 0; i < ns; i++)
            if (wb_rng_int(rng, 0, 3) == 0)
                R->hs[i] = TMA_SPECIAL_BITS[wb_rng_int(rng, 0, (int64_t)COUNT(TMA_SPECIAL_BITS) - 1)];
    if (jd_gbuf_put(&R->src, 0, R->hs, ns * 4) != 0 || jd_gbuf_poison(&R->dst, 0, nd * 4) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    jd_req rq;
    jd_rep rp;
    setup(&rq, c, ls, ld, s.rows, s.cols);
    jd_gbuf_arg(&rq, 0, &R->src, 0);
    jd_gbuf_arg(&rq, 1, &R->dst, 0);
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0) return jd_failf(t, "%s: returned %s", what, rp.status < 0 ? rp.text : jt_status(rp.status)), 0;
    int f = jd_gbuf_fetch(&R->dst, 0, nd * 4, R->hd, "dst", what, t);
    if (f) return f < 0 ? -1 : 0;
    size_t bad = 0, first = 0;
    for (size_t r = 0; r < (size_t)c->copies * s.rows; r++)
        for (size_t k = 0; k < ld; k++) {
            uint32_t want = k < s.cols ? R->hs[(r % s.rows) * ls + k] : 0xFFFFFFFFu;
            if (R->hd[r * ld + k] != want && bad++ == 0) first = r * ld + k;
        }
    if (bad) {
        size_t r = first / ld, k = first % ld;
        uint32_t got = R->hd[first], want = k < s.cols ? R->hs[(r % s.rows) * ls + k] : 0xFFFFFFFFu;
        char copy[32] = "";
        if (c->copies > 1) snprintf(copy, sizeof copy, "copy %zu ", r / s.rows);
        jd_failf(t, "%s: %zu of %zu elements wrong; the first %sdst[%zu][%zu] expected 0x%08x got 0x%08x (%s)", what,
                 bad, nd, copy, r % s.rows, k, want, got,
                 k >= s.cols ? "row padding: nothing may be written there"
                 : got == 0xFFFFFFFFu ? "still the poison: not written"
                                      : "not the source's bits");
    }
    return 0;
}

int jt_empty(jd *J, jt_room *R, const jt_call *c, jd_tally *t)
{
    for (size_t i = 0; i < COUNT(TMA_EMPTY_SHAPES); i++) {
        const size_t rows = TMA_EMPTY_SHAPES[i][0], cols = TMA_EMPTY_SHAPES[i][1];
        char what[64];
        snprintf(what, sizeof what, "%zu x %zu (empty: nothing written)", rows, cols);
        t->tests++;
        if (jd_gbuf_poison(&R->dst, 0, 256) != 0) return jd_failf(t, "%s: the judge's own copies failed", what), -1;
        jd_req rq;
        jd_rep rp;
        setup(&rq, c, 8, 8, rows, cols);
        jd_gbuf_arg(&rq, 0, &R->src, 0);
        jd_gbuf_arg(&rq, 1, &R->dst, 0);
        if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
        if (rp.status != 0) {
            jd_failf(t, "%zu x %zu: an empty copy is cudaSuccess, got %s", rows, cols,
                     rp.status < 0 ? rp.text : jt_status(rp.status));
            continue;
        }
        if (jt_untouched(R, 256, what, t) != 0) return -1;
    }
    return 0;
}

int jt_refused(jd *J, jt_room *R, const jt_call *c, size_t rows, size_t cols, size_t ld_src, size_t ld_dst,
               size_t off_src, size_t off_dst, const char *why, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    setup(&rq, c, ld_src, ld_dst, rows, cols);
    jd_gbuf_arg(&rq, 0, &R->src, 4 * off_src);
    jd_gbuf_arg(&rq, 1, &R->dst, 4 * off_dst);
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", why, J->why), -1;
    if (rp.status == (int)cudaErrorInvalidValue) return 0;
    jd_failf(t, "%s: must be refused with cudaErrorInvalidValue, got %s", why,
             rp.status < 0 ? rp.text : jt_status(rp.status));
    return 1;
}
