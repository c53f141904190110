/* judge_w26.c — build/instructor/judge-w26: week 26's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's hgemm_mma.o is linked into the runner (judge_w26_runner.c),
 * which this process starts (or is handed) and asks to call it on buffers
 * it allocated (judge.h). The command line, the runner's start and the
 * record are judge_week.c's:
 *
 *   judge-w26 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are judge_hgemm.c's, shared with week 25's judge; the cases
 * mirror test_week26.c's (their shapes and tolerance from the test's own
 * phase5/common/hgemm_check.h, drawn with the test's tags):
 *   w26.mma        the 12 shapes (0, 1, odd, up to K = 4096), the 2 with a
 *                  NaN in A and +Inf in B, the 5 with A, B and C off their
 *                  256-byte boundary, every element within hgemm_atol(K) +
 *                  1e-4 |ref| of the product in double, C poisoned and
 *                  guarded (nothing written outside it); and the 2 large
 *                  shapes (2047 x 2049 x 2051, 4096^3) on inputs from the
 *                  hidden seed, every element against cuBLAS's DGEMM of the
 *                  same halves (the test samples 4096 of them). The test's
 *                  CPU case half_rounding checks the workbook's own half
 *                  helpers (wb_f16.h), no student code: nothing to judge;
 *   w26.mma-speed  hgemm_mma at 4096^3 through the timed-call protocol (16
 *                  calls a request, each on fresh A and B and a poisoned C,
 *                  every timed C checked in full; the median of 7
 *                  requests), against cublasGemmEx (FP16 in, FP32 compute,
 *                  FP32 C) timed by the judge through judge-w26-yard-runner
 *                  (instructor code, no student object) on the same
 *                  protocol and checks, before the student's runner starts
 *                  and after, the faster kept; TFLOP/s, >= 0.55 cuBLAS;
 *   w26.tc-wins    the same timing of hgemm_mma against the week's given
 *                  FP32 CUDA-core GEMM (support/yard_sgemm_simt.cu, on
 *                  floats holding the same halves) through the same yard
 *                  runner; >= 4 SIMT.
 * Every checkpoint of week 26 is judged: none is left to the linked test.
 * Not yet run on a GPU; without a GPU every checkpoint is SKIP
 * (instructor/tests/judge_w26.sh). */
#include "judge_w26.h"

static const hg_week W26 = { "hgemm_mma", "mma", W26_YARD_RUNNER };

static void judge_mma(jd_ck *k) { hg_judge_correct(k, &W26); }
static void judge_mma_speed(jd_ck *k) { hg_judge_vs_cublas(k, &W26); }
static void judge_tc_wins(jd_ck *k) { hg_judge_vs_simt(k, &W26); }
static void cublas_before(void) { hg_cublas_before(&W26); }
static void simt_before(void) { hg_simt_before(&W26); }

static const jd_checkpoint CPS[] = {
    { "w26.mma", judge_mma, NULL, 0, 0, NULL },
    { "w26.mma-speed", judge_mma_speed, NULL, 0, 0, cublas_before },
    { "w26.tc-wins", judge_tc_wins, NULL, 0, 0, simt_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w26", "phase5/week26", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
