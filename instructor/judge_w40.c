/* judge_w40.c — build/instructor/judge-w40: week 40's judge (instructor/
 * README.md, "The judge and the runner"). STAGED: written and tested
 * without a GPU, not yet used by the grader (no JUDGED_WEEKS line, no
 * JUDGES row: the grader grades the week with its linked test until this
 * has run on a GPU; README.md's week 40 entry has the commands). It links
 * no student code: the student's softmax_checked.o (the C API, built
 * without WB_TORCH_EXT as the week's Check test links it) is linked into
 * the runner (judge_w40_runner.c), which this process starts (or is handed)
 * and asks to call softmax_checked on buffers it allocated (judge.h). It
 * poisons, fills and checks, and writes the results record itself, outside
 * the runner's reach. The command line, the runner's start, the record and
 * the guarded buffers are judge_week.c's:
 *
 *   judge-w40 --record FILE --checkpoint ID|all [--seed N] [--device D] [--week-dir DIR] RUNNER-START
 *   (RUNNER-START as judge-w01's: --sock FD [--pid P] | --sandbox SCRATCH RUNNER | RUNNER)
 *
 * The checks are test_week40.c's, its case list and bad arguments copied
 * here (the test has no shared header of them; the reference ref_row is
 * phase7/common/softmax_host.h, the test's own), the case, the tolerances
 * and the refusals in judge_smx7.h (shared with week 39's judge). Each case
 * is drawn as the test draws it for the seed (wb_rng_for_seed with the
 * test's function name as tag, the case's index, afresh for each dtype and
 * each of separate and in place):
 *   w40.capi  softmax_checked in FP32, FP16 and BF16 on the test's 7 shapes
 *             (0 x 8, 4 x 0, 1 x 1, 5 x 3, 17 x 257, 8 x 8191, 3 x 100003),
 *             inputs U(-5, 5) with a NaN in row 1 and a -Inf in row 2 where
 *             there are 3 rows and 2 columns, rounded to the storage type;
 *             each with y separate and in place (y == x: y poisoned, then
 *             x put there); y a guarded buffer read back whole, nothing
 *             written outside it (with 0 elements nothing at all: stricter
 *             than the test), every element within ATOL + RTOL |ref| of the
 *             double reference on the rounded inputs (RTOL 1e-5, 2e-3,
 *             1.6e-2; ATOL 1e-6, 1e-7, 1e-7), a NaN only where the reference
 *             is NaN (any NaN there, as in the test); then the test's 7 bad
 *             calls (rows -1, cols -8, rows 2^31, dtype 3 and -1, x NULL, y
 *             NULL with 4 x 8 to compute) each returning
 *             cudaErrorInvalidValue, the runner's synchronisation after
 *             each clean (the test's cudaDeviceSynchronize), y of 32 floats
 *             not touched (every byte the poison, its bands too; the test
 *             takes any NaN), and an FP32 4 x 8 call after them right (the
 *             judge's own evidence that nothing launched broke the context).
 * w40.capi is the week's only C checkpoint and is formed here: none is left
 * to the linked test. The week's Python checkpoints (w40.device to
 * w40.compile, the binding's checks, torch's streams and devices) are
 * test_week40.py's, not the judge's business: the grader runs them as it
 * does now. The runner calls softmax_checked on the legacy default stream,
 * as the test does, and synchronises the device after every call; an error
 * found there becomes that call's status.
 *
 * The starter's softmax_checked computes (week 39's kernel is given) but
 * refuses nothing: w40.capi's cases pass and it fails at the first bad
 * call ("softmax_checked with rows = -1 returned
 * cudaErrorInvalidConfiguration, want cudaErrorInvalidValue").
 *
 * Run on an H200 (2026-11-29), alone, plain and sandboxed: the reference PASS, the starter FAIL. Without one w40.capi SKIPs (no CPU part):
 * instructor/tests/judge_w40.sh. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>

#include "judge.h"
#include "judge_smx7.h"
#include "judge_w40.h"
#include "judge_week.h"
#include "wb_rand.h"

_Static_assert((int)W40_FN_SOFTMAX == (int)SMX7_FN, "the runner's entry is judge_smx7.h's");

/* test_week40.c's cases */
static const long long SHAPES[][2] = { { 0, 8 }, { 4, 0 }, { 1, 1 }, { 5, 3 }, { 17, 257 }, { 8, 8191 }, { 3, 100003 } };
static const smx7_bad BAD[] = {
    { -1, 8, 0, 0, 0, "rows = -1" },
    { 4, -8, 1, 0, 0, "cols = -8" },
    { 1LL << 31, 1, 0, 0, 0, "rows = 2^31 (one block a row: past the grid)" },
    { 4, 8, 3, 0, 0, "dtype 3" },
    { 4, 8, -1, 0, 0, "dtype -1" },
    { 4, 8, 0, 1, 0, "x NULL with 4 x 8 to compute" },
    { 4, 8, 2, 0, 1, "y NULL with 4 x 8 to compute" },
};
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void judge_capi(jd_ck *k)
{
    jd *J = k->J;
    jd_tally *t = k->t;
    smx7_bufs B;
    int rc = smx7_alloc(J, &B, smx7_largest(SHAPES, N_OF(SHAPES), 0), t);
    for (int i = 0; i < (int)N_OF(SHAPES) && rc == 0 && !J->lost; i++)
        for (int dt = 0; dt < 3 && rc == 0 && !J->lost; dt++)
            for (int ip = 0; ip < 2 && rc == 0 && !J->lost; ip++) {
                const long long rows = SHAPES[i][0], cols = SHAPES[i][1];
                wb_rng rng = wb_rng_for_seed(jd_seed, "capi_shapes", i);
                wb_fill_uniform_f32(&rng, B.xf, (size_t)(rows * cols), -5, 5);
                if (rows >= 3 && cols >= 2) B.xf[1 * cols + 1] = NAN, B.xf[2 * cols] = -INFINITY;
                char what[96];
                snprintf(what, sizeof what, "%s %lld x %lld%s", SMX7_NAMES[dt], rows, cols, ip ? " in place" : "");
                rc = smx7_case(J, &B, "softmax_checked", dt, rows, cols, ip, what, t);
            }
    smx7_finish(J, &B, rc, "softmax_checked", BAD, N_OF(BAD), t);
}

static const jd_checkpoint CPS[] = {
    { "w40.capi", judge_capi, NULL, 0, 0, NULL },
};

int main(int argc, char **argv)
{
    return jd_week_main(argc, argv, "judge-w40", "phase7/week40", CPS, (int)(sizeof CPS / sizeof CPS[0]));
}
