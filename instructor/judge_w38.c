/* judge_w38.c — build/instructor/judge-w38: week 38's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (the week is graded with its
 * linked test until this judge has run on a GPU). It links no student code:
 * the student's flash_attn.o is linked into the runner (judge_w38_runner.c),
 * which this process starts (or is handed) and asks to call flash_attn_fwd
 * on buffers it allocated (judge.h). It poisons, fills, times and checks,
 * and writes the results record itself, outside the runner's reach. The
 * command line, the runner's start, the record, the guarded buffers, the
 * timed-call protocol are judge_week.c's:
 *
 *   judge-w38 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The calls, the checks and the timing are judge_attn.c's (shared with
 * week 62's judge, which has week 38's contract). The cases, the
 * reference and the tolerances are test_week38.c's, shared
 * through phase6/week38/w38_checks.h: its CASES, its ref_row in double, its
 * ATOL, RTOL, ATOL_BIG_LOGITS, LSE_RTOL and lse_atol, its draw_bf16; its
 * fwd_long shapes and fixed rows and its fwd_args calls are copied here
 * (they sit in the test's bodies). Each case is drawn as the test draws it
 * for the seed (wb_rng_for_seed with the test's tags, W38_CASES_TAG and
 * W38_LONG_TAG: the same inputs as the test's for the same seed; the
 * reference with the test's double scale, the call given it as a float).
 * Outputs sit in guarded buffers (jd_gbuf: poisoned, JD_GBAND bytes of band
 * each side, read back with the bands checked):
 *   w38.fwd        the test's 18 cases (S 1 to 1031, D 64 and 128, causal
 *                  and not, scale 1 with logits near 1e4), every element of
 *                  O and every lse against the double reference on the
 *                  host; its 4 long cases (B 2, H 3, S 4133, D 64 and 128,
 *                  causal and not), the test's 32 rows a head against the
 *                  host reference as the test does, and every row of every
 *                  head against the same reference computed in double on the
 *                  GPU (judge_w38_kernels.cu, one warp a row, from the
 *                  judge's own copies of the inputs); nothing written past O
 *                  or lse (the bands) in any case; the test's fwd_args: B, H
 *                  or S == 0 is cudaSuccess, D 96, scale 0, scale NaN, a Q
 *                  two bytes off, a NULL lse and an lse two bytes off are
 *                  cudaErrorInvalidValue, and none of these calls writes a
 *                  byte of O or lse;
 *   w38.fwd-speed  B4 H16 S4096 D128 non-causal, scale 1/sqrt(128), O and
 *                  lse, through the timed-call protocol (judge_week.h): 8
 *                  calls a request (a call is about 2 ms at the target, so
 *                  the protocol's cost is well under the figure's noise;
 *                  the full check of a call's output takes tens of ms),
 *                  each on its own Q, K and V (one buffer, Q then K then V;
 *                  Q and K bf16 in [-3, 3), V in [-1, 1), the test's
 *                  ranges, filled on the device from the hidden seed) and
 *                  its own poisoned output (O, then lse right after it),
 *                  the judge's look right after the reply (256 positions a
 *                  call: the word's upper bf16 of O, or an lse, against the
 *                  double reference at ATOL + 1e-4 and RTOL + 2^-7, the
 *                  slack for the lower bf16 that sits in a float's low
 *                  bits), then
 *                  every element of every timed O and lse checked by the
 *                  judge's kernel at the test's tolerances; the median of 7
 *                  requests. cuDNN's fused attention (SDPA, O only, the
 *                  test's yardstick: phase6/common/cudnn-frontend/
 *                  yard_sdpa_cudnn.cu, built with the frontend's graph API
 *                  behind a C interface, cuDNN loaded at run time as the
 *                  test loads it) on the same protocol, sizes and checks
 *                  (O at the test's 2e-2, 2e-2 for cuDNN) through the
 *                  judge's own yard runner (judge-w38-yard-runner, no
 *                  student object), timed before the student's runner
 *                  starts and after, the faster kept. TFLOP/s = 4 B H S^2 D
 *                  / the median call's time by the judge's clock; the
 *                  target (week.txt) is >= 0.45 of cuDNN's. A wrong output
 *                  of the student's FAILs, with or without cuDNN; then,
 *                  where the judge cannot load cuDNN (wb_cudnn_open, the
 *                  test's loader) or cuDNN cannot run the shape (no engine,
 *                  a frontend error: the yard runner says why), SKIP with
 *                  that reason, as the test's cudnn_ready; a cuDNN output
 *                  that is wrong FAILs, as the test's !lib.invalid.
 * Left to the linked test (unlisted: the grader runs them in the test
 * program and says so):
 *   w38.more-shapes  a report with no target (the first shape against the
 *                    stretch 0.55, the causal one and B8 H16 S2048 D64,
 *                    each against cuDNN): it passes whenever the student's
 *                    outputs are right, and that correctness is judged here
 *                    (w38.fwd's causal cases and D 64, the headline shape's
 *                    timed outputs in w38.fwd-speed);
 *   w38.plot         TFLOP/s against S written to build/.../attn_vs_seq.csv
 *                    and drawn to a PNG by gnuplot: its verdict is that the
 *                    student's run wrote and drew its files.
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without a GPU the plumbing is tested by
 * instructor/tests/judge_w38.sh (both checkpoints SKIP, never PASS; the
 * week has no CPU checkpoint). */
#include <math.h>
#include <stdio.h>

#include "judge_attn.h"
#include "judge_w38.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

static const ja_week W38 = { W38_FN_FWD, W38_FN_FWD_TIMED, "flash_attn_fwd" };

/* ---------------------------------------------------------------- w38.fwd */

/* The test's fwd_args: the calls, on the poisoned O (4096 bytes, also the
 * inputs) and lse (1024 bytes); byte offsets of Q (and O, lse). */
static const ja_arg_call CALLS[] = {
    { 0, 4, 16, 64, 0, 0.125f, 0, 0, 0, 0, 0, 0, "B = 0 is nothing to do (cudaSuccess)" },
    { 2, 0, 16, 128, 1, 0.125f, 0, 0, 0, 0, 0, 0, "H = 0 is nothing to do (cudaSuccess)" },
    { 2, 4, 0, 64, 1, 0.125f, 0, 0, 0, 0, 0, 0, "S = 0 is nothing to do (cudaSuccess)" },
    { 1, 1, 16, 96, 0, 0.1f, 0, 0, 0, 0, 0, 1, "D = 96 must be refused" },
    { 1, 1, 16, 64, 0, 0.f, 0, 0, 0, 0, 0, 1, "scale 0 must be refused" },
    { 1, 1, 16, 64, 0, NAN, 0, 0, 0, 0, 0, 1, "scale NaN must be refused" },
    { 1, 1, 16, 64, 0, 0.1f, 2, 0, 0, 0, 0, 1, "a Q that is not 16-byte aligned must be refused" },
    { 1, 1, 16, 64, 0, 0.1f, 0, 0, 0, 0, 1, 1, "a NULL lse must be refused (it is required, like O)" },
    { 1, 1, 16, 64, 0, 0.1f, 0, 0, 2, 0, 0, 1, "an lse that is not 4-byte aligned must be refused" },
};

/* The test's fwd_long: B 2, H 3, S 4133, D 64 and 128, non-causal and causal, in the test's order (_i: D
 * 128 when odd, causal from 2 on) */
static const fa_case LONG[] = {
    { 2, 3, 4133, 64, 0, 0 }, { 2, 3, 4133, 128, 0, 0 }, { 2, 3, 4133, 64, 1, 0 }, { 2, 3, 4133, 128, 1, 0 },
};

static void judge_fwd(jd_ck *k) { ja_fwd(k, CASES, N_OF(CASES), LONG, N_OF(LONG), CALLS, N_OF(CALLS)); }

/* ---------------------------------------------------------------- w38.fwd-speed */

static void cudnn_before(void) { ja_cudnn_before(0); }

static void judge_speed(jd_ck *k)
{
    double value = NAN, yard = NAN;
    char why[700] = "", detail[300] = "";
    const int r = ja_time_shape(k, 0, &value, &yard, why, sizeof why);
    if (r == 2) { /* no yardstick: SKIP, as the test */
        k->t->skipped++;
        snprintf(k->t->msg, sizeof k->t->msg, "%s", why);
        return;
    }
    if (r == 0)
        snprintf(detail, sizeof detail, "B%d H%d S%d D%d non-causal, O and lse: %.0f TFLOP/s vs cuDNN SDPA %.0f (O only)",
                 JA_TB, JA_TH, JA_TS, JA_TD, value, yard);
    jd_speed_result(k->R, k->t, k->c, k->gpu, r ? NAN : value, "TFLOP/s", "cuDNN", yard, detail, r ? why : "");
}

static const jd_checkpoint CPS[] = {
    { "w38.fwd", judge_fwd, NULL, 0, 0, NULL },
    { "w38.fwd-speed", judge_speed, NULL, 0, 0, cudnn_before },
};

int main(int argc, char **argv)
{
    ja_use(&W38);
    return jd_week_main(argc, argv, "judge-w38", "phase6/week38", CPS, N_OF(CPS));
}
