/* judge_w37.c — build/instructor/judge-w37: week 37's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's attn_io.o and flash_attn.o are linked into the runner
 * (judge_w37_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the guarded
 * buffers, the timed-call protocol are judge_week.c's:
 *
 *   judge-w37 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week37.c's, shared through phase6/week37/w37_checks.h:
 * its IO model's own derivation and grid, its double reference of a row
 * (w37_ref_row), its tolerances (W37_O_ATOL + W37_O_RTOL |ref| for O,
 * W37_HUGE_ATOL near logits of +-1e4; w37_lse_atol and W37_LSE_RTOL for
 * lse), its flash cases and their draws (w37_case_fill), the long head's
 * length; each case drawn as the test draws it for the seed
 * (wb_rng_for_seed with the test's tag):
 *   w37.io           attn_io_naive_bytes and attn_io_flash_bytes on the
 *                    test's grid (S of 0 to 100003, D of 64, 128, 80, bh of
 *                    1, 3, 64, seven tilings, causal or not), each equal to
 *                    the test's own derivation, and -1 for the test's bad
 *                    arguments. CPU functions: judged with or without a GPU
 *                    (the runner then opens none);
 *   w37.flash        flash_attn on the test's 26 cases (S = 0, 1, tile
 *                    edges, odd S, several heads, D 64 and 128, causal or
 *                    not, pointers 1 to 3 floats off, logits near +-1e4, a
 *                    NaN key), q, k, v and the poisoned o and lse each in a
 *                    guarded buffer (jd_gbuf: nothing written outside o and
 *                    lse), every row of every case against the double
 *                    reference (the test samples 192 rows a head of its
 *                    two longest cases), a NaN where one is due written,
 *                    not left the poison; then the test's flash_rejects: D
 *                    of 0, 32, 96, 129 return cudaErrorInvalidValue and
 *                    write nothing;
 *   w37.long         one causal head of D = 64 so long that its S x S
 *                    scores would not fit in the device's memory (the
 *                    test's S, from the device's total memory), q, k, v, o
 *                    and lse in guarded buffers, the test's 24 rows and 40
 *                    more drawn after them (64 rows) against the double
 *                    reference, o and lse;
 *   w37.flash-speed  causal attention, 32 heads of 4096 x 64, scale 1/8, q
 *                    and k uniform in [-2, 2), v in [-1, 1) (the test's
 *                    inputs, from the hidden seed), through the timed-call
 *                    protocol (judge_week.h): 16 calls a request (each
 *                    some milliseconds: the protocol's cost is nothing
 *                    beside them), each on its own Q, K, V (one buffer, one
 *                    after the other) and its own poisoned O and lse (one
 *                    buffer), the judge's look right after the reply (256
 *                    hidden positions of O and lse a call), then every
 *                    element of every timed O and lse checked against the
 *                    judge's double reference (two cublasDgemm a head and
 *                    its own softmax kernel, judge_w37_kernels.cu, on the
 *                    inputs made again from their seeds) at the test's
 *                    tolerances (its speed run checks 24 rows of 3 heads);
 *                    the median of 7 requests. Against the week's given
 *                    attention on cuBLAS (support/yard_cublas_attn.cu: two
 *                    cublasSgemmStridedBatched in FP32, its softmax), timed
 *                    through the same protocol on the same inputs by the
 *                    judge's own yard runner (judge-w37-yard-runner, no
 *                    student object, its own handle and scores buffer),
 *                    its O checked the same way, before the student's
 *                    runner starts and after, the faster kept. The figure:
 *                    TFLOP/s (4 D flops a score a query sees), yours /
 *                    cuBLAS >= 1.50. The test's naive attention row is a
 *                    report with no target: not timed here.
 * Nothing is left to the linked test. Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS (4 of 4; w37.flash-speed 1.53 against 1.39), the starter FAIL (4). Without a GPU
 * the plumbing is tested by instructor/tests/judge_w37.sh (w37.io PASS for
 * the reference and FAIL for the starter; every other checkpoint SKIP,
 * never PASS). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flash_attn.h"
#include "judge.h"
#include "judge_kernels.h"
#include "judge_w37.h"
#include "judge_w37_kernels.h"
#include "judge_week.h"
#include "w37_checks.h"
#include "wb_compare.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

/* ---------------------------------------------------------------- w37.io (CPU) */

/* One CPU function through the runner: 0 and *got, or -1 (t says why). */
static int io_call(jd *J, int fn, const long long *args, int nargs, double *got, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, 0);
    for (int a = 0; a < nargs; a++) rq.i64[1 + a] = args[a];
    t->tests++;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *got) return jd_failf(t, "no answer from the runner"), -1;
    memcpy(got, rp.out, sizeof *got);
    return 0;
}

static void judge_io(jd *J, jd_tally *t)
{
    double got;
    for (int a = 0; a < N_OF(W37_IO_S); a++)
        for (int b = 0; b < N_OF(W37_IO_D); b++)
            for (int h = 0; h < N_OF(W37_IO_BH); h++) {
                const int64_t S = W37_IO_S[a], D = W37_IO_D[b], bh = W37_IO_BH[h];
                long long args[6] = { bh, S, D };
                if (io_call(J, W37_FN_IO_NAIVE, args, 3, &got, t) != 0) return;
                double want = w37_io_naive_ref(bh, S, D);
                if (got != want) {
                    jd_failf(t, "attn_io_naive_bytes(bh=%lld, S=%lld, D=%lld) = %.17g, expected %.17g: count the "
                             "three kernels again (attn_io.h)",
                             (long long)bh, (long long)S, (long long)D, got, want);
                    return;
                }
                for (int k = 0; k < N_OF(W37_IO_TILES); k++)
                    for (int causal = 0; causal < 2; causal++) {
                        const int64_t Br = W37_IO_TILES[k][0], Bc = W37_IO_TILES[k][1];
                        long long fa[6] = { bh, S, D, Br, Bc, causal };
                        if (io_call(J, W37_FN_IO_FLASH, fa, 6, &got, t) != 0) return;
                        want = w37_io_flash_ref(bh, S, D, Br, Bc, causal);
                        if (got != want) {
                            jd_failf(t, "attn_io_flash_bytes(bh=%lld, S=%lld, D=%lld, Br=%lld, Bc=%lld, %s) = %.17g, "
                                     "expected %.17g%s",
                                     (long long)bh, (long long)S, (long long)D, (long long)Br, (long long)Bc,
                                     causal ? "causal" : "non-causal", got, want,
                                     causal ? ": a causal query tile visits the key tiles up to the one holding its "
                                              "last row, and the last tile may be partial"
                                            : ": every query tile (the last may be partial) loads all of K and V");
                            return;
                        }
                    }
            }
    /* the test's bad arguments: -1 */
    static const long long BAD_NAIVE[][3] = { { -1, 8, 64 }, { 1, -8, 64 }, { 1, 8, 0 } };
    for (int i = 0; i < N_OF(BAD_NAIVE); i++) {
        if (io_call(J, W37_FN_IO_NAIVE, BAD_NAIVE[i], 3, &got, t) != 0) return;
        if (got != -1) {
            jd_failf(t, "attn_io_naive_bytes must return -1 for a negative bh or S, or D <= 0");
            return;
        }
    }
    static const long long BAD_FLASH[][6] = {
        { 1, 8, 64, 0, 64, 0 }, { 1, 8, 64, 64, 0, 1 }, { 1, 8, -64, 64, 64, 0 }, { -2, 8, 64, 64, 64, 0 }
    };
    for (int i = 0; i < N_OF(BAD_FLASH); i++) {
        if (io_call(J, W37_FN_IO_FLASH, BAD_FLASH[i], 6, &got, t) != 0) return;
        if (got != -1) {
            jd_failf(t, "attn_io_flash_bytes must return -1 for a negative bh or S, or D, Br, Bc <= 0");
            return;
        }
    }
}

static void judge_io_gpu(jd_ck *k) { judge_io(k->J, k->t); }

/* ---------------------------------------------------------------- row checks */

/* A row of one head. */
typedef struct {
    int h, i;
} rowid;

/* got[e] against want within atol + rtol |want| (wb_close), a due NaN
 * written (not the poison): 0 when right. */
static int close_written(float got, double want, double atol, double rtol)
{
    uint32_t u;
    memcpy(&u, &got, 4);
    return wb_close(got, want, atol, rtol) && !(isnan(want) && u == 0xffffffffu);
}

/* Rows `rows` of o (bh x S x D) and lse (bh x S) against the reference on
 * the host inputs q, k, v (the call's, past their lead): 0, or 1 with t's
 * message. */
static int check_rows(const float *q, const float *k, const float *v, const float *o, const float *lse, int S, int D,
                      double scale, int causal, const rowid *rows, size_t nrows, double atol, double rtol, int huge,
                      const char *what, jd_tally *t)
{
    double *want = malloc((size_t)D * sizeof *want), *s = malloc(((size_t)S + 1) * sizeof *s);
    int bad = 0;
    if (!want || !s) bad = 1, jd_failf(t, "%s: the judge's reference: out of memory", what);
    for (size_t r = 0; r < nrows && !bad; r++) {
        const size_t head = (size_t)rows[r].h * S * D, at = head + (size_t)rows[r].i * D;
        const double wl = w37_ref_row(q + at, k + head, v + head, S, D, scale, causal, rows[r].i, want, s);
        for (int d = 0; d < D && !bad; d++)
            if (!close_written(o[at + d], want[d], atol, rtol)) {
                uint32_t u;
                memcpy(&u, &o[at + d], 4);
                bad = 1;
                jd_failf(t, "%s: first wrong output in head %d, row %d, column %d: o expected %.9g got %.9g%s", what,
                         rows[r].h, rows[r].i, d, want[d], (double)o[at + d],
                         u == 0xffffffffu ? " (never written: still the poison)" : "");
            }
        const float gl = lse[(size_t)rows[r].h * S + rows[r].i];
        if (!bad && !close_written(gl, wl, w37_lse_atol(S, huge), W37_LSE_RTOL)) {
            bad = 1;
            jd_failf(t, "%s: first wrong lse in head %d, row %d (lse[h * S + i] = m + log(l), natural log): expected "
                     "%.9g got %.9g", what, rows[r].h, rows[r].i, wl, (double)gl);
        }
    }
    free(want), free(s);
    return bad;
}

/* ---------------------------------------------------------------- w37.flash */

/* The guarded buffers of a call: q, k, v, o, lse (jd_gbuf: a band each side). */
typedef struct {
    jd_gbuf b[5];
} fa_bufs;

static int fa_alloc(jd *J, fa_bufs *B, size_t in_cap, size_t lse_cap, jd_tally *t)
{
    for (int i = 0; i < 5; i++) B->b[i].id = -1;
    for (int i = 0; i < 5; i++)
        if (jd_gbuf_alloc(J, &B->b[i], i == 4 ? lse_cap : in_cap, t) != 0) return -1;
    return 0;
}

static void fa_free(jd *J, fa_bufs *B)
{
    for (int i = 0; i < 5; i++) jd_gbuf_free(J, &B->b[i]);
}

/* flash_attn on B: q, k, v (n_in floats each from lead floats in, NULL
 * when n_in is 0, as the test's wb_dcopy of no bytes), o (n floats) and lse
 * (nl) poisoned from lead floats in. 0 and *status, or -1 (t says why). */
static int fa_call(jd *J, fa_bufs *B, const float *const in[3], size_t n_in, size_t lead, size_t n, size_t nl, int bh,
                   int S, int D, int causal, double scale, int *status, const char *what, jd_tally *t)
{
    for (int i = 0; i < 3; i++) /* poison past the n_in floats: a read past the input is a NaN, not a stale value */
        if (n_in && (jd_gbuf_poison(&B->b[i], 0, B->b[i].cap) != 0 || jd_gbuf_put(&B->b[i], 0, in[i], n_in * 4) != 0))
            return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    if (jd_gbuf_poison(&B->b[3], lead * 4, n * 4) != 0 || jd_gbuf_poison(&B->b[4], lead * 4, nl * 4) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W37_FN_FLASH, 1, 5);
    for (int i = 0; i < 3; i++) jd_gbuf_arg(&rq, i, n_in ? &B->b[i] : NULL, lead * 4);
    jd_gbuf_arg(&rq, 3, &B->b[3], lead * 4);
    jd_gbuf_arg(&rq, 4, &B->b[4], lead * 4);
    rq.i64[0] = (long long)n, rq.i64[1] = bh, rq.i64[2] = S, rq.i64[3] = D, rq.i64[4] = causal;
    rq.f64[0] = (float)scale; /* the test passes (float)scale */
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    *status = rp.status;
    return 0;
}

/* o and lse read back, the bands and leads checked: 0, or nonzero (t says why). */
static int fa_fetch(fa_bufs *B, size_t lead, size_t n, size_t nl, float *o, float *lse, const char *what, jd_tally *t)
{
    if (jd_gbuf_fetch(&B->b[3], lead * 4, n * 4, o, "o", what, t) != 0) return 1;
    return jd_gbuf_fetch(&B->b[4], lead * 4, nl * 4, lse, "lse", what, t) != 0;
}

/* Case i, drawn as the test's check_flash draws it; every row checked. */
static int flash_case(jd *J, fa_bufs *B, int ci, float *hq, float *hk, float *hv, float *o, float *lse, jd_tally *t)
{
    const w37_case *c = &W37_CASES[ci];
    const int bh = c->bh, S = c->S, D = c->D;
    const size_t n = (size_t)bh * S * D, off = (size_t)c->offset, nl = (size_t)bh * S;
    const double scale = 1.0 / sqrt((double)D);
    wb_rng rng = wb_rng_for_seed(jd_seed, W37_CASES_TAG, ci);
    w37_case_fill(&rng, c, hq, hk, hv);
    char what[200];
    snprintf(what, sizeof what, "bh=%d S=%d D=%d %s%s%s, pointers +%d floats", bh, S, D,
             c->causal ? "causal" : "non-causal",
             c->kind == W37_HUGE_LOGITS ? ", logits near +-1e4 (subtract the running max before exp)" : "",
             c->kind == W37_NAN_KEY ? ", a NaN in one key: the rows that see it are NaN, the others not" : "", c->offset);
    t->tests++;
    const float *in[3] = { hq, hk, hv };
    int st = 0;
    if (fa_call(J, B, in, n + off, off, n, nl, bh, S, D, c->causal, scale, &st, what, t) != 0) return -1;
    if (st != 0)
        return jd_failf(t, "%s: flash_attn returned %s", what,
                        st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st)),
               0;
    if (fa_fetch(B, off, n, nl, o, lse, what, t) != 0) return 0;
    if (n == 0) return 0;
    rowid *rows = malloc(nl * sizeof *rows);
    if (!rows) return jd_failf(t, "%s: out of memory", what), -1;
    for (size_t r = 0; r < nl; r++) rows[r] = (rowid){ (int)(r / (size_t)S), (int)(r % (size_t)S) };
    const int huge = c->kind == W37_HUGE_LOGITS;
    check_rows(hq + off, hk + off, hv + off, o, lse, S, D, scale, c->causal, rows, nl, huge ? W37_HUGE_ATOL : W37_O_ATOL,
               huge ? 0 : W37_O_RTOL, huge, what, t);
    free(rows);
    return 0;
}

/* The test's flash_rejects: D of 0, 32, 96, 129 on S = 70 (inputs of
 * S x 256 floats, uniform in [-1, 1) from seed 7): cudaErrorInvalidValue,
 * and o (S x 256 floats) and lse (S floats) untouched. */
static void flash_rejects(jd *J, fa_bufs *B, float *o, float *lse, jd_tally *t)
{
    static const int BAD_D[] = { 0, 32, 96, 129 };
    const int S = 70;
    const size_t n = (size_t)S * 256;
    float *x = malloc(n * sizeof *x);
    if (!x) {
        jd_failf(t, "buffers: out of memory");
        return;
    }
    for (size_t e = 0; e < n; e++) x[e] = wb_hash_uniform_f32(7, e, -1, 1);
    for (int k = 0; k < N_OF(BAD_D) && !J->lost; k++) {
        char what[80];
        snprintf(what, sizeof what, "flash_attn with D=%d (unsupported)", BAD_D[k]);
        t->tests++;
        const float *in[3] = { x, x, x };
        int st = 0;
        if (fa_call(J, B, in, n, 0, n, S, 1, S, BAD_D[k], 0, 0.1, &st, what, t) != 0) break;
        if (st != cudaErrorInvalidValue) {
            jd_failf(t, "flash_attn with D=%d returned %s; expected cudaErrorInvalidValue", BAD_D[k],
                     st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st));
            break;
        }
        if (fa_fetch(B, 0, n, S, o, lse, what, t) != 0) break;
        if (wb_count_not_byte(o, n * 4, 0xFF) != 0) {
            jd_failf(t, "flash_attn with D=%d wrote its output; an unsupported D must launch nothing", BAD_D[k]);
            break;
        }
        if (wb_count_not_byte(lse, (size_t)S * 4, 0xFF) != 0) {
            jd_failf(t, "flash_attn with D=%d wrote lse; an unsupported D must launch nothing", BAD_D[k]);
            break;
        }
    }
    free(x);
}

static void judge_flash(jd_ck *k)
{
    size_t in_cap = (size_t)70 * 256, lse_cap = 70;
    for (int i = 0; i < N_OF(W37_CASES); i++) {
        const w37_case *c = &W37_CASES[i];
        const size_t n = (size_t)c->bh * c->S * c->D + (size_t)c->offset, nl = (size_t)c->bh * c->S + (size_t)c->offset;
        if (n > in_cap) in_cap = n;
        if (nl > lse_cap) lse_cap = nl;
    }
    fa_bufs B;
    for (int i = 0; i < 5; i++) B.b[i].id = -1;
    float *hq = malloc(in_cap * 4), *hk = malloc(in_cap * 4), *hv = malloc(in_cap * 4), *o = malloc(in_cap * 4),
          *lse = malloc(lse_cap * 4);
    if (!hq || !hk || !hv || !o || !lse) jd_failf(k->t, "buffers: out of memory");
    else if (fa_alloc(k->J, &B, in_cap * 4, lse_cap * 4, k->t) == 0) {
        for (int i = 0; i < N_OF(W37_CASES) && !k->J->lost; i++)
            if (flash_case(k->J, &B, i, hq, hk, hv, o, lse, k->t) < 0) break;
        if (!k->J->lost) flash_rejects(k->J, &B, o, lse, k->t);
    }
    fa_free(k->J, &B);
    free(hq), free(hk), free(hv), free(o), free(lse);
}

/* ---------------------------------------------------------------- w37.long */

#define LONG_ROWS 64 /* the test's 24 rows, then 40 more */

static void judge_long(jd_ck *k)
{
    jd_tally *t = k->t;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        jd_failf(t, "cudaMemGetInfo failed in the judge");
        return;
    }
    const int D = 64;
    const int S = w37_long_S(total_b);
    const size_t n = (size_t)S * D;
    const double scale = 1.0 / sqrt((double)D);
    wb_rng rng = wb_rng_for_seed(jd_seed, W37_LONG_TAG, 0);
    float *q = malloc(n * 4), *kk = malloc(n * 4), *v = malloc(n * 4), *o = malloc(n * 4), *lse = malloc((size_t)S * 4);
    fa_bufs B;
    for (int i = 0; i < 5; i++) B.b[i].id = -1;
    char what[200];
    snprintf(what, sizeof what, "one causal head, S=%d D=%d (its scores would be %.1f GB; the device has %.1f GB)", S, D,
             4.0 * S * (double)S / 1e9, total_b / 1e9);
    t->tests++;
    if (!q || !kk || !v || !o || !lse) {
        jd_failf(t, "%s: out of memory", what);
        goto out;
    }
    wb_fill_uniform_f32(&rng, q, n, -2, 2);
    wb_fill_uniform_f32(&rng, kk, n, -2, 2);
    wb_fill_uniform_f32(&rng, v, n, -1, 1);
    if (fa_alloc(k->J, &B, n * 4, (size_t)S * 4, t) != 0) goto out;
    const float *in[3] = { q, kk, v };
    int st = 0;
    if (fa_call(k->J, &B, in, n, 0, n, (size_t)S, 1, S, D, 1, scale, &st, what, t) != 0) goto out;
    if (st != 0) {
        jd_failf(t, "%s: flash_attn returned %s", what, st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st));
        goto out;
    }
    if (fa_fetch(&B, 0, n, (size_t)S, o, lse, what, t) != 0) goto out;
    rowid rows[LONG_ROWS];
    size_t nr = 0;
    rows[nr++] = (rowid){ 0, 0 }, rows[nr++] = (rowid){ 0, 1 }, rows[nr++] = (rowid){ 0, 64 };
    rows[nr++] = (rowid){ 0, S - 1 }, rows[nr++] = (rowid){ 0, S - 2 };
    while (nr < LONG_ROWS) rows[nr++] = (rowid){ 0, (int)wb_rng_int(&rng, 2, S - 3) };
    if (!check_rows(q, kk, v, o, lse, S, D, scale, 1, rows, nr, W37_O_ATOL, W37_O_RTOL, 0, what, t))
        printf("  %s: %d rows right, with Q, K, V, O and lse only (%.0f MB in all)\n", what, LONG_ROWS,
               (16.0 * (double)n + 4.0 * S) / 1e6);
out:
    fa_free(k->J, &B);
    free(q), free(kk), free(v), free(o), free(lse);
}

/* ---------------------------------------------------------------- w37.flash-speed */

enum { SP_BH = 32, SP_S = 4096, SP_D = 64, SP_CAUSAL = 1 }; /* the test's bench_flash */
#define SP_TIMED 7
#define SP_MAX_K 16
#define SP_CHUNK 4096 /* query rows of the reference's scores at a time */

/* The seed of part p (0 Q, 1 K, 2 V) of a rep's input, and its range (the test's attn_fill). */
static unsigned long long part_seed(unsigned long long seed, int p) { return jd_mix(seed ^ (0x3700ull + (unsigned)p)); }
static const float PART_LO[3] = { -2, -2, -1 }, PART_HI[3] = { 2, 2, 1 };

static void attn_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    for (int p = 0; p < 3; p++) wb_dfill_uniform_f32((float *)in + (size_t)p * b->n, b->n, part_seed(seed, p), PART_LO[p], PART_HI[p]);
}

/* The judge's double reference of one rep's inputs (made again from its
 * seed): Q, K, V, O and lse in double, the scores of SP_CHUNK query rows;
 * the last seed computed kept. */
static struct {
    cublasHandle_t      h;
    double             *q, *k, *v, *o, *lse, *sc, *at_d;
    unsigned long long *idx_d, *bad2;
    size_t              n, nl, nsc;
    unsigned long long  seed;
    int                 have; /* o and lse hold seed's reference */
    unsigned long long  at_seed, at_idx[JD_SAMPLES]; /* the gathered values' rep and positions */
    int                 at_ok;
    double              at_h[JD_SAMPLES];
} g_ref;

static int ref_room(size_t n, size_t nl, size_t nsc)
{
    if (!g_ref.h) {
        if (cublasCreate(&g_ref.h) != CUBLAS_STATUS_SUCCESS) return g_ref.h = NULL, -1;
        if (cublasSetMathMode(g_ref.h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS ||
            cublasSetStream(g_ref.h, jd_stream) != CUBLAS_STATUS_SUCCESS)
            return -1;
    }
    if (g_ref.n == n && g_ref.nl == nl && g_ref.nsc == nsc) return 0;
    double **p[5] = { &g_ref.q, &g_ref.k, &g_ref.v, &g_ref.o, &g_ref.lse };
    for (int i = 0; i < 5; i++)
        if (*p[i]) cudaFree(*p[i]), *p[i] = NULL;
    if (g_ref.sc) cudaFree(g_ref.sc), g_ref.sc = NULL;
    g_ref.n = g_ref.nl = g_ref.nsc = 0, g_ref.have = 0, g_ref.at_ok = 0;
    for (int i = 0; i < 5; i++)
        if (cudaMalloc((void **)p[i], (i == 4 ? nl : n) * sizeof(double)) != cudaSuccess) return -1;
    if (cudaMalloc((void **)&g_ref.sc, nsc * sizeof(double)) != cudaSuccess) return -1;
    if ((!g_ref.at_d && cudaMalloc((void **)&g_ref.at_d, JD_SAMPLES * sizeof(double)) != cudaSuccess) ||
        (!g_ref.idx_d && cudaMalloc((void **)&g_ref.idx_d, JD_SAMPLES * sizeof(unsigned long long)) != cudaSuccess) ||
        (!g_ref.bad2 && cudaMalloc((void **)&g_ref.bad2, 2 * sizeof(unsigned long long)) != cudaSuccess))
        return -1;
    g_ref.n = n, g_ref.nl = nl, g_ref.nsc = nsc;
    return 0;
}

/* O and lse in double for the rep whose input came from seed: per head and
 * chunk of query rows, scores = scale Q K^T (cublasDgemm), the row softmax
 * with the mask and lse (jd_w37_softmax_f64), O = P V (cublasDgemm). On
 * jd_stream, waited for. 0, or -1. */
static int ref_compute(const jd_bench *b, unsigned long long seed)
{
    const int bh = (int)b->i64[1], S = (int)b->i64[2], D = (int)b->i64[3], causal = (int)b->i64[4];
    const int R = S < SP_CHUNK ? S : SP_CHUNK;
    const size_t n = b->n, nl = (size_t)bh * S;
    if (ref_room(n, nl, (size_t)R * S) != 0) return -1;
    if (g_ref.have && g_ref.seed == seed) return 0;
    g_ref.have = 0;
    double *in[3] = { g_ref.q, g_ref.k, g_ref.v };
    for (int p = 0; p < 3; p++)
        if (jd_hash_fill_f64(in[p], n, part_seed(seed, p), PART_LO[p], PART_HI[p], jd_stream) != cudaSuccess) return -1;
    const double scale = (float)b->f64[0], one = 1.0, zero = 0.0; /* the scale the call got */
    for (int h = 0; h < bh; h++) {
        const size_t hd = (size_t)h * S * D;
        for (int r0 = 0; r0 < S; r0 += R) {
            const int rows = S - r0 < R ? S - r0 : R, kv = causal ? r0 + rows : S;
            if (cublasDgemm(g_ref.h, CUBLAS_OP_T, CUBLAS_OP_N, kv, rows, D, &scale, g_ref.k + hd, D,
                            g_ref.q + hd + (size_t)r0 * D, D, &zero, g_ref.sc, kv) != CUBLAS_STATUS_SUCCESS ||
                jd_w37_softmax_f64(g_ref.sc, rows, kv, r0, causal, g_ref.lse + (size_t)h * S + r0, jd_stream) !=
                    cudaSuccess ||
                cublasDgemm(g_ref.h, CUBLAS_OP_N, CUBLAS_OP_N, D, rows, kv, &one, g_ref.v + hd, D, g_ref.sc, kv, &zero,
                            g_ref.o + hd + (size_t)r0 * D, D) != CUBLAS_STATUS_SUCCESS)
                return -1;
        }
    }
    if (cudaStreamSynchronize(jd_stream) != cudaSuccess) return -1;
    g_ref.seed = seed, g_ref.have = 1;
    return 0;
}

/* The look's expected value at position i of a rep's output (O, then lse):
 * the rep's reference computed once, its JD_SAMPLES positions gathered.
 * Kept by the rep's seed and the positions themselves: the yardstick's runs
 * and the student's share the seeds and the look's draws (jd_secret), but
 * not the output's length, so not the positions. */
static float attn_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    if (!g_ref.at_ok || g_ref.at_seed != seed[0] || memcmp(g_ref.at_idx, b->idx_h, sizeof g_ref.at_idx) != 0 ||
        !g_ref.have || g_ref.seed != seed[0]) {
        g_ref.at_ok = 0;
        if (ref_compute(b, seed[0]) != 0 ||
            cudaMemcpyAsync(g_ref.idx_d, b->idx_h, sizeof b->idx_h, cudaMemcpyHostToDevice, jd_stream) != cudaSuccess ||
            jd_w37_gather_f64(g_ref.o, b->n, g_ref.lse, g_ref.idx_d, JD_SAMPLES, g_ref.at_d, jd_stream) != cudaSuccess ||
            cudaMemcpyAsync(g_ref.at_h, g_ref.at_d, sizeof g_ref.at_h, cudaMemcpyDeviceToHost, jd_stream) != cudaSuccess ||
            cudaStreamSynchronize(jd_stream) != cudaSuccess)
            return NAN; /* the look then fails: no figure from an unchecked run */
        g_ref.at_seed = seed[0], g_ref.at_ok = 1;
        memcpy(g_ref.at_idx, b->idx_h, sizeof g_ref.at_idx);
    }
    for (int j = 0; j < JD_SAMPLES; j++)
        if (b->idx_h[j] == i) return (float)g_ref.at_h[j];
    return NAN;
}

/* Every element of a rep's O (and lse, where the output has it) against the
 * reference: O at W37_O_ATOL + W37_O_RTOL |ref|, lse at w37_lse_atol(S) +
 * W37_LSE_RTOL |ref| (w37_checks.h, the test's). */
static int attn_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    const size_t n = b->n, nl = (b->out_n > n ? b->out_n - n : 0);
    if (ref_compute(b, seed[0]) != 0) return -1;
    if (jd_full_check_done(jd_prefix_check_f32(out, g_ref.o, n, W37_O_ATOL, W37_O_RTOL, bad, jd_stream), bad, h) != 0) return -1;
    if (!nl) return 0;
    unsigned long long h2[2];
    if (jd_full_check_done(jd_prefix_check_f32(out + n, g_ref.lse, nl, w37_lse_atol((int)b->i64[2], 0), W37_LSE_RTOL, g_ref.bad2,
                                               jd_stream),
                           g_ref.bad2, h2) != 0)
        return -1;
    if (h2[0] && !h[0]) h[1] = n + h2[1];
    h[0] += h2[0];
    return 0;
}

/* The timed call of exercise fn (the student's, with lse, or the yard
 * runner's cuBLAS, O alone) on the test's checkpoint shape. */
static void attn_bench(jd_bench *x, int fn, const char *fn_name, int with_lse)
{
    memset(x, 0, sizeof *x);
    x->fn = fn, x->n_in = 1, x->max_k = SP_MAX_K;
    x->n = (size_t)SP_BH * SP_S * SP_D;
    x->in_bytes = 3 * x->n * 4;
    x->out_n = x->n + (with_lse ? (size_t)SP_BH * SP_S : 0);
    x->fill = attn_fill, x->lo = -2, x->hi = 2;
    x->atol = W37_O_ATOL, x->rtol = W37_O_RTOL; /* the look's; the full check holds lse to its own */
    x->i64[1] = SP_BH, x->i64[2] = SP_S, x->i64[3] = SP_D, x->i64[4] = SP_CAUSAL;
    x->f64[0] = (float)(1.0 / sqrt((double)SP_D));
    x->expect = attn_expect, x->full_check = attn_check;
    x->fn_name = fn_name, x->out_name = with_lse ? "out (O, then lse)" : "O";
}

/* Useful flops a call: 4 D a score a query sees (QK^T and PV), the test's count. */
static double sp_tflop(double ms)
{
    const double seen = SP_CAUSAL ? (double)SP_S * (SP_S + 1) / 2 : (double)SP_S * SP_S;
    return 4.0 * SP_D * seen * SP_BH / (ms * 1e-3) / 1e12;
}

static jd_bench g_bench, g_yard_b; /* large: their sample arrays */
static double   g_cublas_before = NAN;
static char     g_cublas_before_why[600] = "not timed";

static void cublas_before(void)
{
    attn_bench(&g_yard_b, W37_YARD_CUBLAS, "yard_attn_cublas", 0);
    if (jd_yard_bench(W37_YARD_RUNNER, &g_yard_b, SP_TIMED, &g_cublas_before, g_cublas_before_why,
                      sizeof g_cublas_before_why) != 0)
        g_cublas_before = NAN;
}

static void judge_speed(jd_ck *k)
{
    double ms = NAN, value = NAN, yard = NAN;
    char why[700] = "", ywhy[600] = "", detail[240] = "";
    attn_bench(&g_bench, W37_FN_FLASH_PACKED, "flash_attn", 1);
    if (jd_bench_run(k->J, &g_bench, SP_TIMED, &ms, why, sizeof why) == 0) {
        double after = NAN;
        attn_bench(&g_yard_b, W37_YARD_CUBLAS, "yard_attn_cublas", 0);
        const double yms = jd_yard_faster(W37_YARD_RUNNER, &g_yard_b, SP_TIMED, g_cublas_before, g_cublas_before_why,
                                          &after, ywhy, sizeof ywhy);
        if (!(yms > 0)) {
            snprintf(why, sizeof why, "the cuBLAS yardstick's output was wrong or it failed: no ratio (%s)", ywhy);
        } else {
            value = sp_tflop(ms), yard = sp_tflop(yms);
            snprintf(detail, sizeof detail, "%.3g TFLOP/s vs cuBLAS FP32 attention %.3g, bh=%d S=%d D=%d causal "
                     "(judge's clock, %d calls a request, median of %d)", value, yard, SP_BH, SP_S, SP_D, g_bench.k,
                     SP_TIMED);
            printf("  flash_attn: %.3f ms a call by the judge's clock (%.3f by the runner's own); cuBLAS %.3f "
                   "(before the runner %.3f, after %.3f): %.3f of it\n",
                   ms, g_bench.runner_ms, yms, g_cublas_before, after, value / yard);
        }
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "TFLOP/s", "cuBLAS", yard, detail, why);
}

static const jd_checkpoint CPS[] = {
    { "w37.io", judge_io_gpu, judge_io, 1, 0, NULL },
    { "w37.flash", judge_flash, NULL, 0, 0, NULL },
    { "w37.long", judge_long, NULL, 0, 0, NULL },
    { "w37.flash-speed", judge_speed, NULL, 0, 0, cublas_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w37", "phase6/week37", CPS, N_OF(CPS));
}
