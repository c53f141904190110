/* judge_w25.c — build/instructor/judge-w25: week 25's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's hgemm_wmma.o is linked into the runner (judge_w25_runner.c),
 * which this process starts (or is handed) and asks to call it on buffers
 * it allocated (judge.h). The command line, the runner's start and the
 * record are judge_week.c's:
 *
 *   judge-w25 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are judge_hgemm.c's, shared with week 26's judge; the cases
 * mirror test_week25.c's (their shapes and tolerance from the test's own
 * phase5/common/hgemm_check.h, drawn with the test's tags):
 *   w25.wmma        the 12 shapes (0, 1, odd, up to K = 4096), the 2 with a
 *                   NaN in A and +Inf in B, the 5 with A, B and C off their
 *                   256-byte boundary, every element within hgemm_atol(K) +
 *                   1e-4 |ref| of the product in double, C poisoned and
 *                   guarded (nothing written outside it); and the 2 large
 *                   shapes (2047 x 2049 x 2051, 4096^3) on inputs from the
 *                   hidden seed, every element against cuBLAS's DGEMM of the
 *                   same halves (the test samples 4096 of them). The
 *                   test's CPU case half_rounding checks the workbook's own
 *                   half helpers (wb_f16.h), no student code: nothing to judge;
 *   w25.wmma-speed  hgemm_wmma at 4096^3 through the timed-call protocol (16
 *                   calls a request, each on fresh A and B and a poisoned C,
 *                   every timed C checked in full; the median of 7
 *                   requests), against cublasGemmEx (FP16 in, FP32 compute,
 *                   FP32 C) timed by the judge through judge-w25-yard-runner
 *                   (instructor code, no student object) on the same
 *                   protocol and checks, before the student's runner starts
 *                   and after, the faster kept; TFLOP/s, >= 0.25 cuBLAS.
 * Every checkpoint of week 25 is judged: none is left to the linked test.
 * Not yet run on a GPU; without a GPU every checkpoint is SKIP
 * (instructor/tests/judge_w25.sh). */
#include "judge_w25.h"

static const hg_week W25 = { "hgemm_wmma", "wmma", W25_YARD_RUNNER };

static void judge_wmma(jd_ck *k) { hg_judge_correct(k, &W25); }
static void judge_wmma_speed(jd_ck *k) { hg_judge_vs_cublas(k, &W25); }
static void cublas_before(void) { hg_cublas_before(&W25); }

static const jd_checkpoint CPS[] = {
    { "w25.wmma", judge_wmma, NULL, 0, 0, NULL },
    { "w25.wmma-speed", judge_wmma_speed, NULL, 0, 0, cublas_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w25", "phase5/week25", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
