/* judge_w21.c — build/instructor/judge-w21: week 21's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's naive.o, coalesced.o and cublas_rm.o are linked into the runner
 * (judge_w21_runner.c, with the week's support/yard_naive.o, as the test
 * program links them), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the checked
 * case and the timed-call protocol are judge_week.c's; what the SGEMM weeks
 * share (the cases, the references, the timed run) judge_gemm.c's:
 *
 *   judge-w21 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases mirror test_week21.c's (phase5/common/gemm_check.h, read by
 * judge_gemm.c, not copied; tflops_formula's figures and the TF32 case in
 * phase5/week21/w21_checks.h), each drawn for the hidden seed with the
 * test's tag:
 *   w21.tflops    naive_gemm_tflops, a host function, called by the runner
 *                 on the test's seven cases (4096^3, 1 x 1 x 1, 17 x 33 x
 *                 65, two whose M N K overflows int arithmetic, ms 0 and
 *                 < 0 NaN), each within the test's tolerance; with or
 *                 without a GPU (the runner then opens none);
 *   w21.naive, w21.coalesced  the 18 sizes of GEMM_CASES (0 in each
 *                 dimension, 1 x 1 x 1, odd and tile-edge sizes, A, B and C
 *                 1 and 3 floats past an aligned start, 1024^3 and 2049 x
 *                 3001 x 1999) and the two NaN/Inf cases (128^3 and 131 x
 *                 133 x 135: a NaN in A makes its row NaN, an Inf in B its
 *                 column Inf), inputs uniform in [-1, 1], into a poisoned C
 *                 with a guard band on each side: every element within the
 *                 test's gemm_tol(K) (atol and rtol) of the double product
 *                 (the judge's cublasDgemm; the NaN/Inf cases' the test's
 *                 CPU product), a NaN where one is due written, nothing
 *                 written outside C (the test samples its two largest
 *                 cases; here every element is checked);
 *   w21.cublas    cublas_rm_sgemm on a handle the runner makes (as the
 *                 test's your_cublas), the 18 sizes as above; then 512 x
 *                 384 x 1024 on a new handle the runner leaves in
 *                 CUBLAS_TF32_TENSOR_OP_MATH, as the test's
 *                 cublas_tf32_handle: "FP32 only, no TF32" is judged on the
 *                 output, as the test judges it, every element within
 *                 gemm_tol(K) of the double product (TF32's 10-bit inputs
 *                 miss it by 5-30 times: gemm_check.h's header), so a call
 *                 that leaves the handle's TF32 mode on fails;
 *   w21.coalesced-speed  coalesced_sgemm at 4096^3 through the timed-call
 *                 protocol (judge_week.h): 4 calls a request (some 100 ms
 *                 each), each on its own A and B fresh from the hidden seed
 *                 in [-1, 1) and its own poisoned C, the judge's look after
 *                 the reply, every element of every C checked after the
 *                 timing against the judge's cublasDgemm of the same inputs
 *                 within the test's gemm_tol(4096) (the test samples 1024);
 *                 the median of 5 requests, TFLOP/s, against NAIVE timed
 *                 through the same protocol, sizes and checks by the judge's
 *                 yard runner (judge_gemm_yard_runner.c): the week's
 *                 support/yard_naive.cu as the instructor's tree builds it,
 *                 the reference naive kernel, which the test's comment
 *                 names as its yardstick (in a student's own copy, without
 *                 the reference, the test falls back to the student's naive
 *                 kernel; the judge never does, so a slowed naive_sgemm
 *                 cannot lift the ratio), before the student's runner
 *                 starts and again after, the faster kept; the target from
 *                 week.txt.
 * Every checkpoint is formed here; none is left to the linked test.
 * Not yet run on a GPU. Without a GPU the plumbing (w21.tflops PASS for the
 * reference and FAIL for the starter, every other checkpoint SKIP, the
 * grader's cells as linked) is tested by instructor/tests/judge_w21.sh. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge.h"
#include "judge_gemm.h"
#include "judge_w21.h"
#include "judge_week.h"
#include "w21_checks.h"

/* ---------------------------------------------------------------- TFLOP/s (CPU) */

static void judge_tflops(jd *J, jd_tally *t)
{
    t->tests++;
    for (size_t i = 0; i < W21_N_TFLOPS; i++) {
        const w21_tflops_case *c = &W21_TFLOPS[i];
        double got = NAN;
        jd_req rq;
        jd_rep rp;
        jd_call_setup(&rq, W21_FN_TFLOPS, 1, 0);
        rq.i64[1] = c->M, rq.i64[2] = c->N, rq.i64[3] = c->K, rq.f64[0] = c->ms;
        if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "naive_gemm_tflops: %s", J->why);
        if (rp.status != 0 || rp.out_len != sizeof got) return jd_failf(t, "naive_gemm_tflops: no figure came back");
        memcpy(&got, rp.out, sizeof got);
        if (!w21_tflops_ok(c, got)) {
            if (isnan(c->want))
                return jd_failf(t, "naive_gemm_tflops(.., ms = %g) must be NaN (got %.17g)", c->ms, got);
            return jd_failf(t, "naive_gemm_tflops(%d, %d, %d, %g) = %.17g, expected %.17g (within %g)", c->M, c->N, c->K,
                            c->ms, got, c->want, c->tol);
        }
    }
}

static void judge_tflops_gpu(jd_ck *k) { judge_tflops(k->J, k->t); }

/* ---------------------------------------------------------------- correctness */

static void judge_naive(jd_ck *k)
{
    jg_correct_all(k, W21_FN_NAIVE, "naive_sgemm", W21_NAIVE_SIZES, W21_NAIVE_NONFINITE, NULL);
}

static void judge_coalesced(jd_ck *k)
{
    jg_correct_all(k, W21_FN_COALESCED, "coalesced_sgemm", W21_COALESCED_SIZES, W21_COALESCED_NONFINITE, NULL);
}

static void judge_cublas(jd_ck *k)
{
    static const int none[1] = { 0 };
    static const jg_extra tf32 = { W21_TF32_M, W21_TF32_N, W21_TF32_K, 0, W21_CUBLAS_TF32 };
    jg_set sizes = { .fn = W21_FN_CUBLAS, .fn_name = "cublas_rm_sgemm", .tag_sizes = W21_CUBLAS_SIZES };
    jg_correct(k, &sizes);
    if (k->J->lost) return;
    jg_set handle = { .fn = W21_FN_CUBLAS, .fn_name = "cublas_rm_sgemm", .only = none, .n_only = 0, .extra = &tf32,
                      .arg = 1, .note = " on a handle left in TF32 mode" };
    jg_correct(k, &handle);
}

/* ---------------------------------------------------------------- speed */

static void judge_coalesced_speed(jd_ck *k)
{
    jg_speed(k, W21_FN_COALESCED, "coalesced_sgemm", "coalesced", JG_YARD_NAIVE);
}

static const jd_checkpoint CPS[] = {
    { "w21.tflops", judge_tflops_gpu, judge_tflops, 1, 0, NULL },
    { "w21.naive", judge_naive, NULL, 0, 0, NULL },
    { "w21.coalesced", judge_coalesced, NULL, 0, 0, NULL },
    { "w21.cublas", judge_cublas, NULL, 0, 0, NULL },
    { "w21.coalesced-speed", judge_coalesced_speed, NULL, 0, 0, jg_naive_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w21", "phase5/week21", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
