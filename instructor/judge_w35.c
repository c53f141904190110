/* judge_w35.c — build/instructor/judge-w35: week 35's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (no JUDGED_WEEKS line, no
 * JUDGES row: the grader grades the week with its linked test until this
 * has run on a GPU; README.md's week 35 entry has the commands). It links
 * no student code: the student's philox.o and dropout.o are linked into the
 * runner (judge_w35_runner.c), which this process starts (or is handed) and
 * asks to call them on buffers it allocated (judge.h). It poisons, fills,
 * times and checks, and writes the results record itself, outside the
 * runner's reach. The command line, the runner's start, the record, the
 * guarded buffers, the timed-call protocol and the COPY yardstick are
 * judge_week.c's:
 *
 *   judge-w35 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week35.c's, shared through phase6/week35/w35_checks.h
 * (the known answers and curand's words, the case lists: shapes, alignment
 * mixes, probabilities; the y check w35_y_ok: one ulp of y plus one ulp of
 * the scaled term, NaN and Inf passed through where kept, the residual
 * exactly where dropped, a mask byte 0 or 1); each case's seed, offset and
 * inputs are drawn from the hidden seed (wb_rng_for_seed with a tag of this
 * judge's), not as the test draws them, and no message shows a dropout seed
 * or offset (shown_draw). The judge has its own model of the mask (judge_w35_philox.h:
 * Philox4x32-10, curand_uniform's map, the keep of dropout.h), which it
 * checks against Random123's known answers and the test's table of curand's
 * words before it judges anything with it. Every GPU output is in a guarded
 * buffer (jd_gbuf: a poisoned band each side, the misaligned lead
 * included), fetched by the judge and checked in full, nothing written
 * outside it:
 *   w35.philox        philox4x32_10 on the test's 3 known answers and 32
 *                     blocks of random counter and key against the model;
 *                     philox_uniform bit for bit on the test's 9 words and
 *                     64 random ones (0 < u, u(0xffffffff) = 1);
 *                     philox_dropout_keep_host on the test's 12 (seed,
 *                     offset, i) words and 64 random ones (i up to 2^40,
 *                     offset up to 2^62), each at p just below its uniform
 *                     (keep), at it (drop), 0 (keep) and 1 (drop). CPU
 *                     functions: the runner calls them on the scalars sent
 *                     and returns what they gave; judged with or without a
 *                     GPU (the runner then opens none);
 *   w35.dropout       the test's 18 shapes (0 x 7 to 1 x 1048576, 70000 x 8,
 *                     2 x 300001) at p of 0.1, 0.5, 0.9, 0, 1, 0.25, its 10
 *                     alignment mixes (rows 1..300, cols 4 x 1..300, p 0.3;
 *                     x, bias, residual, y 0..3 floats in, the mask 0..4
 *                     bytes in), its NaN / +-Inf / +-1e4 inputs on the
 *                     float4 (64 x 1024) and scalar (64 x 1001) shapes: y
 *                     against the mask the kernel wrote (w35_y_ok), the
 *                     status cudaSuccess; its 5 invalid p (-0.1, 1.5, NaN,
 *                     -Inf, Inf): cudaErrorInvalidValue and not a byte of y
 *                     or the mask written; and its run past 2^31 elements
 *                     (hidden 4096, 2^31 + 3 x 4096 elements, 28 GB; at
 *                     2^28 + 3 x 4096 when that is not free, and SKIP where
 *                     WB_GPU_SHARED=1 as the test's wb_device_room does),
 *                     the inputs filled on the device from the hidden seed,
 *                     y checked against the mask over the test's ranges
 *                     (the first 2^20 elements, the 2^21 before 2^31 and
 *                     everything after, 1024 random groups of four) and
 *                     their keep rate within 6 sigma. The test also clears
 *                     the CUDA error after an invalid p; here the runner
 *                     synchronises after every call and a late error is the
 *                     status of a call that returned success;
 *   w35.mask-model    the test's 8 cases (1 x 1 to 129 x 1000, one mask 1
 *                     byte in, one offset past 2^32): every mask byte
 *                     against the judge's model (the test compares with the
 *                     student's philox_dropout_keep_host, which w35.philox
 *                     holds to the same model), y against the mask;
 *   w35.mask-stats    the test's 6 cases (2051 x 4096 at p = 0, 0.1, 0.5,
 *                     0.9, 1, and 2051 x 4095 misaligned at 0.3): the keep
 *                     rate overall, per lane of four, of neighbour pairs,
 *                     and the agreement of rows 2j and 2j + 1, each within
 *                     6 sigma + 1 of its binomial; p = 0 keeps all, p = 1
 *                     drops all; y against the mask;
 *   w35.deterministic the test's 3 cases (96 x 1000, 64 x 4096, 3 x 7): the
 *                     same call twice more gives y and the mask bit for bit;
 *                     the same data as rows/2 x 2 cols and as one row (the
 *                     bias repeated) and with every pointer misaligned gives
 *                     the same mask; seed + 1 and offset + 1 change about
 *                     2p(1 - p) of it (6 sigma). Every y and mask compared
 *                     is one the judge fetched from its own guarded buffers
 *                     after the call, never what the runner reports;
 *   w35.dropout-bw    the fused kernel at hidden 4096, p = 0.1, x of
 *                     wb_bench_bytes() (rows = that / 4 / 4096), timed
 *                     through the protocol (judge_week.h): K calls a request
 *                     (as many as half the free memory holds, at most 64),
 *                     each on its own input (x, then the residual, then the
 *                     bias) and its own output (y, then the mask), fresh
 *                     inputs from the hidden seed before every request (x
 *                     U(-4, 4), bias and residual U(-1, 1) as the test's),
 *                     and the dropout seed and offset drawn afresh each
 *                     request (the test's are fixed: here an answer computed
 *                     between the fill and the request is wrong); a poisoned
 *                     output, the judge's look after the reply (y from the
 *                     model's mask at the test's 4e-6 + 4e-7 |ref|) and
 *                     every element of every output checked by the judge's
 *                     kernel (judge_w35_kernels.cu: the mask equal to the
 *                     model, which dropout.h defines, and y within w35_y_ok's
 *                     bound; the test checks the timed mask's keep rate and
 *                     y at 65536 samples against it: the judge's check is
 *                     stricter, a mask the model does not give fails here
 *                     too); the median of 7 requests. GB/s of the test's
 *                     bytes (13 an element and the bias) against COPY
 *                     through the same protocol (jd_copy_yard, x's size
 *                     read and written), the target for this GPU from
 *                     week.txt.
 * Every checkpoint of week 35 is formed here: none is left to the linked
 * test. Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS (6 of 6; w35.dropout-bw 1.02 of COPY against 0.85), the starter FAIL (6). Without a GPU the plumbing is tested by
 * instructor/tests/judge_w35.sh (w35.philox PASS for the reference and FAIL
 * for the starter; every other checkpoint SKIP, never PASS). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "judge_w35.h"
#include "judge_w35_kernels.h"
#include "judge_w35_philox.h"
#include "judge_week.h"
#include "w35_checks.h"
#include "wb_bench.h"
#include "wb_cuda.h"
#include "wb_rand.h"

#define TIMED 7
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* ---------------------------------------------------------------- the model */

/* The word of element i (seed, offset) under the model. */
static uint32_t model_word(unsigned long long seed, unsigned long long offset, unsigned long long i)
{
    uint32_t w[4];
    jd35_group(seed, offset, i / 4, w);
    return w[i % 4];
}

/* 1 when the judge's model gives the known answers, else 0 with t failed. */
static int model_ok(jd_tally *t)
{
    for (size_t k = 0; k < COUNT(W35_KAT); k++) {
        uint32_t out[4];
        jd35_philox(W35_KAT[k].ctr, W35_KAT[k].key, out);
        if (memcmp(out, W35_KAT[k].out, sizeof out) != 0)
            return jd_failf(t, "the judge's own Philox model misses known answer %zu: the judge is broken", k), 0;
    }
    for (size_t k = 0; k < COUNT(W35_WORDS); k++)
        if (model_word(W35_WORDS[k].seed, W35_WORDS[k].offset, W35_WORDS[k].i) != W35_WORDS[k].word)
            return jd_failf(t, "the judge's own Philox model misses curand's word %zu: the judge is broken", k), 0;
    if (!(jd35_uniform(0) > 0.0f) || jd35_uniform(0xffffffffu) != 1.0f)
        return jd_failf(t, "the judge's own uniform map is wrong: the judge is broken"), 0;
    return 1;
}

/* ---------------------------------------------------------------- w35.philox (CPU) */

/* One call of a CPU function on scalars: 0 with its reply's len bytes in
 * out, or -1 with t failed. */
static int cpu_call(jd *J, int fn, const long long *i64, int ni, double f, void *out, unsigned len, const char *what,
                    jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, 0);
    for (int k = 0; k < ni; k++) rq.i64[k] = i64[k];
    rq.f64[0] = f;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != 0 || rp.out_len != len)
        return jd_failf(t, "%s: the runner could not call it (%s)", what, rp.text), -1;
    memcpy(out, rp.out, len);
    return 0;
}

/* philox4x32_10 on ctr and key, against want. 0 (checked), -1 (runner lost). */
static int check_block(jd *J, const uint32_t ctr[4], const uint32_t key[2], const uint32_t want[4], jd_tally *t)
{
    const long long a[6] = { ctr[0], ctr[1], ctr[2], ctr[3], key[0], key[1] };
    uint32_t out[4];
    char what[160];
    snprintf(what, sizeof what, "philox4x32_10(ctr %08x %08x %08x %08x, key %08x %08x)", ctr[0], ctr[1], ctr[2], ctr[3],
             key[0], key[1]);
    t->tests++;
    if (cpu_call(J, W35_FN_PHILOX, a, 6, 0, out, sizeof out, what, t) != 0) return -1;
    if (memcmp(out, want, sizeof out) != 0)
        jd_failf(t, "%s gave %08x %08x %08x %08x, expected %08x %08x %08x %08x", what, out[0], out[1], out[2], out[3],
                 want[0], want[1], want[2], want[3]);
    return 0;
}

static int check_uniform(jd *J, uint32_t x, jd_tally *t)
{
    const long long a[1] = { x };
    float got, want = jd35_uniform(x);
    char what[80];
    snprintf(what, sizeof what, "philox_uniform(0x%08x)", x);
    t->tests++;
    if (cpu_call(J, W35_FN_UNIFORM, a, 1, 0, &got, sizeof got, what, t) != 0) return -1;
    if (memcmp(&got, &want, sizeof got) != 0)
        jd_failf(t, "%s = %.9g, expected %.9g (x * 2^-32 + 2^-33 in float)", what, (double)got, (double)want);
    return 0;
}

/* philox_dropout_keep_host(seed, offset, i, p) for p just below element i's
 * uniform (keep), at it (drop), 0 (keep) and 1 (drop). */
static int check_keep(jd *J, unsigned long long seed, unsigned long long offset, unsigned long long i, jd_tally *t)
{
    const uint32_t word = model_word(seed, offset, i);
    const float u = jd35_uniform(word), below = nextafterf(u, 0.0f);
    const struct { float p; int want; } ps[] = { { below, 1 }, { u, 0 }, { 0.0f, 1 }, { 1.0f, 0 } };
    for (size_t k = 0; k < COUNT(ps); k++) {
        const long long a[3] = { (long long)seed, (long long)offset, (long long)i };
        char what[200];
        int got;
        snprintf(what, sizeof what, "philox_dropout_keep_host(seed 0x%llx, offset 0x%llx, i %llu, p %.9g)", seed,
                 offset, i, (double)ps[k].p);
        t->tests++;
        if (cpu_call(J, W35_FN_KEEP, a, 3, (double)ps[k].p, &got, sizeof got, what, t) != 0) return -1;
        if (got != ps[k].want) {
            jd_failf(t, "%s = %d, expected %d: element i's word is 0x%08x (uniform %.9g), word %llu of group %llu", what,
                     got, ps[k].want, word, (double)u, i % 4, i / 4);
            return 0;
        }
    }
    return 0;
}

/* A random 64-bit value for a case that a message shows or the runner is
 * sent (a dropout seed): one draw of the generator would give the hidden
 * seed away (xoshiro's output and its splitmix seeding invert), so two are
 * mixed. */
static uint64_t shown_draw(wb_rng *rng)
{
    const uint64_t a = wb_rng_u64(rng);
    return a ^ jd_mix(wb_rng_u64(rng));
}

static void judge_philox(jd *J, jd_tally *t)
{
    if (!model_ok(t)) return;
    int rc = 0;
    for (size_t k = 0; k < COUNT(W35_KAT) && rc == 0; k++)
        rc = check_block(J, W35_KAT[k].ctr, W35_KAT[k].key, W35_KAT[k].out, t);
    wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-philox", 0);
    for (int k = 0; k < 32 && rc == 0; k++) {
        uint32_t ctr[4], key[2], want[4];
        for (int j = 0; j < 4; j++) ctr[j] = (uint32_t)shown_draw(&rng);
        key[0] = (uint32_t)shown_draw(&rng), key[1] = (uint32_t)shown_draw(&rng);
        jd35_philox(ctr, key, want);
        rc = check_block(J, ctr, key, want, t);
    }
    for (size_t k = 0; k < COUNT(W35_UNIFORM_XS) && rc == 0; k++) rc = check_uniform(J, W35_UNIFORM_XS[k], t);
    for (int k = 0; k < 64 && rc == 0; k++) rc = check_uniform(J, (uint32_t)shown_draw(&rng), t);
    for (size_t k = 0; k < COUNT(W35_WORDS) && rc == 0; k++)
        rc = check_keep(J, W35_WORDS[k].seed, W35_WORDS[k].offset, W35_WORDS[k].i, t);
    for (int k = 0; k < 64 && rc == 0; k++) {
        unsigned long long seed = shown_draw(&rng), offset = shown_draw(&rng) >> 2, i = shown_draw(&rng) >> 24;
        rc = check_keep(J, seed, offset, i, t);
    }
}

static void judge_philox_gpu(jd_ck *k) { judge_philox(k->J, k->t); }

/* ---------------------------------------------------------------- y against the mask */

/* Host inputs of a case: x in [-4, 4], bias and residual in [-1, 1] (the test's). */
typedef struct {
    float *x, *b, *r;
    size_t n, nb;
} inputs;

static size_t elems(int rows, int cols) { return rows > 0 && cols > 0 ? (size_t)rows * (size_t)cols : 0; }

static int make_inputs(wb_rng *rng, int rows, int cols, inputs *in, jd_tally *t)
{
    in->n = elems(rows, cols), in->nb = cols > 0 ? (size_t)cols : 0;
    in->x = malloc(in->n * 4 + 4), in->b = malloc(in->nb * 4 + 4), in->r = malloc(in->n * 4 + 4);
    if (!in->x || !in->b || !in->r) return jd_failf(t, "buffers: out of memory"), -1;
    wb_fill_uniform_f32(rng, in->x, in->n, -4, 4);
    wb_fill_uniform_f32(rng, in->b, in->nb, -1, 1);
    wb_fill_uniform_f32(rng, in->r, in->n, -1, 1);
    return 0;
}

static void free_inputs(inputs *in) { free(in->x), free(in->b), free(in->r), in->x = in->b = in->r = NULL; }

/* y against the mask; the number of wrong elements, the first in msg. */
static size_t check_y(const inputs *in, int cols, float p, const float *y, const uint8_t *m, char *msg, size_t size)
{
    const float scale = w35_scale(p);
    size_t bad = 0;
    for (size_t i = 0, col = 0; i < in->n; i++, col = col + 1 == (size_t)cols ? 0 : col + 1) {
        double want;
        if (!w35_y_ok(in->x[i], in->b[col], in->r[i], scale, y[i], m[i], &want) && bad++ == 0)
            snprintf(msg, size,
                     "element %zu (row %zu, col %zu): mask %u, x %.9g, bias %.9g, residual %.9g: y %.9g, expected %.9g%s",
                     i, i / (size_t)cols, col, m[i], (double)in->x[i], (double)in->b[col], (double)in->r[i],
                     (double)y[i], want,
                     m[i] > 1 ? " (a mask byte must be 0 or 1)" : m[i] ? " (kept: r + (x + bias) * scale)" : " (dropped: y = r)");
    }
    return bad;
}

/* ---------------------------------------------------------------- guarded cases */

/* A case: shape, p, seed, offset; the inputs start ox, ob, orr floats into
 * their buffers, y oy floats and the mask om bytes in (the test's dcase). */
typedef struct {
    int                rows, cols;
    float              p;
    unsigned long long seed, offset;
    size_t             ox, ob, orr, oy, om;
} dcase;

/* The case in words. Its dropout seed and offset are draws from the
 * hidden seed, which one draw would give away: never printed. */
static void describe(const dcase *c, char *what, size_t size)
{
    snprintf(what, size, "rows=%d cols=%d p=%g (seed and offset drawn afresh), x+%zu bias+%zu r+%zu y+%zu mask+%zu",
             c->rows, c->cols, (double)c->p, c->ox, c->ob, c->orr, c->oy, c->om);
}

#define LEAD_MAX 4 /* floats (bytes for the mask) of lead at most */

/* Guarded buffers for every case of a checkpoint, and host room for y and the mask. */
typedef struct {
    jd_gbuf  x, b, r, y, m;
    float   *hy;
    uint8_t *hm;
} w35_bufs;

static void bufs_free(jd *J, w35_bufs *B)
{
    jd_gbuf_free(J, &B->x), jd_gbuf_free(J, &B->b), jd_gbuf_free(J, &B->r), jd_gbuf_free(J, &B->y);
    jd_gbuf_free(J, &B->m);
    free(B->hy), free(B->hm);
}

static int bufs_alloc(jd *J, w35_bufs *B, size_t max_n, size_t max_cols, jd_tally *t)
{
    memset(B, 0, sizeof *B);
    B->x.id = B->b.id = B->r.id = B->y.id = B->m.id = -1;
    if (jd_gbuf_alloc(J, &B->x, (max_n + LEAD_MAX) * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->b, (max_cols + LEAD_MAX) * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->r, (max_n + LEAD_MAX) * 4, t) != 0 ||
        jd_gbuf_alloc(J, &B->y, (max_n + LEAD_MAX) * 4, t) != 0 || jd_gbuf_alloc(J, &B->m, max_n + LEAD_MAX, t) != 0)
        return -1;
    if (!(B->hy = malloc(max_n * 4 + 4)) || !(B->hm = malloc(max_n + 4))) return jd_failf(t, "buffers: out of memory"), -1;
    return 0;
}

/* Runs c on in, y and the mask read back into B->hy and B->hm with their
 * bands checked, the status `want`. 0 when the call ran as it should, 1
 * when it failed (t says), -1 when the runner or the judge's own copies
 * failed (t says). */
static int call_case(jd *J, w35_bufs *B, const dcase *c, const inputs *in, int want, const char *what, jd_tally *t)
{
    const size_t n = in->n, nb = in->nb;
    if (jd_gbuf_put(&B->x, c->ox * 4, in->x, n * 4) != 0 || jd_gbuf_put(&B->b, c->ob * 4, in->b, nb * 4) != 0 ||
        jd_gbuf_put(&B->r, c->orr * 4, in->r, n * 4) != 0 || jd_gbuf_poison(&B->y, c->oy * 4, n * 4) != 0 ||
        jd_gbuf_poison(&B->m, c->om, n) != 0)
        return jd_failf(t, "%s: the judge's own copies failed", what), -1;
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W35_FN_DROPOUT, 1, 5);
    /* an input of no elements and no lead is NULL, as the test's wb_dcopy of 0 bytes gives it */
    jd_gbuf_arg(&rq, 0, n || c->ox ? &B->x : NULL, c->ox * 4);
    jd_gbuf_arg(&rq, 1, nb || c->ob ? &B->b : NULL, c->ob * 4);
    jd_gbuf_arg(&rq, 2, n || c->orr ? &B->r : NULL, c->orr * 4);
    jd_gbuf_arg(&rq, 3, &B->y, c->oy * 4);
    jd_gbuf_arg(&rq, 4, &B->m, c->om);
    rq.i64[1] = c->rows, rq.i64[2] = c->cols, rq.i64[3] = (long long)c->seed, rq.i64[4] = (long long)c->offset;
    rq.f64[0] = (double)c->p;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    if (rp.status != want)
        return jd_failf(t, "%s: dropout_bias_residual returned %s, expected %s", what, status_name(rp.status),
                        cudaGetErrorName((cudaError_t)want)),
               1;
    int f = jd_gbuf_fetch(&B->y, c->oy * 4, n * 4, B->hy, "y", what, t);
    if (f == 0) f = jd_gbuf_fetch(&B->m, c->om, n, B->hm, "mask", what, t);
    return f;
}

/* A case run and y checked against its own mask (left in B->hm). 0, 1, -1 as call_case. */
static int run_checked(jd *J, w35_bufs *B, const dcase *c, const inputs *in, const char *what, jd_tally *t)
{
    t->tests++;
    int f = call_case(J, B, c, in, cudaSuccess, what, t);
    if (f) return f;
    char msg[400] = "";
    size_t bad = check_y(in, c->cols, c->p, B->hy, B->hm, msg, sizeof msg);
    if (bad) return jd_failf(t, "%s: %zu of %zu elements wrong; first: %s", what, bad, in->n, msg), 1;
    return 0;
}

/* Fresh inputs from rng and one checked run. */
static int fresh_case(jd *J, w35_bufs *B, wb_rng *rng, const dcase *c, jd_tally *t)
{
    inputs in = { NULL, NULL, NULL, 0, 0 };
    char what[200];
    describe(c, what, sizeof what);
    int f = make_inputs(rng, c->rows, c->cols, &in, t) != 0 ? -1 : run_checked(J, B, c, &in, what, t);
    free_inputs(&in);
    return f;
}

/* ---------------------------------------------------------------- w35.dropout */

#define CASE_N    ((size_t)2051 * 4096) /* the largest case of any checkpoint: w35.mask-stats' */
#define CASE_COLS ((size_t)1048576)

static int specials_case(jd *J, w35_bufs *B, int k, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-specials", k);
    dcase c = { 64, k == 0 ? 1024 : 1001, 0.5f, shown_draw(&rng), 7, 0, 0, 0, 0, 0 };
    inputs in = { NULL, NULL, NULL, 0, 0 };
    if (make_inputs(&rng, c.rows, c.cols, &in, t) != 0) return free_inputs(&in), -1;
    for (size_t i = 0; i < in.n; i += 97) {
        const float sp[] = { NAN, INFINITY, -INFINITY, 1e4f, -1e4f };
        in.x[i] = sp[(i / 97) % 5];
    }
    for (size_t i = 5; i < in.n; i += 89) in.r[i] = (i / 89) % 2 ? 1e4f : -1e4f;
    for (size_t j = 3; j < in.nb; j += 31) in.b[j] = (j / 31) % 2 ? 1e4f : -1e4f;
    char what[260];
    describe(&c, what, sizeof what);
    strncat(what, ", x with NaN, +-Inf, +-1e4 every 97th, +-1e4 in bias and residual", sizeof what - strlen(what) - 1);
    int f = run_checked(J, B, &c, &in, what, t);
    free_inputs(&in);
    return f;
}

static int bad_p_cases(jd *J, w35_bufs *B, jd_tally *t)
{
    static const float BAD[] = { -0.1f, 1.5f, NAN, -INFINITY, INFINITY };
    wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-bad-p", 0);
    inputs in = { NULL, NULL, NULL, 0, 0 };
    int f = make_inputs(&rng, 8, 256, &in, t) != 0 ? -1 : 0;
    for (size_t k = 0; k < COUNT(BAD) && f >= 0; k++) {
        dcase c = { 8, 256, BAD[k], 1, 0, 0, 0, 0, 0, 0 };
        char what[64];
        snprintf(what, sizeof what, "p=%g", (double)BAD[k]);
        t->tests++;
        f = call_case(J, B, &c, &in, cudaErrorInvalidValue, what, t);
        if (f) continue;
        size_t touched = 0;
        for (size_t i = 0; i < in.n; i++) touched += (B->hm[i] != 0xFF) + (memcmp(&B->hy[i], "\xff\xff\xff\xff", 4) != 0);
        if (touched) jd_failf(t, "%s: y or the mask was written (%zu elements); an invalid p must launch nothing", what,
                              touched);
    }
    free_inputs(&in);
    return f < 0 ? -1 : 0;
}

/* The run past 2^31 elements (the test's dropout_past_2g): buffers of the
 * judge's (jd_alloc: device memory both processes map), filled on the
 * device from the hidden seed, y and the mask read back by ranges. */
static int check_big_range(const float *dy, const uint8_t *dm, size_t lo, size_t hi, int cols, float p, size_t n,
                           unsigned long long sx, unsigned long long sb, unsigned long long sr, size_t *kept, size_t *seen,
                           jd_tally *t)
{
    const size_t w = hi - lo;
    float *y = malloc(w * 4);
    uint8_t *m = malloc(w);
    if (!y || !m || cudaMemcpy(y, dy + lo, w * 4, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(m, dm + lo, w, cudaMemcpyDeviceToHost) != cudaSuccess) {
        free(y), free(m);
        return jd_failf(t, "n=%zu: the judge's own copies failed", n), -1;
    }
    const float scale = w35_scale(p);
    size_t bad = 0, first = 0;
    double want = 0, fw = 0;
    for (size_t i = 0; i < w; i++) {
        const size_t e = lo + i;
        *kept += m[i] == 1;
        if (!w35_y_ok(wb_hash_uniform_f32(sx, e, -4, 4), wb_hash_uniform_f32(sb, e % (size_t)cols, -1, 1),
                  wb_hash_uniform_f32(sr, e, -1, 1), scale, y[i], m[i], &want) &&
            bad++ == 0)
            first = e, fw = want;
    }
    *seen += w;
    if (bad)
        jd_failf(t, "n=%zu, elements [%zu, %zu)%s: %zu wrong; first: element %zu, mask %u: y %.9g, expected %.9g", n, lo,
                 hi, hi > ((size_t)1 << 31) ? ", past 2^31: is an index an int?" : "", bad, first, m[first - lo],
                 (double)y[first - lo], fw);
    free(y), free(m);
    return bad ? 1 : 0;
}

static int past_2g(jd *J, jd_tally *t)
{
    const int cols = 4096;
    size_t n = ((size_t)1 << 31) + 3 * (size_t)cols, free_b = 0, total = 0;
    const char *shared = getenv("WB_GPU_SHARED");
    t->tests++;
    if (shared && strcmp(shared, "1") == 0) { /* as the test's wb_device_room: SKIP, run again alone */
        t->skipped++;
        return 0;
    }
    cudaMemGetInfo(&free_b, &total);
    if (free_b < 13 * n + ((size_t)1 << 30)) {
        printf("  past 2^31: needs %.1f GB of device memory, %.1f GB free; checked at 2^28 instead\n", 13.0 * n / 1e9,
               free_b / 1e9);
        n = ((size_t)1 << 28) + 3 * (size_t)cols;
    }
    const int rows = (int)(n / (size_t)cols);
    const float p = 0.25f;
    wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-past-2g", 0);
    const unsigned long long seed = shown_draw(&rng), sx = shown_draw(&rng), sb = shown_draw(&rng), sr = shown_draw(&rng);
    float *dx = NULL, *dr = NULL, *dy = NULL, *db = NULL;
    uint8_t *dm = NULL;
    int ix = jd_alloc(J, n * 4, (void **)&dx), ir = ix < 0 ? -1 : jd_alloc(J, n * 4, (void **)&dr);
    int iy = ir < 0 ? -1 : jd_alloc(J, n * 4, (void **)&dy), ib = iy < 0 ? -1 : jd_alloc(J, (size_t)cols * 4, (void **)&db);
    int im = ib < 0 ? -1 : jd_alloc(J, n, (void **)&dm), f = 0;
    if (im < 0) {
        f = -1, jd_failf(t, "n=%zu: buffers: %s", n, J->why);
        goto out;
    }
    wb_dfill_uniform_f32(dx, n, sx, -4, 4);
    wb_dfill_uniform_f32(dr, n, sr, -1, 1);
    wb_dfill_uniform_f32(db, (size_t)cols, sb, -1, 1);
    if (cudaMemset(dy, 0xFF, n * 4) != cudaSuccess || cudaMemset(dm, 0xFF, n) != cudaSuccess ||
        cudaDeviceSynchronize() != cudaSuccess) {
        f = -1, jd_failf(t, "n=%zu: the judge's own fills failed", n);
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W35_FN_DROPOUT, 1, 5);
    rq.arg_buf[0][0] = ix, rq.arg_buf[0][1] = ib, rq.arg_buf[0][2] = ir, rq.arg_buf[0][3] = iy, rq.arg_buf[0][4] = im;
    rq.i64[1] = rows, rq.i64[2] = cols, rq.i64[3] = (long long)seed, rq.i64[4] = 0, rq.f64[0] = p;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        f = -1, jd_failf(t, "n=%zu: %s", n, J->why);
        goto out;
    }
    if (rp.status != cudaSuccess) {
        f = 1, jd_failf(t, "rows=%d cols=%d (n=%zu): dropout_bias_residual returned %s", rows, cols, n,
                        status_name(rp.status));
        goto out;
    }
    size_t kept = 0, seen = 0, edge = (n > ((size_t)1 << 31) ? ((size_t)1 << 31) : n) - ((size_t)1 << 21);
    f = check_big_range(dy, dm, 0, (size_t)1 << 20, cols, p, n, sx, sb, sr, &kept, &seen, t);
    if (!f) f = check_big_range(dy, dm, edge, n, cols, p, n, sx, sb, sr, &kept, &seen, t);
    for (int k = 0; k < 1024 && !f; k++) {
        size_t g = (size_t)wb_rng_int(&rng, (int64_t)1 << 18, (int64_t)(edge / 4) - 1);
        f = check_big_range(dy, dm, 4 * g, 4 * g + 4, cols, p, n, sx, sb, sr, &kept, &seen, t);
    }
    const double mu = seen * (1.0 - p), sigma = sqrt(seen * p * (1.0 - p));
    if (!f && fabs((double)kept - mu) > 6 * sigma + 1)
        jd_failf(t, "n=%zu, p=%g: %zu of the %zu elements checked kept, expected %.0f +- %.0f (6 sigma)", n, (double)p,
                 kept, seen, mu, 6 * sigma);
out:
    jd_free(J, ix), jd_free(J, ir), jd_free(J, iy), jd_free(J, ib), jd_free(J, im);
    return f < 0 ? -1 : 0;
}

static void judge_dropout(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    w35_bufs B;
    size_t max_n = (size_t)300 * 1200; /* the alignment mixes' largest */
    for (size_t i = 0; i < COUNT(W35_SHAPES); i++)
        if (elems(W35_SHAPES[i][0], W35_SHAPES[i][1]) > max_n) max_n = elems(W35_SHAPES[i][0], W35_SHAPES[i][1]);
    int f = bufs_alloc(J, &B, max_n, CASE_COLS, t) != 0 ? -1 : 0;
    for (size_t i = 0; i < COUNT(W35_SHAPES) && f >= 0 && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-shapes", (int)i);
        dcase c = { W35_SHAPES[i][0], W35_SHAPES[i][1], W35_PS[i % COUNT(W35_PS)], shown_draw(&rng),
                    (unsigned long long)i, 0, 0, 0, 0, 0 };
        f = fresh_case(J, &B, &rng, &c, t);
    }
    for (size_t i = 0; i < COUNT(W35_OFFS) && f >= 0 && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-offsets", (int)i);
        const int rows = (int)wb_rng_int(&rng, 1, 300), cols = 4 * (int)wb_rng_int(&rng, 1, 300);
        dcase c = { rows, cols, 0.3f, shown_draw(&rng), 1, W35_OFFS[i][0], W35_OFFS[i][1], W35_OFFS[i][2],
                    W35_OFFS[i][3], W35_OFFS[i][4] };
        f = fresh_case(J, &B, &rng, &c, t);
    }
    for (int i = 0; i < 2 && f >= 0 && !J->lost; i++) f = specials_case(J, &B, i, t);
    if (f >= 0 && !J->lost) f = bad_p_cases(J, &B, t);
    bufs_free(J, &B);
    if (f >= 0 && !J->lost) past_2g(J, t);
}

/* ---------------------------------------------------------------- w35.mask-model */

static void judge_mask_model(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    if (!model_ok(t)) return;
    w35_bufs B;
    int f = bufs_alloc(J, &B, (size_t)257 * 1023, 8192, t) != 0 ? -1 : 0;
    for (size_t i = 0; i < COUNT(W35_MODEL) && f >= 0 && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-mask-model", (int)i);
        const unsigned long long seed = shown_draw(&rng), offset = (unsigned long long)wb_rng_int(&rng, 0, 1000);
        dcase c = { W35_MODEL[i].rows, W35_MODEL[i].cols, W35_MODEL[i].p, seed, offset, 0, 0, 0, 0, W35_MODEL[i].om };
        if (i == 5) c.offset = ((unsigned long long)1 << 40) + 3; /* an offset past 2^32 */
        f = fresh_case(J, &B, &rng, &c, t);
        if (f) continue;
        char what[200];
        describe(&c, what, sizeof what);
        size_t n = elems(c.rows, c.cols), bad = 0, first = n;
        for (size_t e = 0; e < n; e++)
            if (B.hm[e] != jd35_keep(c.seed, c.offset, e, c.p) && bad++ == 0) first = e;
        if (bad)
            jd_failf(t, "%s: %zu of %zu mask bytes differ from the model (philox_dropout_keep_host's); first at element "
                     "%zu (group %zu, word %zu): device %u, expected %d. Is w35.philox passing? Then check the "
                     "subsequence (i / 4), the offset (4 * offset) and which component goes to which element.",
                     what, bad, n, first, first / 4, first % 4, B.hm[first], jd35_keep(c.seed, c.offset, first, c.p));
    }
    bufs_free(J, &B);
}

/* ---------------------------------------------------------------- w35.mask-stats */

/* |count - N q| <= 6 sqrt(N q (1 - q)) + 1 for a count of N Bernoulli(q); 1 when it is. */
static int binomial_ok(size_t count, size_t N, double q, const char *what, const char *which, jd_tally *t)
{
    const double mu = N * q, sigma = sqrt(N * q * (1.0 - q));
    if (fabs((double)count - mu) <= 6 * sigma + 1) return 1;
    jd_failf(t, "%s: %s: %zu of %zu, expected %.1f +- %.1f (6 sigma of a binomial)", what, which, count, N, mu,
             6 * sigma + 1);
    return 0;
}

static void judge_mask_stats(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    w35_bufs B;
    int f = bufs_alloc(J, &B, CASE_N, 4096, t) != 0 ? -1 : 0;
    for (size_t s = 0; s < COUNT(W35_STAT_P) && f >= 0 && !J->lost; s++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-mask-stats", (int)s);
        const size_t sc = s == 5;
        dcase c = { 2051, sc ? 4095 : 4096, W35_STAT_P[s], shown_draw(&rng), 0, sc, 0, sc, 0, sc };
        f = fresh_case(J, &B, &rng, &c, t);
        if (f) continue;
        char what[200];
        describe(&c, what, sizeof what);
        const size_t n = elems(c.rows, c.cols);
        const double q = 1.0 - (double)c.p;
        const w35_mask_counts m = w35_count_mask(B.hm, c.rows, c.cols);
        const size_t kept = m.kept;
        if (c.p == 0.0f && kept != n) {
            jd_failf(t, "%s: p = 0 must keep every element; %zu of %zu kept", what, kept, n);
            continue;
        }
        if (c.p == 1.0f && kept != 0) {
            jd_failf(t, "%s: p = 1 must drop every element; %zu of %zu kept", what, kept, n);
            continue;
        }
        printf("  p=%g: kept %.5f of %zu (expected %.5f)\n", (double)c.p, (double)kept / n, n, q);
        int ok = binomial_ok(kept, n, q, what, "elements kept", t);
        for (int l = 0; l < 4 && ok; l++) {
            char which[64];
            snprintf(which, sizeof which, "elements kept at i %% 4 == %d", l);
            ok = binomial_ok(m.lane[l], m.lane_n[l], q, what, which, t);
        }
        if (ok) ok = binomial_ok(m.both, m.pairs, q * q, what, "pairs (2j, 2j+1) both kept", t);
        if (ok)
            binomial_ok(m.agree, m.vpairs, q * q + (1 - q) * (1 - q), what,
                        "elements equal to the one below (rows 2j, 2j+1)", t);
    }
    bufs_free(J, &B);
}

/* ---------------------------------------------------------------- w35.deterministic */

/* c run on in again (label names the variant), checked; its y and mask
 * copied into y and m. 0, 1, -1 as call_case. */
static int rerun(jd *J, w35_bufs *B, const dcase *c, const inputs *in, float *y, uint8_t *m, const char *label,
                 jd_tally *t)
{
    char what[260];
    describe(c, what, sizeof what);
    strncat(what, label, sizeof what - strlen(what) - 1);
    int f = run_checked(J, B, c, in, what, t);
    if (f == 0) memcpy(y, B->hy, in->n * 4), memcpy(m, B->hm, in->n);
    return f;
}

static int det_case(jd *J, w35_bufs *B, int d, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "w35-judge-deterministic", d);
    const unsigned long long seed = shown_draw(&rng), offset = (unsigned long long)wb_rng_int(&rng, 0, 99);
    dcase c = { W35_DET[d].rows, W35_DET[d].cols, W35_DET[d].p, seed, offset, 0, 0, 0, 0, 0 };
    inputs in = { NULL, NULL, NULL, 0, 0 };
    const size_t n = elems(c.rows, c.cols);
    float *y0 = malloc(n * 4), *y1 = malloc(n * 4), *y2 = malloc(n * 4);
    uint8_t *m0 = malloc(n), *m1 = malloc(n), *m2 = malloc(n);
    char what[200];
    describe(&c, what, sizeof what);
    int f = 0;
    if (!y0 || !y1 || !y2 || !m0 || !m1 || !m2 || make_inputs(&rng, c.rows, c.cols, &in, t) != 0) {
        if (!t->failed) jd_failf(t, "buffers: out of memory");
        f = -1;
        goto out;
    }
    /* the same call three times: everything bit for bit */
    if ((f = rerun(J, B, &c, &in, y0, m0, "", t)) != 0 || (f = rerun(J, B, &c, &in, y1, m1, ", first repeat", t)) != 0 ||
        (f = rerun(J, B, &c, &in, y2, m2, ", second repeat", t)) != 0)
        goto out;
    if (memcmp(y0, y1, n * 4) != 0 || memcmp(y0, y2, n * 4) != 0 || memcmp(m0, m1, n) != 0 || memcmp(m0, m2, n) != 0) {
        jd_failf(t, "%s: the same seed and offset gave a different y or mask on another run", what);
        goto out;
    }
    /* other shapes: the bias repeated so every element sees the same bias */
    for (int shape = 0; shape < 2; shape++) {
        if (shape == 0 && c.rows % 2) continue;
        dcase s = c;
        s.rows = shape == 0 ? c.rows / 2 : 1;
        s.cols = (int)(n / (size_t)s.rows);
        inputs u = in;
        u.nb = (size_t)s.cols;
        if (!(u.b = malloc(u.nb * 4))) {
            f = -1, jd_failf(t, "buffers: out of memory");
            goto out;
        }
        for (size_t j = 0; j < u.nb; j++) u.b[j] = in.b[j % (size_t)c.cols];
        f = rerun(J, B, &s, &u, y1, m1, shape == 0 ? ", as rows/2 x 2 cols" : ", as one row", t);
        free(u.b);
        if (f) goto out;
        size_t dd = w35_count_diff(m0, m1, n);
        if (dd) {
            jd_failf(t, "%s: the same data as %d x %d gave a mask that differs in %zu of %zu elements: the mask of "
                     "element i must depend on seed, offset and i only", what, s.rows, s.cols, dd, n);
            goto out;
        }
    }
    /* every pointer misaligned: the scalar kernel, the same numbers */
    dcase a = c;
    a.ox = 1, a.ob = 3, a.orr = 2, a.oy = 1, a.om = 1;
    if ((f = rerun(J, B, &a, &in, y1, m1, ", misaligned", t)) != 0) goto out;
    size_t dd = w35_count_diff(m0, m1, n);
    if (dd) {
        jd_failf(t, "%s: misaligned pointers gave a mask that differs in %zu of %zu elements", what, dd, n);
        goto out;
    }
    /* another seed, another offset: independent masks, differing in 2p(1-p) */
    for (int o = 0; o < 2; o++) {
        dcase e = c;
        if (o == 0) e.seed++;
        else e.offset++;
        if ((f = rerun(J, B, &e, &in, y1, m1, o == 0 ? ", seed + 1" : ", offset + 1", t)) != 0) goto out;
        const double q = 2.0 * c.p * (1.0 - c.p);
        if (!binomial_ok(w35_count_diff(m0, m1, n), n, q, what,
                         o == 0 ? "elements whose mask changed with seed + 1" : "elements whose mask changed with offset + 1",
                         t))
            goto out;
    }
out:
    free(y0), free(y1), free(y2), free(m0), free(m1), free(m2), free_inputs(&in);
    return f < 0 ? -1 : 0;
}

static void judge_deterministic(jd_ck *k)
{
    w35_bufs B;
    int f = bufs_alloc(k->J, &B, (size_t)64 * 4096, (size_t)64 * 4096, k->t) != 0 ? -1 : 0;
    for (int d = 0; d < (int)COUNT(W35_DET) && f >= 0 && !k->J->lost; d++) f = det_case(k->J, &B, d, k->t);
    bufs_free(k->J, &B);
}

/* ---------------------------------------------------------------- w35.dropout-bw */

#define BENCH_COLS 4096
static const float BENCH_P = 0.1f;
static jd_bench g_bench; /* large: its sample arrays */

static unsigned long long res_seed(unsigned long long sx) { return jd_mix(sx ^ 0x7e51d); }
static unsigned long long bias_seed(unsigned long long sx) { return jd_mix(sx ^ 0xb1a5); }

/* x, then the residual, then the bias, from the rep's seed. */
static void bench_fill(const jd_bench *b, void *in, unsigned long long seed)
{
    float *p = in;
    wb_dfill_uniform_f32(p, b->n, seed, -4, 4);
    wb_dfill_uniform_f32(p + b->n, b->n, res_seed(seed), -1, 1);
    wb_dfill_uniform_f32(p + 2 * b->n, (size_t)b->i64[2], bias_seed(seed), -1, 1);
}

/* The dropout seed and offset afresh each request. */
static void bench_fresh(jd_bench *b, uint64_t r)
{
    b->i64[3] = (long long)jd_mix(r ^ 0xd50d), b->i64[4] = (long long)(jd_mix(r ^ 0x0ff5) & 0xffff);
}

/* Output word i: y[i] below n (the model's mask), then the mask's bytes four a word. */
static float bench_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    const unsigned long long ds = (unsigned long long)b->i64[3], off = (unsigned long long)b->i64[4];
    const float p = (float)b->f64[0];
    if (i >= b->n) {
        const size_t e = 4 * (i - b->n);
        uint32_t w = 0;
        for (int k = 0; k < 4; k++) w |= (uint32_t)jd35_keep(ds, off, e + (size_t)k, p) << (8 * k);
        float f;
        memcpy(&f, &w, sizeof f);
        return f;
    }
    const float r = wb_hash_uniform_f32(res_seed(seed[0]), i, -1, 1);
    if (!jd35_keep(ds, off, i, p)) return r;
    const float v = wb_hash_uniform_f32(seed[0], i, -4, 4) +
                    wb_hash_uniform_f32(bias_seed(seed[0]), i % (size_t)b->i64[2], -1, 1);
    return (float)((double)r + (double)v * w35_scale(p));
}

static int bench_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                       unsigned long long h[2])
{
    cudaError_t e = jd_w35_dropout_check(out, (size_t)b->i64[1], (int)b->i64[2], seed[0], res_seed(seed[0]),
                                         bias_seed(seed[0]), (unsigned long long)b->i64[3],
                                         (unsigned long long)b->i64[4], (float)b->f64[0], bad, jd_stream);
    return jd_full_check_done(e, bad, h);
}

static void judge_dropout_bw(jd_ck *k)
{
    const size_t rows = wb_bench_bytes() / 4 / BENCH_COLS, n = rows * BENCH_COLS;
    double ms = NAN, value = NAN, copy = NAN;
    char why[600] = "", detail[200] = "";
    memset(&g_bench, 0, sizeof g_bench);
    g_bench.fn = W35_FN_DROPOUT_TIMED, g_bench.n_in = 1, g_bench.max_k = JD_BENCH_MAX_K;
    g_bench.n = n, g_bench.out_n = n + n / 4, g_bench.in_bytes = (2 * n + BENCH_COLS) * 4;
    g_bench.lo = -4, g_bench.hi = 4, g_bench.atol = 4e-6, g_bench.rtol = 4e-7;
    g_bench.i64[1] = (long long)rows, g_bench.i64[2] = BENCH_COLS, g_bench.f64[0] = BENCH_P;
    g_bench.fn_name = "dropout_bias_residual", g_bench.out_name = "out (y, then the mask's bytes)";
    g_bench.fill = bench_fill, g_bench.fresh = bench_fresh;
    g_bench.expect = bench_expect, g_bench.full_check = bench_check;
    char w[600];
    if (jd_bench_run(k->J, &g_bench, TIMED, &ms, w, sizeof w) != 0) {
        snprintf(why, sizeof why, "hidden %d, p %g (%zu x %d; the timed calls' seed and offset are drawn afresh each "
                 "request): %s", BENCH_COLS, (double)BENCH_P, rows, BENCH_COLS, w);
    } else {
        value = (13.0 * (double)n + 4.0 * BENCH_COLS) / (ms * 1e-3) / 1e9;
        copy = jd_copy_yard(); /* through the same protocol: the larger of before any student code ran and now */
        if (!(copy > 0)) snprintf(why, sizeof why, "no COPY figure: %s", jd_copy_yard_why());
        snprintf(detail, sizeof detail, "hidden %d, p %g: %.0f GB/s vs COPY %.0f GB/s (judge's clock, %d calls a "
                 "request, median of %d)", BENCH_COLS, (double)BENCH_P, value, copy, g_bench.k, TIMED);
        printf("  dropout_bias_residual, %zu x %d: %.4f ms a call by the judge's clock (%.4f by the runner's own), %s\n",
               rows, BENCH_COLS, ms, g_bench.runner_ms, detail);
    }
    jd_speed_result(k->R, k->t, k->c, k->gpu, value, "GB/s", "COPY", copy, detail, why);
}

/* COPY of x's size (wb_bench_bytes(), read and written: 8 bytes a float of
 * wb_bench_bytes() / 4) for the speed checkpoint, as the test's
 * wb_yard_copy_gbps(n * 4). */
static const jd_checkpoint CPS[] = {
    { "w35.philox", judge_philox_gpu, judge_philox, 1, 0 },
    { "w35.dropout", judge_dropout, NULL, 0, 0 },
    { "w35.mask-model", judge_mask_model, NULL, 0, 0 },
    { "w35.mask-stats", judge_mask_stats, NULL, 0, 0 },
    { "w35.deterministic", judge_deterministic, NULL, 0, 0 },
    { "w35.dropout-bw", judge_dropout_bw, NULL, 0, 8 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w35", "phase6/week35", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
