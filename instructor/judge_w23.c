/* judge_w23.c — build/instructor/judge-w23: week 23's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's tile1d.o and tile2d.o are linked into the runner
 * (judge_w23_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the checked
 * case and the timed-call protocol are judge_week.c's; what the SGEMM weeks
 * share (the cases, the references, the run against cuBLAS) judge_gemm.c's:
 *
 *   judge-w23 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases mirror test_week23.c's (phase5/common/gemm_check.h, read by
 * judge_gemm.c, not copied), each drawn for the hidden seed with the test's
 * tag:
 *   w23.tile1d, w23.tile2d  the 18 sizes of GEMM_CASES (0 in each
 *                 dimension, 1 x 1 x 1, odd and tile-edge sizes, A, B and C
 *                 1 and 3 floats past an aligned start, 1024^3 and
 *                 2049 x 3001 x 1999) and the two NaN/Inf cases (128^3 and
 *                 131 x 133 x 135: a NaN in A makes its row NaN, an Inf in
 *                 B its column Inf), inputs uniform in [-1, 1], into a
 *                 poisoned C with a guard band on each side: every element
 *                 within the test's gemm_tol(K) (atol and rtol) of the
 *                 double product (the judge's cublasDgemm; the NaN/Inf
 *                 cases' the test's CPU product), a NaN where one is due
 *                 written, nothing written outside C. The test samples its
 *                 two largest cases; here every element is checked;
 *   w23.tile2d-speed  tile2d_sgemm at 4096^3 through the timed-call
 *                 protocol (judge_week.h): 64 calls a request, each on its
 *                 own A and B fresh from the hidden seed in [-1, 1) and its
 *                 own poisoned C, the judge's look after the reply, every
 *                 element of every C checked after the timing against the
 *                 judge's cublasDgemm of the same inputs within the test's
 *                 gemm_tol(4096) (the test samples 1024); the median of 5
 *                 requests, TFLOP/s, against cuBLAS FP32 (pedantic) timed
 *                 through the same protocol, sizes and checks by the judge's
 *                 yard runner (judge_gemm_yard_runner.c, instructor code
 *                 only) before the student's runner starts and again after,
 *                 the faster kept; the target for this GPU from week.txt.
 * Every checkpoint is formed here; none is left to the linked test.
 * Not yet run on a GPU. Without a GPU the plumbing (every checkpoint SKIP,
 * the grader's cells as linked) is tested by instructor/tests/judge_w23.sh. */
#include <stddef.h>

#include "judge.h"
#include "judge_gemm.h"
#include "judge_w23.h"
#include "judge_week.h"
#include "w23_checks.h"

static void judge_tile1d(jd_ck *k)
{
    jg_correct_all(k, W23_FN_TILE1D, "tile1d_sgemm", W23_TILE1D_SIZES, W23_TILE1D_NONFINITE, NULL);
}

static void judge_tile2d(jd_ck *k)
{
    jg_correct_all(k, W23_FN_TILE2D, "tile2d_sgemm", W23_TILE2D_SIZES, W23_TILE2D_NONFINITE, NULL);
}

static void judge_tile2d_speed(jd_ck *k) { jg_speed_vs_cublas(k, W23_FN_TILE2D, "tile2d_sgemm", "2D register tiles"); }

static const jd_checkpoint CPS[] = {
    { "w23.tile1d", judge_tile1d, NULL, 0, 0, NULL },
    { "w23.tile2d", judge_tile2d, NULL, 0, 0, NULL },
    { "w23.tile2d-speed", judge_tile2d_speed, NULL, 0, 0, jg_yard_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w23", "phase5/week23", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
