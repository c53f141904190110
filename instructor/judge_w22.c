/* judge_w22.c — build/instructor/judge-w22: week 22's judge (instructor/
 * README.md, "The judge and the runner"). It links no student code: the
 * student's tiled.o is linked into the runner (judge_w22_runner.c), which
 * this process starts (or is handed) and asks to call its functions on
 * buffers it allocated (judge.h). It poisons, fills, times and checks, and
 * writes the results record itself, outside the runner's reach. The
 * command line, the runner's start, the record, the checked case and the
 * timed-call protocol are judge_week.c's; what the SGEMM weeks share (the
 * cases, the references, the run against cuBLAS) judge_gemm.c's:
 *
 *   judge-w22 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The cases mirror test_week22.c's (phase5/common/gemm_check.h, read by
 * judge_gemm.c, not copied; the tile sizes and the default's cases in
 * phase5/week22/w22_checks.h), each drawn for the hidden seed with the
 * test's tag:
 *   w22.tiled     tiled_sgemm_t at T = 8, 16 and 32 on the 18 sizes of
 *                 GEMM_CASES (0 in each dimension, 1 x 1 x 1, odd and
 *                 tile-edge sizes, A, B and C 1 and 3 floats past an
 *                 aligned start, 1024^3 and 2049 x 3001 x 1999) and the two
 *                 NaN/Inf cases (128^3 and 131 x 133 x 135), and
 *                 tiled_sgemm on 127 x 129 x 255 and 1000 x 1001 x 999,
 *                 inputs uniform in [-1, 1], into a poisoned C with a guard
 *                 band on each side: every element within the test's
 *                 gemm_tol(K) (atol and rtol) of the double product (the
 *                 judge's cublasDgemm; the NaN/Inf cases' the test's CPU
 *                 product), a NaN where one is due written, nothing written
 *                 outside C (the test samples its two largest cases; here
 *                 every element is checked). Then the occupancy, as the
 *                 test asks it: tiled_sgemm_blocks_per_sm(T) for T = 8, 16,
 *                 32 at least 1 and never more threads than an SM holds
 *                 (the judge's own cudaDevAttrMaxThreadsPerMultiProcessor),
 *                 0 for T = 12, and tiled_sgemm_t(12, 4, 4, 4, NULL, NULL,
 *                 NULL) cudaErrorInvalidValue. The block counts are what
 *                 the student's function computes inside the runner (the
 *                 occupancy API on the student's own kernels), in the
 *                 linked test as here: the judge asks as the test asks and
 *                 holds the answers to the same bounds, so a runner that
 *                 reports them claims no more than a test program does;
 *   w22.tiled-speed  tiled_sgemm at 4096^3 through the timed-call protocol
 *                 (judge_week.h): 64 calls a request, each on its own A and
 *                 B fresh from the hidden seed in [-1, 1) and its own
 *                 poisoned C, the judge's look after the reply, every
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
 * the grader's cells as linked) is tested by instructor/tests/judge_w22.sh. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "judge.h"
#include "judge_gemm.h"
#include "judge_w22.h"
#include "judge_week.h"
#include "w22_checks.h"

static const char *status_name(int st) { return st < 0 ? "a runner failure" : cudaGetErrorName((cudaError_t)st); }

/* tiled_sgemm_blocks_per_sm(T) through the runner: 0 and *blocks, or -1
 * with why in t. */
static int blocks_per_sm(jd *J, int T, int *blocks, jd_tally *t)
{
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W22_FN_BLOCKS, 1, 0);
    rq.i64[0] = T;
    if (jd_call(J, &rq, &rp, NULL) != 0) return jd_failf(t, "tiled_sgemm_blocks_per_sm: %s", J->why), -1;
    if (rp.status != 0 || rp.out_len != sizeof *blocks)
        return jd_failf(t, "tiled_sgemm_blocks_per_sm(%d): no figure came back", T), -1;
    memcpy(blocks, rp.out, sizeof *blocks);
    return 0;
}

/* The test's tiled_occupancy. */
static void occupancy(jd_ck *k)
{
    jd_tally *t = k->t;
    int max_threads = 0, b = 0;
    t->tests++;
    if (cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, jd_dev) != cudaSuccess)
        return jd_failf(t, "the judge's cudaDeviceGetAttribute failed");
    for (int i = 0; i < 3; i++) {
        int T = W22_TILES[i];
        if (blocks_per_sm(k->J, T, &b, t) != 0) return;
        printf("  T=%2d: %d threads/block, %2d blocks/SM, %d of %d threads (the runner's report)\n", T, T * T, b,
               b * T * T, max_threads);
        if (!(b >= 1 && b * T * T <= max_threads))
            return jd_failf(t, "tiled_sgemm_blocks_per_sm(%d) = %d: expected 1..%d", T, b, max_threads / (T * T));
    }
    if (blocks_per_sm(k->J, W22_BAD_TILE, &b, t) != 0) return;
    if (b != 0) return jd_failf(t, "tiled_sgemm_blocks_per_sm(%d) = %d: expected 0", W22_BAD_TILE, b);
    jd_req rq;
    jd_rep rp;
    jd_call_setup(&rq, W22_FN_TILED_T, 1, 3); /* A, B and C NULL */
    rq.i64[1] = 4, rq.i64[2] = 4, rq.i64[3] = 4, rq.i64[4] = W22_BAD_TILE;
    if (jd_call(k->J, &rq, &rp, NULL) != 0) return jd_failf(t, "tiled_sgemm_t: %s", k->J->why);
    if (rp.status != (int)cudaErrorInvalidValue)
        jd_failf(t, "tiled_sgemm_t(%d, 4, 4, 4, NULL, NULL, NULL) returned %s: expected cudaErrorInvalidValue",
                 W22_BAD_TILE, status_name(rp.status));
}

static void judge_tiled(jd_ck *k)
{
    for (int i = 0; i < 3 && !k->J->lost; i++) {
        jg_set s = { .fn = W22_FN_TILED_T, .fn_name = "tiled_sgemm_t", .tag_sizes = W22_TILED_SIZES,
                     .tag_nonfinite = W22_TILED_NONFINITE, .arg = W22_TILES[i], .arg_name = "T" };
        jg_correct(k, &s);
    }
    if (k->J->lost) return;
    jg_set d = { .fn = W22_FN_TILED, .fn_name = "tiled_sgemm", .tag_sizes = W22_TILED_DEFAULT,
                 .only = W22_DEFAULT_CASES, .n_only = 2 };
    jg_correct(k, &d);
    if (!k->J->lost) occupancy(k);
}

static void judge_tiled_speed(jd_ck *k) { jg_speed_vs_cublas(k, W22_FN_TILED, "tiled_sgemm", "tiled"); }

static const jd_checkpoint CPS[] = {
    { "w22.tiled", judge_tiled, NULL, 0, 0, NULL },
    { "w22.tiled-speed", judge_tiled_speed, NULL, 0, 0, jg_yard_before },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w22", "phase5/week22", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
