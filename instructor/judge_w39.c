/* judge_w39.c — build/instructor/judge-w39: week 39's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (no JUDGED_WEEKS line, no
 * JUDGES row: the grader grades the week with its linked test until this
 * has run on a GPU; README.md's week 39 entry has the commands). It links
 * no student code: the student's softmax_ext.o (the C API, built without
 * WB_TORCH_EXT as the week's Check test links it) is linked into the runner
 * (judge_w39_runner.c), which this process starts (or is handed) and asks
 * to call softmax_ext on buffers it allocated (judge.h). It poisons, fills
 * and checks, and writes the results record itself, outside the runner's
 * reach. The command line, the runner's start, the record and the guarded
 * buffers are judge_week.c's:
 *
 *   judge-w39 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week39.c's, its case list copied here (the test has
 * no shared header of it; the reference ref_row is phase7/common/
 * softmax_host.h, the test's own), the case, the tolerances and the
 * refusals in judge_smx7.h (shared with week 40's judge). Each case is
 * drawn as the test draws it for the seed (wb_rng_for_seed with the test's
 * function name as tag, the case's index, afresh for each dtype):
 *   w39.capi  softmax_ext in FP32, FP16 and BF16 on the test's 12 shapes
 *             (0 x 64, 3 x 0, 1 x 1, 7 x 1, 5 x 3, 1 x 1000, 33 x 256,
 *             17 x 257, 64 x 4096, 8 x 8191, 2 x 100003, 4099 x 129),
 *             inputs U(-5, 5) rounded to the storage type; the test's 3
 *             special shapes (9 x 777, 8 x 8, 16 x 4097) with a 1e4, a row
 *             of -1e4, a NaN, a +Inf, -Inf elements, a row of -Inf only;
 *             y a guarded buffer read back whole, nothing written outside it
 *             (with 0 elements nothing at all: stricter than the test), every
 *             element within ATOL + RTOL |ref| of the double reference on the
 *             rounded inputs (RTOL 1e-5, 2e-3, 1.6e-2; ATOL 1e-6, 1e-7,
 *             1e-7), a NaN only where the reference is NaN (any NaN there, as
 *             in the test); then the test's 3 refusals (dtype 7, rows -1,
 *             cols -4) returning cudaErrorInvalidValue, the runner's
 *             synchronisation after each clean (the test's
 *             cudaDeviceSynchronize), y not touched (stricter than the test)
 *             and an FP32 4 x 8 call after them right (the judge's own
 *             evidence that nothing launched broke the context).
 * w39.capi is the week's only C checkpoint and is formed here: none is left
 * to the linked test. The week's Python checkpoints (w39.jit, w39.dtypes,
 * w39.setup, w39.cmake, w39.dispatcher, w39.opcheck, w39.compile) are
 * test_week39.py's, not the judge's business: the grader runs them as it
 * does now. The runner calls softmax_ext on the legacy default stream, as
 * the test does, and synchronises the device after every call; an error
 * found there becomes that call's status.
 *
 * The starter's softmax_ext returns cudaErrorNotYetImplemented: w39.capi
 * fails at its first case ("FP32 0 x 64: softmax_ext returned
 * cudaErrorNotYetImplemented").
 *
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without one w39.capi SKIPs (no CPU part):
 * instructor/tests/judge_w39.sh. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdio.h>

#include "judge.h"
#include "judge_smx7.h"
#include "judge_w39.h"
#include "judge_week.h"
#include "wb_rand.h"

_Static_assert((int)W39_FN_SOFTMAX == (int)SMX7_FN, "the runner's entry is judge_smx7.h's");

/* test_week39.c's cases */
static const long long SHAPES[][2] = { { 0, 64 }, { 3, 0 }, { 1, 1 }, { 7, 1 }, { 5, 3 }, { 1, 1000 }, { 33, 256 },
                                       { 17, 257 }, { 64, 4096 }, { 8, 8191 }, { 2, 100003 }, { 4099, 129 } };
static const long long SPECIAL[][2] = { { 9, 777 }, { 8, 8 }, { 16, 4097 } };
static const smx7_bad BAD[] = {
    { 2, 4, 7, 0, 0, "dtype 7" },
    { -1, 4, 0, 0, 0, "rows = -1" },
    { 2, -4, 1, 0, 0, "cols = -4" },
};
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The test's special rows, over x already U(-5, 5), rows and cols >= 8. */
static void specials(float *x, long long rows, long long cols)
{
    if (!(rows >= 8 && cols >= 8)) return;
    x[0 * cols + 3] = 1e4f; /* exp(1e4) overflows without the max */
    for (long long j = 0; j < cols; j++) x[1 * cols + j] = -1e4f;
    x[1 * cols + cols / 2] = -1e4f + 3;
    x[2 * cols + cols - 1] = NAN;
    x[3 * cols + 1] = INFINITY;
    for (long long j = 0; j < cols; j += 3) x[4 * cols + j] = -INFINITY;
    for (long long j = 0; j < cols; j++) x[5 * cols + j] = -INFINITY;
    x[6 * cols + 0] = -INFINITY;
}

static void judge_capi(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    smx7_bufs B;
    int rc = smx7_alloc(J, &B, smx7_largest(SHAPES, N_OF(SHAPES), smx7_largest(SPECIAL, N_OF(SPECIAL), 0)), t);
    for (int special = 0; special < 2; special++) {
        const long long(*S)[2] = special ? SPECIAL : SHAPES;
        const int n_s = special ? (int)N_OF(SPECIAL) : (int)N_OF(SHAPES);
        for (int i = 0; i < n_s && rc == 0 && !J->lost; i++)
            for (int dt = 0; dt < 3 && rc == 0 && !J->lost; dt++) {
                const long long rows = S[i][0], cols = S[i][1];
                wb_rng rng = wb_rng_for_seed(jd_seed, special ? "capi_special" : "capi_shapes", i);
                wb_fill_uniform_f32(&rng, B.xf, (size_t)(rows * cols), -5, 5);
                if (special) specials(B.xf, rows, cols);
                char what[128];
                snprintf(what, sizeof what, "%s %lld x %lld%s", SMX7_NAMES[dt], rows, cols,
                         special ? " with +-1e4, NaN, +-Inf rows" : "");
                rc = smx7_case(J, &B, "softmax_ext", dt, rows, cols, 0, what, t);
            }
    }
    smx7_finish(J, &B, rc, "softmax_ext", BAD, N_OF(BAD), t);
}

static const jd_checkpoint CPS[] = {
    { "w39.capi", judge_capi, NULL, 0, 0, NULL },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w39", "phase7/week39", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
