/* judge_w28.c — build/instructor/judge-w28: week 28's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's gemm_epilogue.o is linked into the runner (judge_w28_runner.c),
 * which this process starts (or is handed) and asks to call it on buffers
 * it allocated (judge.h). The command line, the runner's start and the
 * record are judge_week.c's:
 *
 *   judge-w28 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The fused checks and the timing are judge_hgemm.c's, shared with weeks
 * 25 and 26; the cases mirror test_week28.c's (shapes and tolerance from
 * the test's own phase5/common/hgemm_check.h, drawn with the test's tags
 * and indices):
 *   w28.fused        gemm_epilogue_bias_act on each of the 12 shapes with
 *                    each activation (none, ReLU, GELU), with a bias but on
 *                    every fourth shape's; 6 with a NaN in A, +Inf and -Inf
 *                    in B; the 5 unaligned shapes (A, B `off` halves, bias
 *                    and C `off` floats past a 256-byte boundary) with each
 *                    activation; every element within 1.2 hgemm_atol(K) +
 *                    1e-4 |ref| of act(A B + bias) in double, C poisoned and
 *                    guarded; and the 2 large shapes (GELU, then ReLU, with
 *                    a bias) on inputs from the hidden seed, every element
 *                    against cuBLAS's DGEMM of the same halves with the
 *                    epilogue applied in double (the test samples 4096). The
 *                    test's CPU cases (half_rounding, activation_values)
 *                    check the workbook's helpers and the test's own
 *                    reference, no student code: nothing to judge;
 *   w28.bias-act     gemm_epilogue_act in place on the test's 7 shapes and 3
 *                    unaligned ones (C and bias 1, 2, 3 floats past a
 *                    256-byte boundary) with each activation: C uniform in
 *                    [-50, 50] with a NaN, +Inf and -Inf at its start, bias
 *                    in [-2, 2], within 1e-5 + 1e-5 |ref|, guarded (the
 *                    test's BIAS_ACT_SHAPES and BIAS_ACT_UNALIGNED, static in
 *                    test_week28.c, copied below);
 *   w28.fused-speed  gemm_epilogue_bias_act with a bias and ReLU at M = 8192,
 *                    N = 4096, K = 512 through the timed-call protocol (up to
 *                    64 calls a request, each on fresh A, B and bias and a
 *                    poisoned C, every timed C checked in full against the
 *                    DGEMM with the epilogue in double; the median of 7
 *                    requests), against cuBLASLt's CUBLASLT_EPILOGUE_RELU_BIAS
 *                    (the week's given support/yard_epilogue.cu, the test's
 *                    yardstick) timed through judge-w28-yard-runner
 *                    (instructor code, no student object) on the same
 *                    protocol, shape and checks, before the student's
 *                    runner starts and after, the faster kept; TFLOP/s,
 *                    >= 0.40 cuBLASLt. The test's other rows (GELU, the
 *                    unfused pairs) are reported there, not judged: not here.
 * Every checkpoint of week 28 is judged: none is left to the linked test.
 * On an H200 (2026-11-29), alone over the reference's and the starter's
 * runners, plain and sandboxed: the reference PASSed all three, the
 * starter FAILed all three; not yet through the grader there. Without a
 * GPU every checkpoint is SKIP, judged and linked alike
 * (instructor/tests/judge_w28.sh). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge_w28.h"
#include "wb_compare.h"
#include "wb_rand.h"

static const hg_week W28 = { "gemm_epilogue_bias_act", "fused", W28_YARD_RUNNER, 1, 8192, 4096, 512, 1 /* ACT_RELU */,
                             1.2 };

static void judge_fused(jd_ck *k) { hg_judge_fused(k, &W28); }
static void judge_fused_speed(jd_ck *k) { hg_judge_vs_lt(k, &W28); }
static void lt_before(void) { hg_lt_before(&W28); }

/* ---------------------------------------------------------------- w28.bias-act */

/* test_week28.c's BIAS_ACT_SHAPES ({M, N}) and BIAS_ACT_UNALIGNED ({M, N, off}), copied: static there. */
static const int BA_SHAPES[][2] = { { 0, 7 }, { 1, 1 }, { 3, 5 }, { 33, 63 }, { 64, 256 }, { 1000, 1003 }, { 517, 2048 } };
static const int BA_UNALIGNED[][3] = { { 64, 256, 1 }, { 33, 64, 2 }, { 5, 12, 3 } };
static const char *ACT_NAME[] = { "none", "relu", "gelu" };

static double act_ref(double v, int act)
{
    if (act == 1) return v < 0 ? 0 : v;
    if (act == 2) return 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    return v;
}

/* One case as the test's check_bias_act draws it (tag and index): C
 * uniform in [-50, 50], then the bias in [-2, 2], a NaN, +Inf and -Inf in
 * C[0..2] (more than 3 elements); C (in place) and bias `off` floats past
 * the band; every element of C and the bytes around it checked. 0 ran, -1
 * lost. */
static int bias_act_case(jd *J, const char *tag, int i, int M, int N, int act, int off, jd_tally *t)
{
    size_t nc = (size_t)M * N, o = off > 0 ? (size_t)off : 0;
    float *hc = malloc((nc + 1) * 4), *bias = malloc(((size_t)N + 1) * 4), *got = malloc((nc + 1) * 4);
    double *ref = malloc((nc + 1) * 8);
    jd_gbuf C = { .id = -1 }, B = { .id = -1 };
    char what[128];
    int rc = -1;
    snprintf(what, sizeof what, "gemm_epilogue_act M=%d N=%d act=%s%s", M, N, ACT_NAME[act],
             o ? (o % 2 ? " (C, bias unaligned: C 4-byte aligned)" : " (C, bias unaligned: C 8-byte aligned)") : "");
    t->tests++;
    if (!hc || !bias || !got || !ref) {
        jd_failf(t, "%s: the judge is out of memory", what);
        goto out;
    }
    wb_rng r = wb_rng_for_seed(jd_seed, tag, i);
    wb_fill_uniform_f32(&r, hc, nc, -50, 50);
    wb_fill_uniform_f32(&r, bias, (size_t)N, -2, 2);
    if (nc > 3) hc[0] = NAN, hc[1] = INFINITY, hc[2] = -INFINITY;
    for (size_t x = 0; x < nc; x++) ref[x] = act_ref((double)(hc[x] + bias[x % N]), act);
    if (jd_gbuf_alloc(J, &C, (nc + o) * 4, t) != 0 || jd_gbuf_alloc(J, &B, ((size_t)N + o) * 4, t) != 0) goto out;
    if (jd_gbuf_poison(&C, o * 4, nc * 4) != 0 || jd_gbuf_put(&C, o * 4, hc, nc * 4) != 0 ||
        jd_gbuf_put(&B, o * 4, bias, (size_t)N * 4) != 0) { /* the bands and lead poisoned, C the input */
        jd_failf(t, "%s: the judge's own copies failed", what);
        goto out;
    }
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W28_FN_ACT, 1, 2);
    jd_gbuf_arg(&rq, 0, &C, o * 4);
    jd_gbuf_arg(&rq, 1, &B, o * 4);
    rq.i64[0] = (long long)nc, rq.i64[1] = M, rq.i64[2] = N, rq.i64[3] = act;
    if (jd_call(J, &rq, &rp, NULL) != 0) {
        jd_failf(t, "%s: %s", what, J->why);
        goto out;
    }
    rc = 0;
    if (rp.status != 0) {
        jd_failf(t, "%s: gemm_epilogue_act returned %s", what,
                 rp.status < 0 ? rp.text : cudaGetErrorName((cudaError_t)rp.status));
        goto out;
    }
    int f = jd_gbuf_fetch(&C, o * 4, nc * 4, got, "C", what, t);
    if (f) {
        rc = f < 0 ? -1 : 0;
        goto out;
    }
    for (size_t x = 0; x < nc; x++)
        if (!wb_close(got[x], ref[x], 1e-5, 1e-5)) {
            jd_failf(t, "%s: C[%zu] expected %.9g got %.9g", what, x, ref[x], (double)got[x]);
            break;
        }
out:
    jd_gbuf_free(J, &C), jd_gbuf_free(J, &B);
    free(hc), free(bias), free(got), free(ref);
    return rc;
}

static void judge_bias_act(jd_ck *k)
{
    int lost = 0;
    for (int i = 0; !lost && i < 3 * (int)(sizeof BA_SHAPES / sizeof *BA_SHAPES); i++)
        lost = bias_act_case(k->J, "bias_act_shapes_fn", i, BA_SHAPES[i / 3][0], BA_SHAPES[i / 3][1], i % 3, 0, k->t) < 0;
    for (int i = 0; !lost && i < 3 * (int)(sizeof BA_UNALIGNED / sizeof *BA_UNALIGNED); i++)
        lost = bias_act_case(k->J, "bias_act_unaligned_fn", i, BA_UNALIGNED[i / 3][0], BA_UNALIGNED[i / 3][1], i % 3,
                             BA_UNALIGNED[i / 3][2], k->t) < 0;
}

static const jd_checkpoint CPS[] = {
    { "w28.fused", judge_fused, NULL, 0, 0, NULL },
    { "w28.bias-act", judge_bias_act, NULL, 0, 0, NULL },
    { "w28.fused-speed", judge_fused_speed, NULL, 0, 0, lt_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w28", "phase5/week28", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
