/* judge_w24.c — build/instructor/judge-w24: week 24's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's vec4.o, dbuf.o and warptile.o are linked into the runner
 * (judge_w24_runner.c), which this process starts (or is handed) and asks
 * to call them on buffers it allocated (judge.h). It poisons, fills, times
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record, the checked
 * case and the timed-call protocol are judge_week.c's; what the SGEMM weeks
 * share (the cases, the references, the run against cuBLAS) judge_gemm.c's:
 *
 *   judge-w24 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases mirror test_week24.c's (phase5/common/gemm_check.h, read by
 * judge_gemm.c, not copied), each drawn for the hidden seed with the test's
 * tag:
 *   w24.vec4, w24.dbuf, w24.warptile  the 18 sizes of GEMM_CASES (0 in
 *                 each dimension, 1 x 1 x 1, odd and tile-edge sizes, so
 *                 the float4 kernels' checked path too; A, B and C 1 and 3
 *                 floats past an aligned start, 1024^3 and 2049 x 3001 x
 *                 1999) and the two NaN/Inf cases (128^3 and 131 x 133 x
 *                 135: a NaN in A makes its row NaN, an Inf in B its column
 *                 Inf), and for warptile the test's warptile_large (2048 x
 *                 1536 x 1024), inputs uniform in [-1, 1], into a poisoned
 *                 C with a guard band on each side: every element within
 *                 the test's gemm_tol(K) (atol and rtol) of the double
 *                 product (the judge's cublasDgemm; the NaN/Inf cases' the
 *                 test's CPU product), a NaN where one is due written,
 *                 nothing written outside C. The test samples its three
 *                 largest cases; here every element is checked;
 *   w24.warptile-speed  warptile_sgemm at 4096^3 through the timed-call
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
 * the grader's cells as linked) is tested by instructor/tests/judge_w24.sh. */
#include <stddef.h>

#include "judge.h"
#include "judge_gemm.h"
#include "judge_w24.h"
#include "judge_week.h"
#include "w24_checks.h"

static void judge_vec4(jd_ck *k)
{
    jg_correct_all(k, W24_FN_VEC4, "vec4_sgemm", W24_VEC4_SIZES, W24_VEC4_NONFINITE, NULL);
}

static void judge_dbuf(jd_ck *k)
{
    jg_correct_all(k, W24_FN_DBUF, "dbuf_sgemm", W24_DBUF_SIZES, W24_DBUF_NONFINITE, NULL);
}

static void judge_warptile(jd_ck *k)
{
    static const jg_extra large = { W24_LARGE_M, W24_LARGE_N, W24_LARGE_K, 0, W24_WARPTILE_LARGE };
    jg_correct_all(k, W24_FN_WARPTILE, "warptile_sgemm", W24_WARPTILE_SIZES, W24_WARPTILE_NONFINITE, &large);
}

static void judge_warptile_speed(jd_ck *k) { jg_speed_vs_cublas(k, W24_FN_WARPTILE, "warptile_sgemm", "warp tiles"); }

static const jd_checkpoint CPS[] = {
    { "w24.vec4", judge_vec4, NULL, 0, 0, NULL },
    { "w24.dbuf", judge_dbuf, NULL, 0, 0, NULL },
    { "w24.warptile", judge_warptile, NULL, 0, 0, NULL },
    { "w24.warptile-speed", judge_warptile_speed, NULL, 0, 0, jg_yard_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w24", "phase5/week24", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
