/* judge_w18.c — build/instructor/judge-w18: week 18's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (the week is graded with its
 * linked test until this judge has run on a GPU). It links no student code:
 * the student's fp32.o, fp16.o, int8.o and bf16.o are linked into the
 * runner (judge_w18_runner.c), which this process starts (or is handed) and
 * asks to call them on buffers it allocated (judge.h). It poisons, fills,
 * times and checks, and writes the results record itself, outside the
 * runner's reach. The command line, the runner's start, the record, the
 * guarded buffers and the timed-call protocol are judge_week.c's:
 *
 *   judge-w18 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week18.c's, COPIED here (the test has no shared
 * header, and a staged judge leaves the week's test as it is): the same
 * shapes, draws (ranges and order, from the class seed with the judge's
 * own tags, wb_rng_for_seed), edge values and tolerances, the CPU
 * references the test's (double sums; the INT8 layer int8.h's definition
 * step by step in float). Every output sits in a guarded byte buffer
 * (jd_gbuf: poisoned 0xFF, the bands around it checked untouched), every
 * element against the reference within atol + rtol |ref|, NaN where NaN
 * is due (the poison left there counted as not written), integer and
 * 16-bit outputs exactly:
 *   w18.fp32        fp32_linear on the test's 12 SHAPES (batch 0, 1, odd,
 *                   70001; in and out 1 to 300), x in [-1, 1), W in
 *                   [-0.5, 0.5), b in [-1, 1), against double at 1e-4 +
 *                   1e-4 |ref|; the two NaN / Inf cases (37 x 70 -> 50, a
 *                   NaN row, +Inf, -Inf, ReLU on and off);
 *                   fp32_softmax_argmax on the test's 10 shapes (rows with
 *                   NaN, -Inf, a repeated maximum, +-1e4 offsets; pred
 *                   preset to 0x7f7f7f7f), probs at 1e-6 + 1e-5 |ref|,
 *                   pred exactly (-1 for a NaN row), then again with
 *                   probs NULL; bad_sizes' four refusals;
 *   w18.fp16        fp16_from_f32 on the test's 4 sizes (0 to 2^20: any bit
 *                   pattern, values around 65504, subnormal halves, near
 *                   ties, its 16 special values) bit for bit (any half NaN
 *                   for a NaN); fp16_linear on the 12 SHAPES with W as half
 *                   bits, against double over the rounded weights, 1e-4;
 *   w18.int8        int8_quantize_rows on the test's 7 shapes (a zero row,
 *                   one large weight), q and the scales exactly, the
 *                   padding columns 0; int8_linear on the 12 SHAPES (a
 *                   zero row of x) against int8.h's definition at 1e-5;
 *   w18.bf16        bf16_from_f32 on the test's 4 sizes (any bit pattern,
 *                   ordinary values, exact ties, its 16 specials) bit for
 *                   bit; bf16_linear on the test's 12 BF16_SHAPES against
 *                   double over the rounded inputs at in 2^-19 |x|max
 *                   |w|max + 2^-19 |ref|; the two NaN / Inf cases (37 x 72
 *                   -> 50); the six refusals (cudaErrorInvalidValue) and
 *                   batch 0 (cudaSuccess), y untouched after them;
 *   w18.layer-speed fp32_linear with ReLU on 32768 x 1024 -> 1024 (68.7
 *                   GFLOP), through the timed-call protocol (judge_week.h:
 *                   up to 32 calls a request, each on its own input x | W
 *                   | b, all three drawn on the device by the judge's
 *                   kernel from the call's hidden seed in the test's ranges
 *                   (x in [-1, 1), W in [-1/32, 1/32), b in [-0.5, 0.5)),
 *                   and its own poisoned y; the judge's look right after
 *                   the reply (256 outputs a call against double sums on
 *                   the host), then every element of every timed output
 *                   checked by the judge's kernel (judge_w18_kernels.cu:
 *                   double sums over the judge's own copies of the inputs)
 *                   at w18.fp32's 1e-4 + 1e-4 |ref|; the median of 7
 *                   requests), TFLOP/s against cuBLASLt's FP32 matmul with
 *                   CUBLASLT_EPILOGUE_RELU_BIAS (the week's given
 *                   support/yard_lt_layer.cu, as the test's yardstick) on
 *                   the same protocol, seeds and checks through the judge's
 *                   own yard runner (judge-w18-yard-runner, no student
 *                   object), timed before the student's runner starts and
 *                   after, the faster kept; >= the week's target. A
 *                   yardstick that cannot plan or run FAILs, as the test's
 *                   (its row invalid makes the student's invalid);
 *   w18.bf16-speed  the same for bf16_linear, x and W drawn as bfloat16
 *                   (nearest even of the same draws), against cuBLASLt's
 *                   BF16 matmul with FP32 accumulation and output and the
 *                   same epilogue, checked at w18.bf16's tolerance for
 *                   K = 1024.
 * The test's checks are sampled in its timings (1024 and 4096 outputs);
 * the judge's are full, so no weaker.
 * Left to the linked test (not listed: the grader runs them in the week's
 * test program and says so):
 *   w18.load, w18.model  the loaders read files (week.txt's `fileio:
 *                   model_io`): the test writes its damaged files and reads
 *                   the shipped ones; judging them here needs runner entries
 *                   that pass a file's bytes and the loaded model back
 *                   (as judge_w17's PGM entries do), not written this round;
 *   w18.fp32-model, w18.fp16-model, w18.int8-model, w18.plan
 *                   the shipped model on the device through
 *                   plan_mlp_forward, whose mlp_dev holds up to 41 device
 *                   pointers (more than a call's JD_MAX_ARGS) and the
 *                   weights the student's converters made: a runner entry
 *                   that assembles it from one packed buffer is needed, not
 *                   written this round; w18.plan's formula part with it;
 *   w18.bf16-model  the same chain of bf16_from_f32 and bf16_linear over
 *                   the loaded model (it loads the shipped files with the
 *                   student's loader);
 *   w18.throughput  a sweep of samples per second that writes a CSV and a
 *                   plot into the student's build folder: a report with no
 *                   target, read from the student's process's files.
 * Without a GPU the plumbing is tested by instructor/tests/judge_w18.sh
 * (every checkpoint SKIP, never PASS; calibration says the two speed
 * checkpoints were not run). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "int8.h"
#include "judge.h"
#include "judge_w18.h"
#include "judge_w18_kernels.h"
#include "judge_week.h"
#include "wb_compare.h"
#include "wb_f16.h"
#include "wb_harness.h"
#include "wb_rand.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

static const char *status_name(int s) { return s < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)s); }

/* ================================================================ calls on guarded buffers */

/* fn on the guarded buffers g[0..n) (a NULL entry: a NULL argument), i64[1..4] from v: the status, or -1
 * when the runner failed (t told). rp: the reply. */
static int gcall(jd *J, int fn, jd_gbuf *const *g, int n, const long long *v, int nv, jd_rep *rp, const char *what,
                 jd_tally *t)
{
    jd_req rq;
    jd_call_setup(&rq, fn, 1, n);
    for (int k = 0; k < n; k++) jd_gbuf_arg(&rq, k, g[k], 0);
    for (int k = 0; k < nv; k++) rq.i64[1 + k] = v[k];
    if (jd_call(J, &rq, rp, NULL) != 0) return jd_failf(t, "%s: %s", what, J->why), -1;
    return rp->status;
}

/* A set of up to 6 guarded buffers, freed together. */
typedef struct {
    jd_gbuf b[6];
    int     n;
} gset;

static jd_gbuf *gnew(jd *J, gset *S, size_t cap, jd_tally *t)
{
    jd_gbuf *b = &S->b[S->n++];
    b->id = -1;
    return jd_gbuf_alloc(J, b, cap ? cap : 4, t) == 0 ? b : NULL;
}

/* An input of bytes from host (NULL, as the test's wb_dcopy of nothing, when there are none). */
static jd_gbuf *gin(jd *J, gset *S, const void *host, size_t bytes, jd_tally *t, int *err)
{
    if (!bytes || *err) return NULL;
    jd_gbuf *b = gnew(J, S, bytes, t);
    if (!b || jd_gbuf_put(b, 0, host, bytes) != 0) {
        if (b) jd_failf(t, "the judge's own copy of an input failed");
        *err = 1;
        return NULL;
    }
    return b;
}

/* A poisoned output of bytes. */
static jd_gbuf *gout(jd *J, gset *S, size_t bytes, jd_tally *t, int *err)
{
    if (*err) return NULL;
    jd_gbuf *b = gnew(J, S, bytes, t);
    if (!b || jd_gbuf_poison(b, 0, bytes) != 0) {
        if (b) jd_failf(t, "the judge's poisoning of an output failed");
        *err = 1;
        return NULL;
    }
    return b;
}

static void gfree(jd *J, gset *S)
{
    for (int i = 0; i < S->n; i++) jd_gbuf_free(J, &S->b[i]);
    S->n = 0;
}

/* Floats got[0..n) against ref within atol + rtol |ref| (wb_close); where NaN is due, the poison
 * (0xFFFFFFFF) counts as not written. 0, or 1 with t told. */
static int cmp_f32(const float *got, const double *ref, size_t n, double atol, double rtol, const char *name,
                   const char *what, jd_tally *t)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &got[i], 4);
        const int ok = isnan(ref[i]) ? isnan(got[i]) && u != 0xFFFFFFFFu : wb_close(got[i], ref[i], atol, rtol);
        if (!ok && bad++ == 0) first = i;
    }
    if (!bad) return 0;
    uint32_t u;
    memcpy(&u, &got[first], 4);
    jd_failf(t, "%s: %zu of %zu wrong; %s[%zu] expected %.9g got %.9g%s", what, bad, n, name, first, ref[first],
             (double)got[first], u == 0xFFFFFFFFu ? " (never written)" : "");
    return 1;
}

/* ================================================================ the test's cases and references (copied) */

typedef struct { int batch, in, out, relu; } layer_shape;
static const layer_shape SHAPES[] = {
    { 0, 64, 128, 1 },  { 1, 1, 1, 0 },     { 1, 64, 10, 0 },    { 3, 5, 7, 1 },      { 31, 33, 65, 1 },
    { 64, 64, 64, 1 },  { 65, 128, 64, 1 }, { 257, 100, 130, 0 }, { 1000, 128, 10, 0 }, { 4097, 64, 128, 1 },
    { 5, 300, 3, 1 },   { 70001, 128, 64, 1 },
};
static const layer_shape BF16_SHAPES[] = {
    { 0, 64, 128, 1 },  { 1, 8, 1, 0 },      { 1, 64, 10, 0 },     { 3, 16, 7, 1 },     { 31, 40, 65, 1 },
    { 64, 64, 64, 1 },  { 65, 128, 64, 1 },  { 127, 200, 130, 0 }, { 257, 136, 10, 0 }, { 129, 1024, 129, 1 },
    { 4097, 64, 128, 1 }, { 70001, 128, 64, 1 },
};
static const int SOFTMAX_SHAPES[][2] = { { 0, 10 }, { 1, 1 }, { 1, 10 }, { 7, 3 }, { 33, 10 }, { 100, 31 },
                                         { 9, 32 }, { 77, 33 }, { 5, 1000 }, { 65537, 10 } };
static const int QROWS[][2] = { { 0, 5 }, { 1, 1 }, { 3, 7 }, { 10, 64 }, { 64, 128 }, { 129, 33 }, { 1000, 300 } };
static const size_t CONV_N[] = { 0, 1, 1000, 1 << 20 };

/* the test's bf16 tolerance: K |x|max |w|max 2^-19, and 2^-19 relative */
#define BF16_RTOL 0x1p-19
static double bf16_atol(int in, double xmax, double wmax) { return in * xmax * wmax * 0x1p-19; }

static float quant_ref(const float *v, int n, int8_t *q)
{
    float big = 0;
    for (int k = 0; k < n; k++) big = fabsf(v[k]) > big ? fabsf(v[k]) : big;
    if (big == 0) {
        memset(q, 0, (size_t)n);
        return 0;
    }
    float mul = 127.0f / big;
    for (int k = 0; k < n; k++) {
        float t = rintf(v[k] * mul);
        q[k] = (int8_t)(t > 127 ? 127 : t < -127 ? -127 : t);
    }
    return big / 127.0f;
}

static void quantize_weights_ref(const float *W, int rows, int cols, int8_t *q, float *s)
{
    int ld = I8_LD(cols);
    memset(q, 0, (size_t)rows * ld);
    for (int o = 0; o < rows; o++) s[o] = quant_ref(W + (size_t)o * cols, cols, q + (size_t)o * ld);
}

static void layer_ref(const float *x, const float *W, const float *b, double *y, int batch, int in, int out, int relu)
{
    for (int r = 0; r < batch; r++)
        for (int o = 0; o < out; o++) {
            double s = 0;
            const float *xr = x + (size_t)r * in, *wo = W + (size_t)o * in;
            for (int k = 0; k < in; k++) s += (double)xr[k] * wo[k];
            s += b[o];
            y[(size_t)r * out + o] = relu && s < 0 ? 0 : s;
        }
}

/* int8.h's layer step by step in float (the test's layer_ref_i8), into double */
static void layer_ref_i8(const float *x, const int8_t *qw, const float *sw, const float *b, double *y, int batch,
                         int in, int out, int relu)
{
    int ld = I8_LD(in);
    int8_t *qx = wb_hmalloc((size_t)in);
    for (int r = 0; r < batch; r++) {
        float sx = quant_ref(x + (size_t)r * in, in, qx);
        for (int o = 0; o < out; o++) {
            int32_t acc = 0;
            for (int k = 0; k < in; k++) acc += (int32_t)qx[k] * qw[(size_t)o * ld + k];
            float s = sx * sw[o];
            float v = (float)acc * s;
            v = v + b[o];
            y[(size_t)r * out + o] = relu && v < 0 ? 0 : v;
        }
    }
    free(qx);
}

/* ================================================================ the layers */

enum { K_F32, K_F16, K_I8, K_BF16 };
static const char *KIND_FN[] = { "fp32_linear", "fp16_linear", "int8_linear", "bf16_linear" };
static const int KIND_CALL[] = { W18_FN_F32, W18_FN_F16, W18_FN_I8, W18_FN_BF16 };

/* One layer case of kind on shape s, drawn from rng as the test's layer_case_make draws (x, W, b); nan_case
 * puts the test's NaN and infinities into x. 0, or -1 when the runner is lost. */
static int layer_case(jd *J, jd_tally *t, int kind, layer_shape s, int nan_case, wb_rng *rng)
{
    const size_t nx = (size_t)s.batch * s.in, nw = (size_t)s.out * s.in, ny = (size_t)s.batch * s.out;
    float *hx = wb_hmalloc(nx * 4 + 4), *hW = wb_hmalloc(nw * 4), *hb = wb_hmalloc((size_t)s.out * 4);
    wb_fill_uniform_f32(rng, hx, nx, -1, 1);
    wb_fill_uniform_f32(rng, hW, nw, -0.5f, 0.5f);
    wb_fill_uniform_f32(rng, hb, (size_t)s.out, -1, 1);
    const int in = s.in;
    if (nan_case) {
        hx[3 * in + 5] = NAN, hx[10 * in] = INFINITY, hx[11 * in + 2] = -INFINITY;
        hx[36 * in + in - 1] = NAN;
    }
    if (kind == K_I8 && s.batch > 4) memset(hx + (size_t)4 * in, 0, (size_t)in * 4); /* a row of zeros */
    double *ref = wb_hmalloc(ny * 8 + 8);
    float *got = wb_hmalloc(ny * 4 + 4);
    void *xin = hx, *win = hW;
    size_t xbytes = nx * 4, wbytes = nw * 4;
    uint16_t *x16 = NULL, *w16 = NULL;
    int8_t *q = NULL;
    float *sw = NULL;
    double atol = 1e-4, rtol = 1e-4;
    if (kind == K_F16) {
        w16 = wb_hmalloc(nw * 2 + 2);
        for (size_t i = 0; i < nw; i++) w16[i] = wb_f32_to_f16(hW[i]), hW[i] = wb_f16_to_f32(w16[i]);
        win = w16, wbytes = nw * 2;
    } else if (kind == K_BF16) {
        x16 = wb_hmalloc(nx * 2 + 2), w16 = wb_hmalloc(nw * 2 + 2);
        for (size_t i = 0; i < nx; i++) x16[i] = wb_f32_to_bf16(hx[i]), hx[i] = wb_bf16_to_f32(x16[i]);
        for (size_t i = 0; i < nw; i++) w16[i] = wb_f32_to_bf16(hW[i]), hW[i] = wb_bf16_to_f32(w16[i]);
        xin = x16, xbytes = nx * 2, win = w16, wbytes = nw * 2;
        atol = bf16_atol(s.in, 1, 0.5), rtol = BF16_RTOL;
    } else if (kind == K_I8) {
        q = wb_hmalloc((size_t)s.out * I8_LD(s.in) + 4), sw = wb_hmalloc((size_t)s.out * 4 + 4);
        quantize_weights_ref(hW, s.out, s.in, q, sw);
        win = q, wbytes = (size_t)s.out * I8_LD(s.in);
        atol = rtol = 1e-5;
    }
    if (kind == K_I8) layer_ref_i8(hx, q, sw, hb, ref, s.batch, s.in, s.out, s.relu);
    else layer_ref(hx, hW, hb, ref, s.batch, s.in, s.out, s.relu);

    char what[160];
    snprintf(what, sizeof what, "%s batch=%d in=%d out=%d relu=%d%s", KIND_FN[kind], s.batch, s.in, s.out, s.relu,
             nan_case ? " (NaN and +-Inf in x)" : "");
    t->tests++;
    gset S = { .n = 0 };
    int err = 0, rc = 0;
    jd_gbuf *gx = gin(J, &S, xin, xbytes, t, &err), *gw = gin(J, &S, win, wbytes, t, &err);
    jd_gbuf *gs = kind == K_I8 ? gin(J, &S, sw, (size_t)s.out * 4, t, &err) : NULL;
    jd_gbuf *gb = gin(J, &S, hb, (size_t)s.out * 4, t, &err), *gy = gout(J, &S, ny * 4, t, &err);
    if (err) goto out;
    jd_gbuf *args[5];
    int na = 0;
    args[na++] = gx, args[na++] = gw;
    if (kind == K_I8) args[na++] = gs;
    args[na++] = gb, args[na++] = gy;
    const long long v[4] = { s.batch, s.in, s.out, s.relu };
    jd_rep rp;
    const int st = gcall(J, KIND_CALL[kind], args, na, v, 4, &rp, what, t);
    if (st < 0) {
        rc = J->lost ? -1 : 0;
        goto out;
    }
    if (st != 0) {
        jd_failf(t, "%s: returned %s", what, status_name(st));
        goto out;
    }
    if (jd_gbuf_fetch(gy, 0, ny * 4, got, "y", what, t) == 0) cmp_f32(got, ref, ny, atol, rtol, "y", what, t);
out:
    gfree(J, &S);
    free(hx), free(hW), free(hb), free(ref), free(got), free(x16), free(w16), free(q), free(sw);
    return rc;
}

static int layer_cases(jd *J, jd_tally *t, int kind, const char *tag)
{
    const layer_shape *sh = kind == K_BF16 ? BF16_SHAPES : SHAPES;
    const int n = kind == K_BF16 ? N_OF(BF16_SHAPES) : N_OF(SHAPES);
    for (int i = 0; i < n && !J->lost; i++) {
        wb_rng rng = wb_rng_for_seed(jd_seed, tag, i);
        if (layer_case(J, t, kind, sh[i], 0, &rng) < 0) return -1;
    }
    if (kind == K_F32 || kind == K_BF16)
        for (int i = 0; i < 2 && !J->lost; i++) {
            char tg[64];
            snprintf(tg, sizeof tg, "%s_nan_inf", tag);
            wb_rng rng = wb_rng_for_seed(jd_seed, tg, i);
            const layer_shape s = { 37, kind == K_BF16 ? 72 : 70, 50, i & 1 };
            if (layer_case(J, t, kind, s, 1, &rng) < 0) return -1;
        }
    return J->lost ? -1 : 0;
}

/* ---------------------------------------------------------------- softmax (w18.fp32) */

static int softmax_case(jd *J, jd_tally *t, int i)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w18_softmax", i);
    const int batch = SOFTMAX_SHAPES[i][0], classes = SOFTMAX_SHAPES[i][1];
    const size_t n = (size_t)batch * classes;
    float *hl = wb_hmalloc(n * 4 + 4), *gp = wb_hmalloc(n * 4 + 4);
    wb_fill_uniform_f32(&rng, hl, n, -8, 8);
    for (int r = 0; r < batch && r < 64; r++) {
        float *row = hl + (size_t)r * classes;
        int c = (int)wb_rng_int(&rng, 0, classes - 1);
        switch (r % 8) {
        case 1: row[c] = NAN; break;
        case 2: if (classes > 1) row[c] = -INFINITY; break;
        case 3: if (classes > 2) row[classes - 1] = row[c] = 9.5f; break;
        case 4: for (int k = 0; k < classes; k++) row[k] += (r & 16) ? 1e4f : -1e4f; break;
        default: break;
        }
    }
    double *rp = wb_hmalloc(n * 8 + 8);
    int32_t *rk = wb_hmalloc((size_t)batch * 4 + 4), *gk = wb_hmalloc((size_t)batch * 4 + 4);
    for (int r = 0; r < batch; r++) {
        const float *row = hl + (size_t)r * classes;
        int has_nan = 0, best = 0;
        for (int k = 0; k < classes; k++) has_nan |= isnan(row[k]);
        for (int k = 1; k < classes; k++) best = row[k] > row[best] ? k : best;
        double z = 0;
        for (int k = 0; k < classes; k++) z += exp((double)row[k] - row[best]);
        for (int k = 0; k < classes; k++) rp[(size_t)r * classes + k] = has_nan ? NAN : exp((double)row[k] - row[best]) / z;
        rk[r] = has_nan ? -1 : best;
    }
    unsigned char *sevens = wb_hmalloc((size_t)batch * 4 + 4);
    memset(sevens, 0x7f, (size_t)batch * 4 + 4);
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        char what[120];
        snprintf(what, sizeof what, "fp32_softmax_argmax%s batch=%d classes=%d", pass ? " probs=NULL" : "", batch,
                 classes);
        t->tests++;
        gset S = { .n = 0 };
        int err = 0;
        jd_gbuf *gl = gin(J, &S, hl, n * 4, t, &err), *gpb = pass ? NULL : gout(J, &S, n * 4, t, &err);
        jd_gbuf *gkb = gout(J, &S, (size_t)batch * 4, t, &err);
        if (!err && batch && jd_gbuf_put(gkb, 0, sevens, (size_t)batch * 4) != 0)
            err = 1, jd_failf(t, "%s: the judge's own copy failed", what);
        if (!err) {
            jd_gbuf *args[3] = { gl, gpb, gkb };
            const long long v[2] = { batch, classes };
            jd_rep rpl;
            const int st = gcall(J, W18_FN_SOFTMAX, args, 3, v, 2, &rpl, what, t);
            if (st < 0) rc = J->lost ? -1 : 0, err = 1;
            else if (st != 0) jd_failf(t, "%s: returned %s", what, status_name(st)), err = 1;
        }
        if (!err && !pass && jd_gbuf_fetch(gpb, 0, n * 4, gp, "probs", what, t) == 0 &&
            cmp_f32(gp, rp, n, 1e-6, 1e-5, "probs", what, t) != 0)
            err = 1;
        if (!err && jd_gbuf_fetch(gkb, 0, (size_t)batch * 4, gk, "pred", what, t) == 0)
            for (int r = 0; r < batch; r++)
                if (gk[r] != rk[r]) {
                    jd_failf(t, "%s: pred[%d] expected %d got %d", what, r, rk[r], gk[r]);
                    break;
                }
        gfree(J, &S);
    }
    free(hl), free(gp), free(rp), free(rk), free(gk), free(sevens);
    return rc;
}

static int f32_bad(jd *J, jd_tally *t)
{
    static const char *WHAT[] = { "fp32_linear must refuse batch < 0", "fp32_linear must refuse in == 0",
                                  "fp32_linear must refuse out == 0", "fp32_softmax_argmax must refuse classes == 0" };
    t->tests++;
    gset S = { .n = 0 };
    int err = 0, rc = 0;
    jd_gbuf *d = gout(J, &S, 256, t, &err);
    if (!err) {
        jd_rep rp;
        const int st = gcall(J, W18_FN_F32_BAD, &d, 1, NULL, 0, &rp, "bad sizes", t);
        if (st < 0) rc = J->lost ? -1 : 0;
        else if (rp.out_len < 16) jd_failf(t, "bad sizes: no answer from the runner");
        else {
            int s[4];
            memcpy(s, rp.out, sizeof s);
            for (int i = 0; i < 4; i++)
                if (s[i] == 0) {
                    jd_failf(t, "%s (it returned cudaSuccess)", WHAT[i]);
                    break;
                }
        }
    }
    gfree(J, &S);
    return rc;
}

/* ---------------------------------------------------------------- conversions (w18.fp16, w18.bf16) */

static int conv_case(jd *J, jd_tally *t, int bf16, int i)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, bf16 ? "judge_w18_bf16_convert" : "judge_w18_f16_convert", i);
    const size_t n = CONV_N[i];
    float *h = wb_hmalloc(n * 4 + 4);
    for (size_t j = 0; j < n; j++) {
        uint32_t u = (uint32_t)wb_rng_u64(&rng);
        float f;
        if (!bf16) {
            switch (j % 4) {
            case 0: memcpy(&f, &u, 4); break;
            case 1: f = (float)((wb_rng_unit(&rng) * 2 - 1) * 70000); break;
            case 2: f = (float)((wb_rng_unit(&rng) * 2 - 1) * 1e-4); break;
            default: f = wb_f16_to_f32((uint16_t)(u & 0x7bff)) + (u >> 31 ? 1 : -1) * ldexpf(1, -25); break;
            }
        } else {
            switch (j % 3) {
            case 0: memcpy(&f, &u, 4); break;
            case 1: f = (float)((wb_rng_unit(&rng) * 2 - 1) * 8); break;
            default: u = (u & 0xffff0000u) | 0x8000u, memcpy(&f, &u, 4); break;
            }
        }
        h[j] = f;
    }
    static const float SPECIAL16[] = { 0.f, -0.f, 65504.f, 65519.f, 65520.f, 1e9f, INFINITY, -INFINITY, NAN,
                                       0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f, 1.00048828125f, 1.00146484375f, 6e-8f };
    static const float SPECIALB[] = { 0.f, -0.f, 0x1.fep127f, 0x1.fefffep127f, 0x1.ffp127f, 0x1.ff0002p127f,
                                      INFINITY, -INFINITY, NAN, -NAN, 1.00390625f, 1.01171875f, 0x1p-133f,
                                      0x1.8p-134f, 1e-45f, 3.14159265f };
    const float *sp = bf16 ? SPECIALB : SPECIAL16;
    for (size_t j = 0; j < 16 && j < n; j++) h[j] = sp[j];
    const uint16_t ex = bf16 ? 0x7f80 : 0x7c00, man = (uint16_t)(ex - 1) & (uint16_t)~ex & 0x7fffu;
    const char *name = bf16 ? "bf16_from_f32" : "fp16_from_f32";
    char what[64];
    snprintf(what, sizeof what, "%s n=%zu", name, n);
    uint16_t *got = wb_hmalloc(n * 2 + 2);
    t->tests++;
    gset S = { .n = 0 };
    int err = 0, rc = 0;
    jd_gbuf *gs = gin(J, &S, h, n * 4, t, &err), *go = gout(J, &S, n * 2, t, &err);
    if (!err) {
        jd_gbuf *args[2] = { gs, go };
        const long long v[1] = { (long long)n };
        jd_rep rp;
        const int st = gcall(J, bf16 ? W18_FN_BF16_CONV : W18_FN_F16_CONV, args, 2, v, 1, &rp, what, t);
        if (st < 0) rc = J->lost ? -1 : 0;
        else if (st != 0) jd_failf(t, "%s: returned %s", what, status_name(st));
        else if (jd_gbuf_fetch(go, 0, n * 2, got, name, what, t) == 0) {
            size_t bad = 0, first = 0;
            for (size_t j = 0; j < n; j++) {
                const uint16_t want = bf16 ? wb_f32_to_bf16(h[j]) : wb_f32_to_f16(h[j]);
                const int ok = isnan(h[j]) ? ((got[j] & ex) == ex && (got[j] & man) != 0) : got[j] == want;
                if (!ok && bad++ == 0) first = j;
            }
            if (bad)
                jd_failf(t, "%s: %zu of %zu wrong; [%zu] = %.9g (%a) gave 0x%04x, expected 0x%04x", what, bad, n,
                         first, (double)h[first], (double)h[first], got[first],
                         (unsigned)(bf16 ? wb_f32_to_bf16(h[first]) : wb_f32_to_f16(h[first])));
        }
    }
    gfree(J, &S);
    free(h), free(got);
    return rc;
}

/* ---------------------------------------------------------------- int8_quantize_rows (w18.int8) */

static int quant_case(jd *J, jd_tally *t, int i)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w18_quantize", i);
    const int rows = QROWS[i][0], cols = QROWS[i][1], ld = I8_LD(cols);
    const size_t nw = (size_t)rows * cols, nq = (size_t)rows * ld;
    float *hw = wb_hmalloc(nw * 4 + 4);
    wb_fill_uniform_f32(&rng, hw, nw, -2, 2);
    if (rows > 2) memset(hw + (size_t)2 * cols, 0, (size_t)cols * 4);
    if (rows > 1) hw[cols + (int)wb_rng_int(&rng, 0, cols - 1)] = 9.f;
    int8_t *rq = wb_hmalloc(nq + 4), *gq = wb_hmalloc(nq + 4);
    float *rs = wb_hmalloc((size_t)rows * 4 + 4), *gs = wb_hmalloc((size_t)rows * 4 + 4);
    quantize_weights_ref(hw, rows, cols, rq, rs);
    char what[96];
    snprintf(what, sizeof what, "int8_quantize_rows rows=%d cols=%d", rows, cols);
    t->tests++;
    gset S = { .n = 0 };
    int err = 0, rc = 0;
    jd_gbuf *gwb = gin(J, &S, hw, nw * 4, t, &err), *gqb = gout(J, &S, nq, t, &err);
    jd_gbuf *gsb = gout(J, &S, (size_t)rows * 4, t, &err);
    if (!err) {
        jd_gbuf *args[3] = { gwb, gqb, gsb };
        const long long v[2] = { rows, cols };
        jd_rep rp;
        const int st = gcall(J, W18_FN_I8_QUANT, args, 3, v, 2, &rp, what, t);
        if (st < 0) rc = J->lost ? -1 : 0;
        else if (st != 0) jd_failf(t, "%s: returned %s", what, status_name(st));
        else if (jd_gbuf_fetch(gsb, 0, (size_t)rows * 4, gs, "scale", what, t) == 0 &&
                 jd_gbuf_fetch(gqb, 0, nq, gq, "q", what, t) == 0) {
            int done = 0;
            for (int r = 0; r < rows && !done; r++)
                if (!wb_close(gs[r], rs[r], 0, 0))
                    done = 1, jd_failf(t, "%s: scale[%d] expected %.9g got %.9g", what, r, (double)rs[r], (double)gs[r]);
            for (size_t j = 0; j < nq && !done; j++)
                if (gq[j] != rq[j])
                    done = 1, jd_failf(t, "%s: q[%zu][%zu] = %d, expected %d (w = %.9g, padding columns are 0)", what,
                                       j / ld, j % ld, gq[j], rq[j],
                                       (j % ld) < (size_t)cols ? (double)hw[(j / ld) * cols + j % ld] : 0.0);
        }
    }
    gfree(J, &S);
    free(hw), free(rq), free(gq), free(rs), free(gs);
    return rc;
}

/* ---------------------------------------------------------------- bf16_linear's refusals (w18.bf16) */

static int bf16_refusals(jd *J, jd_tally *t)
{
    static const char *WHAT[] = { "in = 12, not a multiple of 8", "x 2 bytes past a 16-byte boundary",
                                  "W 8 bytes past a 16-byte boundary", "batch < 0", "in = 0", "out = 0" };
    const char *what = "bf16_linear after refused calls and batch 0";
    t->tests++;
    gset S = { .n = 0 };
    int err = 0, rc = 0;
    unsigned char *h = wb_hmalloc(1 << 16);
    memset(h, 0, 1 << 16);
    jd_gbuf *gd = gin(J, &S, h, 1 << 16, t, &err), *gb = gin(J, &S, h, 1024, t, &err);
    jd_gbuf *gy = gout(J, &S, 16 * 16 * 4, t, &err);
    if (!err) {
        jd_gbuf *args[3] = { gd, gb, gy };
        jd_rep rp;
        const int st = gcall(J, W18_FN_BF16_BAD, args, 3, NULL, 0, &rp, what, t);
        if (st < 0) rc = J->lost ? -1 : 0;
        else if (rp.out_len < 28) jd_failf(t, "%s: no answer from the runner", what);
        else {
            int s[7], done = 0;
            memcpy(s, rp.out, sizeof s);
            for (int i = 0; i < 6 && !done; i++)
                if (s[i] != (int)cudaErrorInvalidValue)
                    done = 1, jd_failf(t, "bf16_linear with %s must give cudaErrorInvalidValue, got %s", WHAT[i],
                                       status_name(s[i]));
            if (!done && s[6] != 0) done = 1, jd_failf(t, "bf16_linear: batch 0 must succeed, got %s", status_name(s[6]));
            if (!done && jd_gbuf_fetch(gy, 0, 16 * 16 * 4, h, "y", what, t) == 0)
                for (int i = 0; i < 16 * 16 * 4; i++)
                    if (h[i] != 0xFF) {
                        jd_failf(t, "bf16_linear: a refused call (or batch 0) wrote y[%d]", i / 4);
                        break;
                    }
        }
    }
    gfree(J, &S);
    free(h);
    return rc;
}

/* ---------------------------------------------------------------- the correctness checkpoints */

static void judge_fp32(jd_ck *k)
{
    if (layer_cases(k->J, k->t, K_F32, "judge_w18_fp32") < 0) return;
    for (int i = 0; i < N_OF(SOFTMAX_SHAPES) && !k->J->lost; i++)
        if (softmax_case(k->J, k->t, i) < 0) return;
    if (!k->J->lost) f32_bad(k->J, k->t);
}

static void judge_fp16(jd_ck *k)
{
    for (int i = 0; i < N_OF(CONV_N) && !k->J->lost; i++)
        if (conv_case(k->J, k->t, 0, i) < 0) return;
    layer_cases(k->J, k->t, K_F16, "judge_w18_fp16");
}

static void judge_int8(jd_ck *k)
{
    for (int i = 0; i < N_OF(QROWS) && !k->J->lost; i++)
        if (quant_case(k->J, k->t, i) < 0) return;
    layer_cases(k->J, k->t, K_I8, "judge_w18_int8");
}

static void judge_bf16(jd_ck *k)
{
    for (int i = 0; i < N_OF(CONV_N) && !k->J->lost; i++)
        if (conv_case(k->J, k->t, 1, i) < 0) return;
    if (layer_cases(k->J, k->t, K_BF16, "judge_w18_bf16") < 0) return;
    if (!k->J->lost) bf16_refusals(k->J, k->t);
}

/* ================================================================ the two speed checkpoints */

enum { LS_BATCH = 32768, LS_IN = 1024, LS_OUT = 1024, TIMED = 7, BENCH_MAX_K = 32 };

/* a rep's three draws from its hidden seed */
static void seeds_of(unsigned long long seed, unsigned long long *sx, unsigned long long *sw, unsigned long long *sb)
{
    *sx = seed, *sw = jd_mix(seed ^ 0x57), *sb = jd_mix(seed ^ 0x5b);
}

static int is_bf16(const jd_bench *b) { return (int)b->i64[4]; }

static void fill_in(const jd_bench *b, void *in, unsigned long long seed)
{
    unsigned long long sx, sw, sb;
    seeds_of(seed, &sx, &sw, &sb);
    (void)jd_w18_fill(in, is_bf16(b), LS_BATCH, LS_IN, LS_OUT, sx, sw, sb, 0);
}

/* output i of a rep: ReLU(x W^T + b) at row i / out, column i % out, in double */
static float at_expect(const jd_bench *b, const unsigned long long *seed, size_t i)
{
    unsigned long long sx, sw, sb;
    seeds_of(seed[0], &sx, &sw, &sb);
    const int bf = is_bf16(b);
    const size_t r = i / LS_OUT, o = i % LS_OUT;
    double s = wb_hash_uniform_f32(sb, o, -JD_W18_BR, JD_W18_BR);
    for (size_t k = 0; k < LS_IN; k++)
        s += (double)jd_w18_draw(sx, r * LS_IN + k, JD_W18_XR, bf) * jd_w18_draw(sw, o * LS_IN + k, JD_W18_WR, bf);
    return (float)(s < 0 ? 0 : s);
}

/* The judge's own copies of one rep's inputs (device memory the runner never sees). */
static struct {
    float             *x, *w, *b;
    unsigned long long seed;
    int                have, bf16;
} g_ref;

static void ref_release(void)
{
    if (g_ref.x) cudaFree(g_ref.x);
    if (g_ref.w) cudaFree(g_ref.w);
    if (g_ref.b) cudaFree(g_ref.b);
    memset(&g_ref, 0, sizeof g_ref);
}

static int full_check(const jd_bench *b, const float *out, const unsigned long long *seed, unsigned long long *bad,
                      unsigned long long h[2])
{
    const int bf = is_bf16(b);
    if ((!g_ref.x && cudaMalloc((void **)&g_ref.x, (size_t)LS_BATCH * LS_IN * 4) != cudaSuccess) ||
        (!g_ref.w && cudaMalloc((void **)&g_ref.w, (size_t)LS_OUT * LS_IN * 4) != cudaSuccess) ||
        (!g_ref.b && cudaMalloc((void **)&g_ref.b, (size_t)LS_OUT * 4) != cudaSuccess))
        return -1;
    if (!g_ref.have || g_ref.seed != seed[0] || g_ref.bf16 != bf) {
        unsigned long long sx, sw, sb;
        seeds_of(seed[0], &sx, &sw, &sb);
        g_ref.have = 0;
        if (jd_w18_fill_ref(g_ref.x, g_ref.w, g_ref.b, bf, LS_BATCH, LS_IN, LS_OUT, sx, sw, sb, jd_stream) !=
            cudaSuccess)
            return -1;
        g_ref.have = 1, g_ref.seed = seed[0], g_ref.bf16 = bf;
    }
    return jd_full_check_done(jd_w18_check(out, g_ref.x, g_ref.w, g_ref.b, LS_BATCH, LS_IN, LS_OUT, b->atol, b->rtol,
                                           bad, jd_stream),
                              bad, h);
}

static void speed_bench(jd_bench *x, int bf16)
{
    memset(x, 0, sizeof *x);
    x->fn = bf16 ? W18_FN_TIMED_BF16 : W18_FN_TIMED_F32, x->n_in = 1, x->max_k = BENCH_MAX_K;
    x->n = (size_t)LS_BATCH * LS_OUT;
    x->in_bytes = W18_IN_BYTES(bf16 ? 2 : 4, LS_BATCH, LS_IN, LS_OUT);
    x->fill = fill_in;
    x->atol = bf16 ? bf16_atol(LS_IN, JD_W18_XR, JD_W18_WR) : 1e-4;
    x->rtol = bf16 ? BF16_RTOL : 1e-4;
    x->i64[1] = LS_BATCH, x->i64[2] = LS_IN, x->i64[3] = LS_OUT, x->i64[4] = bf16;
    x->expect = at_expect, x->full_check = full_check;
    x->fn_name = bf16 ? "bf16_linear" : "fp32_linear", x->out_name = "y";
}

static jd_bench g_bench, g_yard_b; /* large: their sample arrays */
static double g_lt_before[2] = { NAN, NAN };
static char g_lt_before_why[2][600];

static void lt_before(int bf16)
{
    speed_bench(&g_yard_b, bf16);
    if (jd_yard_bench(W18_YARD_RUNNER, &g_yard_b, TIMED, &g_lt_before[bf16], g_lt_before_why[bf16],
                      sizeof g_lt_before_why[bf16]) != 0)
        g_lt_before[bf16] = NAN;
    ref_release();
}
static void lt_before_f32(void) { lt_before(0); }
static void lt_before_bf16(void) { lt_before(1); }

static void judge_speed(jd_ck *k, int bf16)
{
    const double flops = 2.0 * LS_BATCH * LS_IN * LS_OUT;
    double ms = NAN, after = NAN, value = NAN, yard = NAN;
    char why[700] = "", w[600] = "", detail[300] = "";
    const char *name = bf16 ? "bf16_linear" : "fp32_linear", *lt = bf16 ? "cuBLASLt BF16" : "cuBLASLt FP32";
    speed_bench(&g_bench, bf16);
    if (jd_bench_run(k->J, &g_bench, TIMED, &ms, w, sizeof w) != 0) {
        snprintf(why, sizeof why, "%s %d x %d -> %d: %s", name, LS_BATCH, LS_IN, LS_OUT, w);
        goto done;
    }
    value = flops / (ms * 1e-3) / 1e12;
    speed_bench(&g_yard_b, bf16);
    const double lms = jd_yard_faster(W18_YARD_RUNNER, &g_yard_b, TIMED, g_lt_before[bf16], g_lt_before_why[bf16],
                                      &after, w, sizeof w);
    printf("  %d x %d -> %d, ReLU: %s %.4f ms a call, %s %.4f (before the runner %.4f, after %.4f), by the judge's "
           "clock\n", LS_BATCH, LS_IN, LS_OUT, name, ms, lt, lms, g_lt_before[bf16], after);
    if (!(lms > 0)) { /* the test: an invalid yardstick makes the student's row invalid */
        snprintf(why, sizeof why, "the cuBLASLt yardstick gave no valid figure (%s, RELU_BIAS epilogue): %s", lt, w);
        goto done;
    }
    yard = flops / (lms * 1e-3) / 1e12;
    snprintf(detail, sizeof detail, "layer %d x %d -> %d, ReLU%s: %.1f TFLOP/s vs %s (RELU_BIAS epilogue) %.1f",
             LS_BATCH, LS_IN, LS_OUT, bf16 ? ", BF16 in, FP32 out" : "", value, lt, yard);
done:
    ref_release();
    jd_speed_result(k->R, k->t, k->c, k->gpu, why[0] ? NAN : value, "TFLOP/s", "cuBLASLt", yard, detail, why);
}
static void judge_layer_speed(jd_ck *k) { judge_speed(k, 0); }
static void judge_bf16_speed(jd_ck *k) { judge_speed(k, 1); }

static const jd_checkpoint CPS[] = {
    { "w18.fp32", judge_fp32, NULL, 0, 0, NULL },
    { "w18.fp16", judge_fp16, NULL, 0, 0, NULL },
    { "w18.int8", judge_int8, NULL, 0, 0, NULL },
    { "w18.layer-speed", judge_layer_speed, NULL, 0, 0, lt_before_f32 },
    { "w18.bf16", judge_bf16, NULL, 0, 0, NULL },
    { "w18.bf16-speed", judge_bf16_speed, NULL, 0, 0, lt_before_bf16 },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w18", "phase4/week18", CPS, N_OF(CPS));
}
