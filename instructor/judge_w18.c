/* judge_w18.c — build/instructor/judge-w18: week 18's judge (instructor/
 * README.md, "The judge and the runner"). Used by the grader since
 * 2026-11-29 (JUDGED_WEEKS), after it ran on an H200. It links no student code:
 * the student's model_io.o, fp32.o, fp16.o, int8.o, plan.o and bf16.o are
 * linked into the runner (judge_w18_runner.c), which this process starts
 * (or is handed) and asks to call them on buffers it allocated
 * (judge.h). It poisons, fills, times and checks, and writes the results
 * record itself, outside the runner's reach. The command line, the runner's start, the record, the
 * guarded buffers and the timed-call protocol are judge_week.c's:
 *
 *   judge-w18 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases are test_week18.c's, COPIED here (the test has no shared
 * header, and the judge, written staged, left the week's test as it is): the same
 * shapes, draws (ranges and order, from the class seed with the judge's
 * own tags, wb_rng_for_seed), edge values and tolerances, the CPU
 * references the test's (double sums; the INT8 layer int8.h's definition
 * step by step in float; the whole model as its model_ref). Every output
 * sits in a guarded byte buffer (jd_gbuf: poisoned 0xFF, the bands around
 * it checked untouched), every element against the reference within atol
 * + rtol |ref|, NaN where NaN is due (the poison left there counted as not
 * written), integer and 16-bit outputs exactly:
 *   w18.load        a CPU checkpoint, on host memory both processes map
 *                   (judged with or without a GPU; without one the runner
 *                   opens none): the shipped mlp_digits.bin and
 *                   digits_test.bin (read by the judge from --week-dir's
 *                   data/, handed to the student's loaders through files of
 *                   the runner's own in its $TMPDIR) loaded exactly (3
 *                   layers of 64 128 64 10, every weight and bias as the
 *                   file's bits, x = byte / 255.0f, the labels), the model
 *                   empty after model_io_mlp_free; the test's load_checks 4
 *                   times: a valid random model of 1-4 layers exactly, its
 *                   12 damaged copies (magic, version, 0 and 9 layers, a
 *                   dimension 0 or past MLP_MAX_DIM, a byte short or too
 *                   many, a NaN weight, an infinite bias, an empty file,
 *                   huge dimensions in a small file) and a missing file
 *                   refused (-1, a reason in err, the model left empty); a
 *                   valid random digits set exactly, its 8 damaged copies
 *                   (with the size that matches only in 32 bits) refused;
 *   w18.model       a CPU checkpoint: the test's model_accuracy_cpu on what
 *                   the student's loaders read from the shipped files (the
 *                   FP32 model 1906 of 2000 right; the FP16, INT8 and BF16
 *                   emulations within 0.02 / 0.10, 0.60 / 0.50 and 0.20 /
 *                   0.25 points), the judge's own arithmetic;
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
 *   w18.fp32-model, w18.fp16-model, w18.int8-model
 *                   the model the student's loaders read (as the test's:
 *                   a loader that fails FAILs these too) through
 *                   plan_mlp_forward in that precision on the 2000
 *                   held-out digits: the runner builds mlp_dev from one
 *                   parameter buffer of the judge's (each W and b at a
 *                   256-byte place, as separate cudaMallocs) and, for FP16
 *                   and INT8, has the student's fp16_from_f32 and
 *                   int8_quantize_rows make the converted weights first, as
 *                   the test's dev_model_make; the workspace exactly
 *                   plan_mlp_bytes (1024 bytes a sample), guarded, as are
 *                   the logits and pred (preset 0x7f): FP32 logits within
 *                   1e-4 of the CPU and 1906 right; FP16 and INT8 every
 *                   logit finite and within 0.02 / 0.60 of the CPU's FP32,
 *                   at most 0.10 / 0.50 points dropped; every pred the
 *                   argmax of its logits;
 *   w18.fp16        fp16_from_f32 on the test's 4 sizes (0 to 2^20: any bit
 *                   pattern, values around 65504, subnormal halves, near
 *                   ties, its 16 special values) bit for bit (any half NaN
 *                   for a NaN); fp16_linear on the 12 SHAPES with W as half
 *                   bits, against double over the rounded weights, 1e-4;
 *   w18.int8        int8_quantize_rows on the test's 7 shapes (a zero row,
 *                   one large weight), q and the scales exactly, the
 *                   padding columns 0; int8_linear on the 12 SHAPES (a
 *                   zero row of x) against int8.h's definition at 1e-5;
 *   w18.plan        plan_mlp_bytes's formula (the shipped model at 65536,
 *                   1 and 0, a one-layer model, 100 random models; a CPU
 *                   function through the runner, so its FAIL stands without
 *                   a GPU), then the test's plan_forward on its 4 random
 *                   models: a workspace 4 bytes short and precision 7
 *                   refused (cudaErrorInvalidValue), batch 0 succeeding,
 *                   the logits untouched after them; then the forward pass
 *                   through a guarded workspace of exactly the plan: its
 *                   bands untouched, the last two hidden layers in buffers
 *                   l % 2 (A at the workspace, B at its half), the logits
 *                   at 1e-4, every pred the argmax of its logits;
 *   w18.bf16        bf16_from_f32 on the test's 4 sizes (any bit pattern,
 *                   ordinary values, exact ties, its 16 specials) bit for
 *                   bit; bf16_linear on the test's 12 BF16_SHAPES against
 *                   double over the rounded inputs at in 2^-19 |x|max
 *                   |w|max + 2^-19 |ref|; the two NaN / Inf cases (37 x 72
 *                   -> 50); the six refusals (cudaErrorInvalidValue) and
 *                   batch 0 (cudaSuccess), y untouched after them;
 *   w18.bf16-model  the test's run_held_out_bf16 in the runner (x and each
 *                   layer's weights through bf16_from_f32, bf16_linear into
 *                   a buffer of the judge's, the hidden output converted
 *                   back) on the model the student's loaders read, the
 *                   logits guarded: every logit finite and within 0.20 of
 *                   the CPU's FP32, at most 0.25 points dropped;
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
 * Left to the linked test (not listed: the grader runs it in the week's
 * test program and says so): w18.throughput, a sweep of samples per second
 * against batch size that writes a CSV and a plot into the student's build
 * folder (files the student's run writes; a report with no target, whose
 * timed outputs are right when w18.fp32-model, w18.fp16-model and
 * w18.int8-model pass here).
 * Without a GPU the plumbing is tested by instructor/tests/judge_w18.sh
 * (w18.load and w18.model PASS for the reference and FAIL for the
 * starter, w18.plan SKIP and FAIL, every GPU checkpoint SKIP, never PASS;
 * calibration says the two speed checkpoints were not run), and the
 * class of two graded with --judge 1 and without gives the same cells. Run
 * on an H200 (2026-11-29), alone, plain and sandboxed: the reference
 * PASSed all thirteen (w18.layer-speed 0.469 of cuBLASLt against 0.42,
 * plain and sandboxed; w18.bf16-speed 0.336 plain and 0.330 sandboxed
 * against 0.29; the linked test in the same session 0.465 and 0.303), the
 * starter FAILed all thirteen; through the grader (JUDGE=1, with weeks 14
 * and 58) the reference full marks in every cell the judge forms. */
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
#include "wb_file.h"
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

/* ================================================================ w18.load and w18.model (CPU) */

static const char *g_week_dir = "phase4/week18";

enum { HELD_OUT_N = 2000, HELD_OUT_CORRECT = 1906 };
static const int SHIPPED_DIMS[] = { 64, 128, 64, 10 };
#define FP16_LOGIT_TOL 0.02
#define FP16_MAX_DROP  0.10
#define INT8_LOGIT_TOL 0.60
#define INT8_MAX_DROP  0.50
#define BF16_LOGIT_TOL 0.20
#define BF16_MAX_DROP  0.25
enum { BAD_MODELS = 12, BAD_DIGITS = 8, LOAD_RUNS = 4 };
enum { MLP_MAX_DIM_ = 4096 }; /* model_io.h's MLP_MAX_DIM */

/* The host buffers both processes map: a file's bytes, the values read, the labels read. */
#define ROOM_BYTES  ((size_t)2 << 20)
#define ROOM_VALS   ((size_t)1 << 18)
#define ROOM_LABELS ((size_t)1 << 16)
typedef struct {
    jd            *J;
    int            ib, iv, il;
    unsigned char *bytes;
    float         *vals;
    uint8_t       *labels;
} ld_room;

static int room_alloc(jd *J, ld_room *P, jd_tally *t)
{
    memset(P, 0, sizeof *P);
    P->J = J, P->ib = P->iv = P->il = -1;
    P->ib = jd_alloc_kind(J, JD_MEM_HOST, ROOM_BYTES, (void **)&P->bytes);
    if (P->ib >= 0) P->iv = jd_alloc_kind(J, JD_MEM_HOST, ROOM_VALS * 4, (void **)&P->vals);
    if (P->iv >= 0) P->il = jd_alloc_kind(J, JD_MEM_HOST, ROOM_LABELS, (void **)&P->labels);
    if (P->il < 0) return jd_failf(t, "buffers: %s", J->why), -1;
    return 0;
}

static void room_free(ld_room *P)
{
    if (P->il >= 0) jd_free(P->J, P->il);
    if (P->iv >= 0) jd_free(P->J, P->iv);
    if (P->ib >= 0) jd_free(P->J, P->ib);
}

/* A loader (fn W18_FN_MLP_LOAD or W18_FN_DIGITS_LOAD) on len bytes (len < 0: a file that does not exist)
 * through a file of the runner's: 0 and *r, or -1 (t says why). */
static int load_call(ld_room *P, int fn, const unsigned char *bytes, long long len, w18_load_rep *r, jd_tally *t)
{
    const char *name = fn == W18_FN_MLP_LOAD ? "model_io_mlp_load" : "model_io_digits_load";
    if (len > (long long)ROOM_BYTES) return jd_failf(t, "%s: a file of %lld bytes is past the judge's room", name, len), -1;
    if (len > 0) memcpy(P->bytes, bytes, (size_t)len);
    memset(P->vals, 0xA5, ROOM_VALS * 4);
    memset(P->labels, 0xA5, ROOM_LABELS);
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, fn, 1, 3);
    rq.arg_buf[0][0] = P->ib, rq.arg_buf[0][1] = P->iv, rq.arg_buf[0][2] = P->il;
    rq.i64[1] = len, rq.i64[2] = (long long)ROOM_VALS, rq.i64[3] = (long long)ROOM_LABELS;
    if (jd_call(P->J, &rq, &rp, NULL) != 0) return jd_failf(t, "%s: %s", name, P->J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *r) return jd_failf(t, "%s: no answer from the runner", name), -1;
    memcpy(r, rp.out, sizeof *r);
    if (r->io_failed) return jd_failf(t, "%s: the runner could not write its file", name), -1;
    return 0;
}

static uint32_t le32_at(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void le32_put(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static float lef_at(const unsigned char *p)
{
    uint32_t u = le32_at(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* test_week18.c's model_image and digits_image */
static unsigned char *model_image(wb_rng *rng, int L, const int *dims, size_t *len)
{
    size_t params = 0;
    for (int l = 0; l < L; l++) params += (size_t)dims[l + 1] * (dims[l] + 1);
    size_t head = 16 + 4 * (size_t)(L + 1);
    *len = head + 4 * params;
    unsigned char *img = wb_hmalloc(*len);
    memcpy(img, "WB18MLP", 8);
    le32_put(img + 8, 1);
    le32_put(img + 12, (uint32_t)L);
    for (int l = 0; l <= L; l++) le32_put(img + 16 + 4 * l, (uint32_t)dims[l]);
    for (size_t i = 0; i < params; i++) {
        float v = (float)(wb_rng_unit(rng) * 2 - 1);
        uint32_t u;
        memcpy(&u, &v, 4);
        le32_put(img + head + 4 * i, u);
    }
    return img;
}

static unsigned char *digits_image(wb_rng *rng, int n, int rows, int cols, size_t *len)
{
    size_t f = (size_t)rows * cols;
    *len = 24 + (size_t)n * (f + 1);
    unsigned char *img = wb_hmalloc(*len);
    memcpy(img, "WB18DIG", 8);
    le32_put(img + 8, 1), le32_put(img + 12, (uint32_t)n), le32_put(img + 16, (uint32_t)rows);
    le32_put(img + 20, (uint32_t)cols);
    for (size_t i = 0; i < (size_t)n * f; i++) img[24 + i] = (unsigned char)wb_rng_int(rng, 0, 255);
    for (int i = 0; i < n; i++) img[24 + (size_t)n * f + i] = (unsigned char)wb_rng_int(rng, 0, 9);
    return img;
}

/* The model the runner read back (r, P->vals) is exactly img's; 0, or 1 with t told. */
static int model_equals(const ld_room *P, const w18_load_rep *r, const unsigned char *img, const char *what,
                        jd_tally *t)
{
    if (r->rc != 0) return jd_failf(t, "model_io_mlp_load of %s: returned %d (refused it)", what, r->rc), 1;
    const int L = (int)le32_at(img + 12);
    if (r->n_layers != L) return jd_failf(t, "%s: n_layers %d, the file has %d", what, r->n_layers, L), 1;
    for (int l = 0; l <= L; l++)
        if (r->dims[l] != (int)le32_at(img + 16 + 4 * l))
            return jd_failf(t, "%s: dims[%d] = %d, the file has %u", what, l, r->dims[l], le32_at(img + 16 + 4 * l)), 1;
    if (r->null_array) return jd_failf(t, "%s: a W[l] or b[l] is NULL", what), 1;
    if (!r->copied) return jd_failf(t, "%s: the weights could not be read back", what), 1;
    const unsigned char *p = img + 16 + 4 * (L + 1);
    const float *v = P->vals;
    for (int l = 0; l < L; l++) {
        size_t nw = (size_t)r->dims[l + 1] * r->dims[l], bad = 0;
        for (size_t i = 0; i < nw; i++, p += 4) bad += *v++ != lef_at(p);
        for (int i = 0; i < r->dims[l + 1]; i++, p += 4) bad += *v++ != lef_at(p);
        if (bad) return jd_failf(t, "%s: %zu weights or biases of layer %d differ from the file", what, bad, l), 1;
    }
    if (!r->freed_empty) return jd_failf(t, "%s: model_io_mlp_free must leave the model empty", what), 1;
    return 0;
}

static int refused(const w18_load_rep *r, const char *fn, const char *what, jd_tally *t)
{
    if (r->rc == 0) return jd_failf(t, "%s accepted %s: it must return -1", fn, what), 1;
    if (!r->err_set) return jd_failf(t, "%s refused %s but wrote no reason into err", fn, what), 1;
    if (!r->empty) return jd_failf(t, "%s refused %s but left the %s non-empty", fn, what,
                                    strstr(fn, "mlp") ? "model" : "set"), 1;
    return 0;
}

static unsigned char *read_shipped(const char *name, size_t *len, jd_tally *t)
{
    char path[600];
    snprintf(path, sizeof path, "%s/data/%s", g_week_dir, name);
    unsigned char *img = (unsigned char *)wb_read_file(path, len);
    if (!img) jd_failf(t, "the judge cannot read %s", path);
    return img;
}

/* The shipped files loaded exactly (test_week18.c's load_shipped); on success the model's values in
 * P->vals and the set in P->vals / P->labels are the last call's: the digits'. 0, 1 (failed), -1. */
static int shipped_case(ld_room *P, jd_tally *t)
{
    t->tests++;
    size_t len;
    unsigned char *img = read_shipped("mlp_digits.bin", &len, t);
    if (!img) return -1;
    w18_load_rep r;
    int rc = load_call(P, W18_FN_MLP_LOAD, img, (long long)len, &r, t);
    if (rc == 0 && r.rc == 0 && (r.n_layers != 3 || memcmp(r.dims, SHIPPED_DIMS, sizeof SHIPPED_DIMS)))
        rc = 1, jd_failf(t, "the shipped model: %d layers, dims %d %d %d %d; expected 3 layers of 64 128 64 10",
                         r.n_layers, r.dims[0], r.dims[1], r.dims[2], r.dims[3]);
    if (rc == 0) rc = model_equals(P, &r, img, "the shipped mlp_digits.bin", t);
    free(img);
    if (rc) return rc;
    img = read_shipped("digits_test.bin", &len, t);
    if (!img) return -1;
    if ((rc = load_call(P, W18_FN_DIGITS_LOAD, img, (long long)len, &r, t)) == 0) {
        if (r.rc != 0) rc = 1, jd_failf(t, "model_io_digits_load of the shipped digits_test.bin: returned %d", r.rc);
        else if (r.n != HELD_OUT_N || r.features != 64)
            rc = 1, jd_failf(t, "digits_test.bin: n %d features %d, expected %d and 64", r.n, r.features, HELD_OUT_N);
        else if (r.null_array || !r.copied)
            rc = 1, jd_failf(t, "digits_test.bin: x or label NULL, or not read back");
        else {
            size_t bad = 0;
            for (size_t i = 0; i < (size_t)HELD_OUT_N * 64; i++) bad += P->vals[i] != img[24 + i] / 255.0f;
            for (int i = 0; i < HELD_OUT_N; i++) bad += P->labels[i] != img[24 + (size_t)HELD_OUT_N * 64 + i];
            if (bad)
                rc = 1, jd_failf(t, "digits_test.bin: %zu pixels or labels differ from the file (x = byte / 255.0f)",
                                 bad);
        }
    }
    free(img);
    return rc;
}

/* test_week18.c's load_checks, run i: a valid random model, its 12 damaged copies and a missing file; a
 * valid random set and its 8 damaged copies. 0, or -1 (runner lost). */
static int load_checks(ld_room *P, jd_tally *t, int run)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w18_load_checks", run);
    int L = (int)wb_rng_int(&rng, 1, 4), dims[5];
    for (int l = 0; l <= L; l++) dims[l] = (int)wb_rng_int(&rng, 1, 40);
    size_t len;
    unsigned char *img = model_image(&rng, L, dims, &len);
    const size_t head = 16 + 4 * (size_t)(L + 1);
    w18_load_rep r;
    char what[200];
    int rc = 0;
    t->tests++;
    snprintf(what, sizeof what, "a valid random %d-layer model", L);
    if (load_call(P, W18_FN_MLP_LOAD, img, (long long)len, &r, t) != 0) rc = -1;
    else if (model_equals(P, &r, img, what, t)) goto out;
    for (int c = 0; c < BAD_MODELS && rc == 0; c++) {
        unsigned char *b = wb_hmalloc(len + 128);
        memcpy(b, img, len);
        size_t n = len;
        const char *w = "";
        float nan = NAN, inf = INFINITY;
        switch (c) {
        case 0: b[3] ^= 0x20, w = "wrong magic"; break;
        case 1: le32_put(b + 8, 2), w = "version 2"; break;
        case 2: le32_put(b + 12, 0), w = "0 layers"; break;
        case 3: le32_put(b + 12, W18_MAX_LAYERS + 1), w = "too many layers"; break;
        case 4: le32_put(b + 16 + 4 * (size_t)wb_rng_int(&rng, 0, L), 0), w = "a dimension of 0"; break;
        case 5: le32_put(b + 16, MLP_MAX_DIM_ + 1), w = "a dimension past MLP_MAX_DIM"; break;
        case 6: n = len - 1, w = "one byte short"; break;
        case 7: b[len] = 0, n = len + 1, w = "one byte too many"; break;
        case 8: memcpy(b + head + 4 * (size_t)wb_rng_int(&rng, 0, (int64_t)(len - head) / 4 - 1), &nan, 4),
                w = "a NaN weight"; break;
        case 9: memcpy(b + len - 4, &inf, 4), w = "an infinite bias"; break;
        case 10: n = 0, w = "an empty file"; break;
        default:
            le32_put(b + 12, 2), le32_put(b + 16, 4096), le32_put(b + 20, 4096), le32_put(b + 24, 4096);
            n = 28 + 4 * 16, w = "huge dimensions in a small file";
            break;
        }
        snprintf(what, sizeof what, "a model file with %s", w);
        t->tests++;
        if (load_call(P, W18_FN_MLP_LOAD, b, (long long)n, &r, t) != 0) rc = -1;
        else if (refused(&r, "model_io_mlp_load", what, t)) c = BAD_MODELS;
        free(b);
        if (c == BAD_MODELS) goto out;
    }
    if (rc) goto out;
    t->tests++;
    if (load_call(P, W18_FN_MLP_LOAD, NULL, -1, &r, t) != 0) rc = -1;
    else if (refused(&r, "model_io_mlp_load", "a file that does not exist", t)) goto out;
    if (rc) goto out;

    int nd = (int)wb_rng_int(&rng, 1, 50), rows = (int)wb_rng_int(&rng, 1, 9), cols = (int)wb_rng_int(&rng, 1, 9);
    size_t dlen;
    unsigned char *dimg = digits_image(&rng, nd, rows, cols, &dlen);
    t->tests++;
    snprintf(what, sizeof what, "%d valid %d x %d samples", nd, rows, cols);
    if (load_call(P, W18_FN_DIGITS_LOAD, dimg, (long long)dlen, &r, t) != 0) rc = -1;
    else if (r.rc != 0) jd_failf(t, "model_io_digits_load of %s: returned %d", what, r.rc), rc = 1;
    else if (r.n != nd || r.features != rows * cols)
        jd_failf(t, "model_io_digits_load: n %d features %d, the file has %d and %d", r.n, r.features, nd, rows * cols),
            rc = 1;
    else if (r.null_array || !r.copied) jd_failf(t, "model_io_digits_load of %s: x or label NULL", what), rc = 1;
    else {
        size_t bad = 0;
        for (size_t i = 0; i < (size_t)nd * rows * cols; i++) bad += P->vals[i] != dimg[24 + i] / 255.0f;
        for (int i = 0; i < nd; i++) bad += P->labels[i] != dimg[dlen - nd + i];
        if (bad) jd_failf(t, "model_io_digits_load: %zu pixels or labels differ from the file", bad), rc = 1;
    }
    for (int c = 0; c < BAD_DIGITS && rc == 0; c++) {
        size_t wrap = 24 + ((size_t)1 << 20);
        unsigned char *b = wb_hmalloc((dlen > wrap ? dlen : wrap) + 1);
        memcpy(b, dimg, dlen);
        size_t n = dlen;
        const char *w = "";
        switch (c) {
        case 0: b[0] = 'X', w = "wrong magic"; break;
        case 1: le32_put(b + 8, 7), w = "version 7"; break;
        case 2: le32_put(b + 12, 0), w = "n = 0"; break;
        case 3: le32_put(b + 16, 65), w = "65 rows"; break;
        case 4: n = dlen - 1, w = "one byte short"; break;
        case 5: b[dlen] = 0, n = dlen + 1, w = "one byte too many"; break;
        case 6: b[dlen - 1 - (size_t)wb_rng_int(&rng, 0, nd - 1)] = 10, w = "a label of 10"; break;
        default:
            memset(b + 24, 0, wrap - 24);
            le32_put(b + 12, 1u << 20), le32_put(b + 16, 64), le32_put(b + 20, 64);
            n = wrap, w = "2^20 images of 64 x 64 in a 1 MiB file (a size that wraps in 32 bits)";
            break;
        }
        snprintf(what, sizeof what, "a digits file with %s", w);
        t->tests++;
        if (load_call(P, W18_FN_DIGITS_LOAD, b, (long long)n, &r, t) != 0) rc = -1;
        else if (refused(&r, "model_io_digits_load", what, t)) rc = 1;
        free(b);
    }
    free(dimg);
out:
    free(img);
    return rc < 0 ? -1 : 0;
}

static void judge_load(jd *J, jd_tally *t)
{
    ld_room P;
    if (room_alloc(J, &P, t) == 0) {
        int rc = shipped_case(&P, t);
        for (int i = 0; i < LOAD_RUNS && rc >= 0 && !J->lost; i++) rc = load_checks(&P, t, i);
    }
    room_free(&P);
}
static void judge_load_gpu(jd_ck *k) { judge_load(k->J, k->t); }

/* ---------------------------------------------------------------- w18.model: the test's CPU model */

typedef struct {
    int          n_layers, dims[W18_MAX_LAYERS + 1];
    const float *W[W18_MAX_LAYERS], *b[W18_MAX_LAYERS];
} cpu_model;

enum { P_FP32, P_FP16, P_INT8, P_BF16 };

/* test_week18.c's model_ref: each layer's output kept in float; FP16 rounds the weights, INT8 quantises
 * them and runs int8.h's layer, BF16 rounds each layer's input and weights to bfloat16 */
static void model_ref(const cpu_model *m, int prec, const float *x, int n, float *logits)
{
    int L = m->n_layers, widest = 1;
    for (int l = 0; l <= L; l++) widest = m->dims[l] > widest ? m->dims[l] : widest;
    float *a = wb_hmalloc((size_t)n * widest * 4), *c = wb_hmalloc((size_t)n * widest * 4);
    double *y = wb_hmalloc((size_t)n * widest * 8);
    memcpy(a, x, (size_t)n * m->dims[0] * 4);
    for (int l = 0; l < L; l++) {
        int in = m->dims[l], out = m->dims[l + 1], relu = l < L - 1;
        size_t nw = (size_t)out * in;
        if (prec == P_INT8) {
            int8_t *q = wb_hmalloc((size_t)out * I8_LD(in));
            float *s = wb_hmalloc((size_t)out * 4);
            quantize_weights_ref(m->W[l], out, in, q, s);
            layer_ref_i8(a, q, s, m->b[l], y, n, in, out, relu);
            for (size_t i = 0; i < (size_t)n * out; i++) c[i] = (float)y[i];
            free(q), free(s);
        } else {
            const float *W = m->W[l];
            float *Wh = NULL;
            if (prec == P_FP16) {
                Wh = wb_hmalloc(nw * 4);
                for (size_t i = 0; i < nw; i++) Wh[i] = wb_f16_to_f32(wb_f32_to_f16(m->W[l][i]));
                W = Wh;
            }
            if (prec == P_BF16) {
                Wh = wb_hmalloc(nw * 4);
                for (size_t i = 0; i < nw; i++) Wh[i] = wb_bf16_to_f32(wb_f32_to_bf16(m->W[l][i]));
                for (size_t i = 0; i < (size_t)n * in; i++) a[i] = wb_bf16_to_f32(wb_f32_to_bf16(a[i]));
                W = Wh;
            }
            layer_ref(a, W, m->b[l], y, n, in, out, relu);
            for (size_t i = 0; i < (size_t)n * out; i++) c[i] = (float)y[i];
            free(Wh);
        }
        float *tmp = a;
        a = c, c = tmp;
    }
    memcpy(logits, a, (size_t)n * m->dims[L] * 4);
    free(a), free(c), free(y);
}

static int argmax_row(const float *v, int n)
{
    int best = 0;
    for (int c = 1; c < n; c++)
        if (v[c] > v[best]) best = c;
    return best;
}

static int count_correct(const float *logits, const uint8_t *label, int n)
{
    int ok = 0;
    for (int i = 0; i < n; i++) ok += argmax_row(logits + (size_t)i * 10, 10) == label[i];
    return ok;
}

static double max_abs_diff(const float *a, const float *b, size_t n)
{
    double d = 0;
    for (size_t i = 0; i < n; i++) d = fabs((double)a[i] - b[i]) > d ? fabs((double)a[i] - b[i]) : d;
    return d;
}

/* The shipped model and held-out set as the student's loaders read them (the test's load_shipped). */
typedef struct {
    cpu_model m;
    float    *params, *x;
    uint8_t  *label;
    int       n, features;
} shipped;

static void shipped_free(shipped *S)
{
    free(S->params), free(S->x), free(S->label);
    memset(S, 0, sizeof *S);
}

/* 0, 1 (the loaders failed: t told) or -1 (the runner or the judge failed: t told). */
static int shipped_load(jd *J, jd_tally *t, shipped *S)
{
    memset(S, 0, sizeof *S);
    ld_room P;
    int rc = -1;
    if (room_alloc(J, &P, t) != 0) goto out;
    size_t len;
    unsigned char *img = read_shipped("mlp_digits.bin", &len, t);
    if (!img) goto out;
    w18_load_rep rm, rd;
    int lc = load_call(&P, W18_FN_MLP_LOAD, img, (long long)len, &rm, t);
    free(img);
    if (lc) goto out;
    rc = 1;
    if (rm.rc != 0 || !rm.copied || rm.null_array) {
        jd_failf(t, "model_io_mlp_load(%s/data/mlp_digits.bin): returned %d%s", g_week_dir, rm.rc,
                 rm.rc == 0 ? ", its arrays not readable" : "");
        goto out;
    }
    size_t nparam = 0;
    for (int l = 0; l < rm.n_layers; l++) nparam += (size_t)rm.dims[l + 1] * (rm.dims[l] + 1);
    S->params = wb_hmalloc(nparam * 4 + 4);
    memcpy(S->params, P.vals, nparam * 4);
    img = read_shipped("digits_test.bin", &len, t);
    if (!img) goto fail;
    lc = load_call(&P, W18_FN_DIGITS_LOAD, img, (long long)len, &rd, t);
    free(img);
    if (lc) goto fail;
    if (rd.rc != 0 || !rd.copied || rd.null_array) {
        jd_failf(t, "model_io_digits_load(%s/data/digits_test.bin): returned %d%s", g_week_dir, rd.rc,
                 rd.rc == 0 ? ", its arrays not readable" : "");
        goto out;
    }
    if (!(rm.n_layers == 3 && rm.dims[0] == rd.features && rm.dims[3] == 10)) {
        jd_failf(t, "the shipped model and held-out set do not fit together (n_layers %d, inputs %d, features %d)",
                 rm.n_layers, rm.dims[0], rd.features);
        goto out;
    }
    S->m.n_layers = rm.n_layers;
    memcpy(S->m.dims, rm.dims, sizeof S->m.dims);
    const float *p = S->params;
    for (int l = 0; l < S->m.n_layers; l++)
        S->m.W[l] = p, p += (size_t)S->m.dims[l + 1] * S->m.dims[l], S->m.b[l] = p, p += S->m.dims[l + 1];
    S->n = rd.n, S->features = rd.features;
    S->x = wb_hmalloc((size_t)S->n * S->features * 4 + 4);
    S->label = wb_hmalloc((size_t)S->n + 1);
    memcpy(S->x, P.vals, (size_t)S->n * S->features * 4), memcpy(S->label, P.labels, (size_t)S->n);
    rc = 0;
    goto out;
fail:
    rc = -1;
out:
    room_free(&P);
    if (rc) shipped_free(S);
    return rc;
}

/* test_week18.c's model_accuracy_cpu on what the student's loaders read from the shipped files. */
static void judge_model(jd *J, jd_tally *t)
{
    shipped S;
    t->tests++;
    if (shipped_load(J, t, &S) != 0) return;
    const int n = S.n;
    float *l32 = wb_hmalloc((size_t)n * 40), *lq = wb_hmalloc((size_t)n * 40);
    model_ref(&S.m, P_FP32, S.x, n, l32);
    const int ok32 = count_correct(l32, S.label, n);
    printf("  CPU FP32: %d of %d held-out digits right (%.2f %%)\n", ok32, n, 100.0 * ok32 / n);
    if (ok32 != HELD_OUT_CORRECT)
        jd_failf(t, "the FP32 model gets %d of %d right on the CPU; the week states %d", ok32, n, HELD_OUT_CORRECT);
    const struct { int prec; const char *name; double tol, drop; } PR[] = {
        { P_FP16, "FP16", FP16_LOGIT_TOL, FP16_MAX_DROP },
        { P_INT8, "INT8", INT8_LOGIT_TOL, INT8_MAX_DROP },
        { P_BF16, "BF16", BF16_LOGIT_TOL, BF16_MAX_DROP },
    };
    for (int q = 0; q < N_OF(PR) && ok32 == HELD_OUT_CORRECT; q++) {
        model_ref(&S.m, PR[q].prec, S.x, n, lq);
        double diff = max_abs_diff(lq, l32, (size_t)n * 10);
        int ok = count_correct(lq, S.label, n);
        double drop = 100.0 * (ok32 - ok) / n;
        printf("  CPU %s emulation: max |logit - FP32| %.4f (stated <= %.2f), %d right (drop %.2f points, stated "
               "<= %.2f)\n", PR[q].name, diff, PR[q].tol, ok, drop, PR[q].drop);
        if (!(diff <= PR[q].tol && drop <= PR[q].drop)) {
            jd_failf(t, "%s on the CPU: max diff %.4f, drop %.2f points: outside the stated tolerance", PR[q].name,
                     diff, drop);
            break;
        }
    }
    free(l32), free(lq);
    shipped_free(&S);
}
static void judge_model_gpu(jd_ck *k) { judge_model(k->J, k->t); }

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

/* ================================================================ the model on the device */

/* plan_mlp_bytes(dims, L, batch) through the runner (a CPU function: dims in host memory both map): 0 and
 * *bytes, or -1 (t told). */
static int plan_call(jd *J, const int *dims, int L, long long batch, size_t *bytes, jd_tally *t)
{
    int *hd = NULL;
    const int id = jd_alloc_kind(J, JD_MEM_HOST, 64, (void **)&hd);
    if (id < 0) return jd_failf(t, "buffers: %s", J->why), -1;
    memset(hd, 0, 64);
    memcpy(hd, dims, (size_t)(L + 1) * sizeof *dims);
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W18_FN_PLAN_BYTES, 1, 1);
    rq.arg_buf[0][0] = id;
    rq.i64[1] = L, rq.i64[2] = batch;
    int rc = 0;
    if (jd_call(J, &rq, &rp, NULL) != 0) rc = -1, jd_failf(t, "plan_mlp_bytes: %s", J->why);
    else if (rp.status != 0 || rp.out_len != sizeof *bytes) rc = -1, jd_failf(t, "plan_mlp_bytes: no answer from the runner");
    else memcpy(bytes, rp.out, sizeof *bytes);
    jd_free(J, id);
    return rc;
}

/* test_week18.c's plan_formula: 0, or -1 when the runner failed. */
static int plan_formula(jd *J, jd_tally *t)
{
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w18_plan_formula", 0);
    size_t got;
    t->tests++;
    const struct { int L, batch; size_t want; const char *what; } FIX[] = {
        { 3, 65536, (size_t)64 << 20, "the shipped model at batch 65536 (the plan states 64 MiB)" },
        { 3, 1, 1024, "the shipped model, one sample (1024 bytes)" },
        { 3, 0, 0, "batch 0 (no workspace)" },
        { 1, 1000, 0, "a one-layer model (no hidden layer: 0 bytes)" },
    };
    for (int i = 0; i < N_OF(FIX); i++) {
        if (plan_call(J, SHIPPED_DIMS, FIX[i].L, FIX[i].batch, &got, t) != 0) return -1;
        if (got != FIX[i].want)
            return jd_failf(t, "plan_mlp_bytes for %s = %zu, expected %zu", FIX[i].what, got, FIX[i].want), 0;
    }
    for (int k = 0; k < 100; k++) {
        int L = (int)wb_rng_int(&rng, 1, W18_MAX_LAYERS), dims[W18_MAX_LAYERS + 1],
            batch = (int)wb_rng_int(&rng, 1, 1 << 20);
        size_t widest = 0;
        for (int l = 0; l <= L; l++) dims[l] = (int)wb_rng_int(&rng, 1, MLP_MAX_DIM_);
        for (int l = 1; l < L; l++) widest = (size_t)dims[l] > widest ? (size_t)dims[l] : widest;
        const size_t want = 2 * (size_t)batch * widest * 4;
        if (plan_call(J, dims, L, batch, &got, t) != 0) return -1;
        if (got != want)
            return jd_failf(t, "%d layers, batch %d: plan_mlp_bytes = %zu, expected %zu (2 x batch x widest hidden "
                            "layer %zu x 4 bytes; inputs and logits are not the plan's)", L, batch, got, want, widest),
                   0;
    }
    return 0;
}

/* The parameters of m in w18_param_at's places (host image; *bytes its size). */
static unsigned char *param_image(const cpu_model *m, size_t *bytes)
{
    *bytes = w18_param_at(m->dims, m->n_layers, 0);
    unsigned char *img = wb_hmalloc(*bytes + 4);
    memset(img, 0, *bytes + 4);
    for (int l = 0; l < m->n_layers; l++) {
        memcpy(img + w18_param_at(m->dims, l, 0), m->W[l], (size_t)m->dims[l + 1] * m->dims[l] * 4);
        memcpy(img + w18_param_at(m->dims, l, 1), m->b[l], (size_t)m->dims[l + 1] * 4);
    }
    return img;
}

/* plan_mlp_forward through the runner (W18_FN_FORWARD): the status, or -1 (t told). */
static int fwd_call(jd *J, const cpu_model *m, jd_gbuf *par, jd_gbuf *cv, jd_gbuf *x, jd_gbuf *lo, jd_gbuf *pr,
                    jd_gbuf *work, int prec, int batch, size_t work_bytes, const char *what, jd_tally *t)
{
    jd_gbuf *args[6] = { par, cv, x, lo, pr, work };
    long long v[7] = { prec, batch, (long long)work_bytes, m->n_layers, 0, 0, 0 };
    long long packed[8];
    w18_dims_pack(packed, m->dims, m->n_layers);
    v[4] = packed[5], v[5] = packed[6], v[6] = packed[7];
    jd_rep rp;
    return gcall(J, W18_FN_FORWARD, args, 6, v, 7, &rp, what, t);
}

/* Every pred the argmax of the logits returned: 0, or 1 with t told. */
static int preds_follow(const float *logits, const int32_t *pred, int n, int classes, const char *what, jd_tally *t)
{
    for (int i = 0; i < n; i++)
        if (pred[i] != argmax_row(logits + (size_t)i * classes, classes))
            return jd_failf(t, "%s: pred[%d] = %d, but the largest of its logits is class %d", what, i, pred[i],
                            argmax_row(logits + (size_t)i * classes, classes)),
                   1;
    return 0;
}

static const char *PREC_NAME[] = { "FP32", "FP16", "INT8" };

/* test_week18.c's run_held_out: the shipped model in precision prec through a guarded workspace of
 * exactly the plan's size; logits and pred into host. 0, 1 (failed: t told), -1 (runner lost). */
static int run_held_out(jd *J, jd_tally *t, const shipped *S, int prec, float *logits, int32_t *pred)
{
    const cpu_model *m = &S->m;
    const int n = S->n;
    size_t plan;
    if (plan_call(J, m->dims, m->n_layers, n, &plan, t) != 0) return -1;
    if (plan != (size_t)1024 * n)
        return jd_failf(t, "plan_mlp_bytes = %zu for %d samples, the plan states 1024 bytes a sample", plan, n), 1;
    char what[96];
    snprintf(what, sizeof what, "plan_mlp_forward %s on the held-out set", PREC_NAME[prec]);
    size_t pbytes;
    unsigned char *pimg = param_image(m, &pbytes);
    gset G = { .n = 0 };
    int err = 0, rc = 1;
    jd_gbuf *gpar = gin(J, &G, pimg, pbytes, t, &err);
    jd_gbuf *gcv = prec != P_FP32 ? gout(J, &G, w18_conv_at(m->dims, m->n_layers, 0), t, &err) : NULL;
    jd_gbuf *gx = gin(J, &G, S->x, (size_t)n * S->features * 4, t, &err);
    jd_gbuf *gw = gout(J, &G, plan, t, &err), *gl = gout(J, &G, (size_t)n * 40, t, &err);
    jd_gbuf *gp = gout(J, &G, (size_t)n * 4, t, &err);
    unsigned char *scratch = wb_hmalloc(plan + 4);
    memset(scratch, 0x7f, (size_t)n * 4);
    if (!err && jd_gbuf_put(gp, 0, scratch, (size_t)n * 4) != 0) err = 1, jd_failf(t, "%s: the judge's own copy failed", what);
    if (err) goto out;
    const int st = fwd_call(J, m, gpar, gcv, gx, gl, gp, gw, prec, n, plan, what, t);
    if (st < 0) {
        rc = J->lost ? -1 : 1;
        goto out;
    }
    if (st != 0) {
        jd_failf(t, "%s: returned %s", what, status_name(st));
        goto out;
    }
    if (jd_gbuf_fetch(gw, 0, plan, scratch, "workspace", what, t) || jd_gbuf_fetch(gl, 0, (size_t)n * 40, logits, "logits", what, t) ||
        jd_gbuf_fetch(gp, 0, (size_t)n * 4, pred, "pred", what, t))
        goto out;
    rc = 0;
out:
    gfree(J, &G);
    free(pimg), free(scratch);
    return rc;
}

/* The stated tolerance of a reduced precision's logits against the CPU's FP32 (the test's
 * check_quantised_model, and bf16_model's checks when pred is NULL: the class is each row's argmax). */
static void quantised_checks(jd_tally *t, const char *name, const float *got, const int32_t *pred, const float *ref,
                             const uint8_t *label, int n, double tol, double max_drop)
{
    char what[64];
    snprintf(what, sizeof what, "%s logits against FP32", name);
    for (size_t i = 0; i < (size_t)n * 10; i++)
        if (!isfinite(got[i])) {
            jd_failf(t, "%s: logit %zu is %g (never written, or wrong)", what, i, (double)got[i]);
            return;
        }
    const double diff = max_abs_diff(got, ref, (size_t)n * 10);
    if (pred && preds_follow(got, pred, n, 10, what, t)) return;
    int ok = 0;
    for (int i = 0; i < n; i++) ok += (pred ? pred[i] : argmax_row(got + (size_t)i * 10, 10)) == label[i];
    const double drop = 100.0 * (HELD_OUT_CORRECT - ok) / n;
    printf("  %s: max |logit - FP32| %.4f (stated <= %.2f); %d of %d right (%+.2f points against FP32, stated drop "
           "<= %.2f)\n", name, diff, tol, ok, n, -drop, max_drop);
    if (!(diff <= tol) || !(drop <= max_drop))
        jd_failf(t, "%s: max |logit - FP32| %.4f (stated <= %.2f); %d of %d right (%.2f %%, %+.2f points against "
                 "FP32, stated drop <= %.2f)", name, diff, tol, ok, n, 100.0 * ok / n, -drop, max_drop);
}

/* The model the loaders read through plan_mlp_forward in precision prec (the test's fp32_model and
 * check_quantised_model): FP32 at 1e-4 of the CPU and the stated count right, FP16 and INT8 within their
 * stated tolerance of the CPU's FP32. */
static void device_model(jd_ck *k, int prec, double tol, double max_drop)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    shipped S;
    t->tests++;
    if (shipped_load(J, t, &S) != 0) return;
    const int n = S.n;
    float *ref = wb_hmalloc((size_t)n * 40), *got = wb_hmalloc((size_t)n * 40);
    int32_t *pred = wb_hmalloc((size_t)n * 4);
    double *r64 = wb_hmalloc((size_t)n * 80);
    model_ref(&S.m, P_FP32, S.x, n, ref);
    for (size_t i = 0; i < (size_t)n * 10; i++) r64[i] = ref[i];
    if (run_held_out(J, t, &S, prec, got, pred) != 0) goto out;
    if (prec != P_FP32) {
        quantised_checks(t, PREC_NAME[prec], got, pred, ref, S.label, n, tol, max_drop);
        goto out;
    }
    if (cmp_f32(got, r64, (size_t)n * 10, 1e-4, 1e-4, "logits", "FP32 logits of the held-out set against the CPU", t) == 0 &&
        preds_follow(got, pred, n, 10, "FP32 held-out set", t) == 0) {
        int ok = 0;
        for (int i = 0; i < n; i++) ok += pred[i] == S.label[i];
        if (ok != HELD_OUT_CORRECT)
            jd_failf(t, "FP32 on the device: %d of %d right, the week states %d", ok, n, HELD_OUT_CORRECT);
    }
out:
    free(ref), free(got), free(pred), free(r64);
    shipped_free(&S);
}
static void judge_fp32_model(jd_ck *k) { device_model(k, P_FP32, 0, 0); }
static void judge_fp16_model(jd_ck *k) { device_model(k, P_FP16, FP16_LOGIT_TOL, FP16_MAX_DROP); }
static void judge_int8_model(jd_ck *k) { device_model(k, P_INT8, INT8_LOGIT_TOL, INT8_MAX_DROP); }

/* test_week18.c's bf16_model: the shipped model through bf16_from_f32 and bf16_linear alone. */
static void judge_bf16_model(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    shipped S;
    t->tests++;
    if (shipped_load(J, t, &S) != 0) return;
    const cpu_model *m = &S.m;
    const int n = S.n, L = m->n_layers;
    int widest = 1;
    for (int l = 0; l <= L; l++) widest = m->dims[l] > widest ? m->dims[l] : widest;
    float *ref = wb_hmalloc((size_t)n * 40), *got = wb_hmalloc((size_t)n * m->dims[L] * 4 + 4);
    model_ref(m, P_FP32, S.x, n, ref);
    size_t pbytes;
    unsigned char *pimg = param_image(m, &pbytes);
    gset G = { .n = 0 };
    int err = 0;
    const char *what = "the BF16 model on the held-out set";
    jd_gbuf *args[6];
    args[0] = gin(J, &G, pimg, pbytes, t, &err);
    args[1] = gout(J, &G, w18_conv_at(m->dims, L, 0), t, &err);
    args[2] = gin(J, &G, S.x, (size_t)n * S.features * 4, t, &err);
    args[3] = gout(J, &G, (size_t)n * widest * 4, t, &err);
    args[4] = gout(J, &G, (size_t)n * widest * 2, t, &err);
    args[5] = gout(J, &G, (size_t)n * m->dims[L] * 4, t, &err);
    if (!err) {
        long long v[7] = { 0, n, 0, L, 0, 0, 0 }, packed[8];
        w18_dims_pack(packed, m->dims, L);
        v[4] = packed[5], v[5] = packed[6], v[6] = packed[7];
        jd_rep rp;
        const int st = gcall(J, W18_FN_BF16_CHAIN, args, 6, v, 7, &rp, what, t);
        if (st > 0) jd_failf(t, "%s: returned %s", what, status_name(st));
        else if (st == 0 && jd_gbuf_fetch(args[5], 0, (size_t)n * m->dims[L] * 4, got, "logits", what, t) == 0)
            quantised_checks(t, "BF16", got, NULL, ref, S.label, n, BF16_LOGIT_TOL, BF16_MAX_DROP);
    }
    gfree(J, &G);
    free(pimg), free(ref), free(got);
    shipped_free(&S);
}

/* test_week18.c's plan_forward, case i: a random model through a guarded workspace of exactly the plan's
 * size; the refusals first. 0, or -1 (runner lost). */
static int plan_forward(jd *J, jd_tally *t, int i)
{
    static const int DIMS[][7] = { { 5, 3, 70, 2, 9, 40, 4 }, { 64, 128, 64, 10 }, { 17, 1 }, { 33, 7, 7, 7, 7, 7, 7 } };
    static const int LAYERS[] = { 6, 3, 1, 6 }, BATCH[] = { 1000, 129, 33, 1 };
    wb_rng rng = wb_rng_for_seed(jd_seed, "judge_w18_plan_forward", i);
    cpu_model m;
    memset(&m, 0, sizeof m);
    m.n_layers = LAYERS[i];
    memcpy(m.dims, DIMS[i], sizeof DIMS[i]);
    size_t total = 0;
    for (int l = 0; l < m.n_layers; l++) total += (size_t)m.dims[l + 1] * (m.dims[l] + 1);
    float *store = wb_hmalloc(total * 4), *q = store;
    for (int l = 0; l < m.n_layers; l++) {
        size_t nw = (size_t)m.dims[l + 1] * m.dims[l];
        wb_fill_uniform_f32(&rng, q, nw, -0.6f, 0.6f), m.W[l] = q, q += nw;
        wb_fill_uniform_f32(&rng, q, (size_t)m.dims[l + 1], -0.2f, 0.4f), m.b[l] = q, q += m.dims[l + 1];
    }
    const int batch = BATCH[i], classes = m.dims[m.n_layers];
    const size_t nl = (size_t)batch * classes;
    float *hx = wb_hmalloc((size_t)batch * m.dims[0] * 4), *ref = wb_hmalloc(nl * 4), *hl = wb_hmalloc(nl * 4 + 4);
    wb_fill_uniform_f32(&rng, hx, (size_t)batch * m.dims[0], 0, 1);
    model_ref(&m, P_FP32, hx, batch, ref);
    char what[96];
    snprintf(what, sizeof what, "plan_mlp_forward, %d layers, batch %d", m.n_layers, batch);
    t->tests++;
    size_t plan, pbytes;
    unsigned char *pimg = param_image(&m, &pbytes), *scratch = NULL;
    int32_t *hp = wb_hmalloc((size_t)batch * 4 + 4);
    gset G = { .n = 0 };
    int err = 0, rc = 0, st;
    if (plan_call(J, m.dims, m.n_layers, batch, &plan, t) != 0) {
        rc = -1;
        goto out;
    }
    scratch = wb_hmalloc(plan + 4);
    jd_gbuf *gpar = gin(J, &G, pimg, pbytes, t, &err), *gx = gin(J, &G, hx, (size_t)batch * m.dims[0] * 4, t, &err);
    jd_gbuf *gw = gout(J, &G, plan, t, &err), *gl = gout(J, &G, nl * 4, t, &err);
    jd_gbuf *gp = gout(J, &G, (size_t)batch * 4, t, &err);
    if (err) goto out;
    /* refusals first: nothing may be written */
    if (plan >= 4) {
        if ((st = fwd_call(J, &m, gpar, NULL, gx, gl, gp, gw, P_FP32, batch, plan - 4, what, t)) < 0) goto lost;
        if (st != (int)cudaErrorInvalidValue) {
            jd_failf(t, "%s: a workspace 4 bytes short of the plan must give cudaErrorInvalidValue, got %s", what,
                     status_name(st));
            goto out;
        }
    }
    if ((st = fwd_call(J, &m, gpar, NULL, gx, gl, gp, gw, 7, batch, plan, what, t)) < 0) goto lost;
    if (st != (int)cudaErrorInvalidValue) {
        jd_failf(t, "%s: precision 7 must give cudaErrorInvalidValue, got %s", what, status_name(st));
        goto out;
    }
    if ((st = fwd_call(J, &m, gpar, NULL, gx, gl, gp, gw, P_FP32, 0, 0, what, t)) < 0) goto lost;
    if (st != 0) {
        jd_failf(t, "%s: batch 0 must succeed, got %s", what, status_name(st));
        goto out;
    }
    if (jd_gbuf_fetch(gl, 0, nl * 4, hl, "logits", what, t)) goto out;
    for (size_t j = 0; j < nl; j++)
        if (!isnan(hl[j])) {
            jd_failf(t, "%s: a refused call (or batch 0) wrote logits[%zu]", what, j);
            goto out;
        }
    memset(hp, 0x7f, (size_t)batch * 4);
    if (jd_gbuf_put(gp, 0, hp, (size_t)batch * 4) != 0) {
        jd_failf(t, "%s: the judge's own copy failed", what);
        goto out;
    }
    if ((st = fwd_call(J, &m, gpar, NULL, gx, gl, gp, gw, P_FP32, batch, plan, what, t)) < 0) goto lost;
    if (st != 0) {
        jd_failf(t, "%s: returned %s", what, status_name(st));
        goto out;
    }
    if (jd_gbuf_fetch(gw, 0, plan, scratch, "workspace", what, t)) goto out; /* every activation inside the plan */
    /* the last two hidden layers still in their buffers: layer l's in buffer l % 2 (A at work, B at work + plan / 2) */
    for (int h = m.n_layers - 2; h >= 0 && h >= m.n_layers - 3; h--) {
        cpu_model part = m;
        part.n_layers = h + 1;
        const size_t nh = (size_t)batch * m.dims[h + 1];
        float *want = wb_hmalloc(nh * 4);
        double *w64 = wb_hmalloc(nh * 8);
        model_ref(&part, P_FP32, hx, batch, want);
        for (size_t j = 0; j < nh; j++) w64[j] = want[j] < 0 ? 0 : want[j];
        char where[200];
        snprintf(where, sizeof where, "%s: layer %d's output in buffer %c of the workspace (the plan: layer l writes "
                 "buffer l %% 2; no memory but the workspace)", what, h, (h & 1) ? 'B' : 'A');
        const int bad = cmp_f32((const float *)scratch + (h & 1) * (plan / 8), w64, nh, 1e-4, 1e-4, "hidden", where, t);
        free(want), free(w64);
        if (bad) goto out;
    }
    if (jd_gbuf_fetch(gl, 0, nl * 4, hl, "logits", what, t) || jd_gbuf_fetch(gp, 0, (size_t)batch * 4, hp, "pred", what, t))
        goto out;
    double *r64 = wb_hmalloc(nl * 8 + 8);
    for (size_t j = 0; j < nl; j++) r64[j] = ref[j];
    const int bad = cmp_f32(hl, r64, nl, 1e-4, 1e-4, "logits", what, t);
    free(r64);
    if (!bad) preds_follow(hl, hp, batch, classes, what, t);
    goto out;
lost:
    rc = J->lost ? -1 : 0;
out:
    gfree(J, &G);
    free(store), free(hx), free(ref), free(hl), free(pimg), free(scratch), free(hp);
    return rc;
}

static void judge_plan_cpu(jd *J, jd_tally *t) { plan_formula(J, t); }
static void judge_plan(jd_ck *k)
{
    if (plan_formula(k->J, k->t) < 0) return;
    for (int i = 0; i < 4 && !k->J->lost; i++)
        if (plan_forward(k->J, k->t, i) < 0) return;
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
    { "w18.load", judge_load_gpu, judge_load, 1, 0, NULL },
    { "w18.model", judge_model_gpu, judge_model, 1, 0, NULL },
    { "w18.fp32", judge_fp32, NULL, 0, 0, NULL },
    { "w18.fp32-model", judge_fp32_model, NULL, 0, 0, NULL },
    { "w18.fp16", judge_fp16, NULL, 0, 0, NULL },
    { "w18.fp16-model", judge_fp16_model, NULL, 0, 0, NULL },
    { "w18.int8", judge_int8, NULL, 0, 0, NULL },
    { "w18.int8-model", judge_int8_model, NULL, 0, 0, NULL },
    { "w18.plan", judge_plan, judge_plan_cpu, 0, 0, NULL },
    { "w18.layer-speed", judge_layer_speed, NULL, 0, 0, lt_before_f32 },
    { "w18.bf16", judge_bf16, NULL, 0, 0, NULL },
    { "w18.bf16-model", judge_bf16_model, NULL, 0, 0, NULL },
    { "w18.bf16-speed", judge_bf16_speed, NULL, 0, 0, lt_before_bf16 },
};

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--week-dir")) g_week_dir = argv[i + 1];
    return jd_week_main(argc, argv, "judge-w18", "phase4/week18", CPS, N_OF(CPS));
}
