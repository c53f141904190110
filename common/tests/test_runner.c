/* test_runner.c — the harness's own checkpoint logic, run as a week's test
 * would be: week 01's week.txt with a test table of its own (no CUDA):
 *   w01.devquery  its test calls wb_skip_test  -> skip, with the reason
 *   w01.vecadd    passes if NVLink multicast is off in the test process
 *                 (make test runs it with the settings turned on)  -> pass
 *   w01.vecadd-bw has a target, but its test reports no figure -> fail
 * With WB_RUNNER_EXIT=1, w01.vecadd has a second test whose process
 * exits with status 0 in its middle, as code under test calling _exit(0)
 * would: Check's fork mode alone counts that as passed -> fail.
 * With WB_RUNNER_HANG=loop, w01.devquery is four tests that never end
 * (a learner's loop): the first runs to WB_TEST_TIMEOUT, the other three
 * fail at once; with WB_RUNNER_HANG=crash the first crashes and the rest
 * would never end; with WB_RUNNER_HANG=kill the first is killed by SIGKILL
 * (as the out-of-memory killer does) and the rest would never end. Each way
 * w01.devquery fails and the other checkpoints
 * run as they do without it. With WB_RUNNER_HANG=fail the first fails a
 * check and the other three pass: 1 of 4 failed, none "not run", whatever
 * CK_TIMEOUT_MULTIPLIER says (0: Check sets no time limit).
 * `make test` runs it with WB_RESULTS and checks the statuses. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wb_harness.h"

START_TEST(skips_itself) { wb_skip_test("gnuplot is not installed: the runner's own skip"); } END_TEST
START_TEST(passes) { ck_assert_int_eq(1 + 1, 2); } END_TEST
START_TEST(multicast_off)
{
    const char *want[][2] = { { "NCCL_NVLS_ENABLE", "0" }, { "TORCH_SYMM_MEM_DISABLE_MULTICAST", "1" },
                              { "NVSHMEM_DISABLE_NVLS", "1" } };
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(want[i][0]);
        ck_assert_msg(v && !strcmp(v, want[i][1]), "%s=%s in the test process, expected %s", want[i][0],
                      v ? v : "(unset)", want[i][1]);
    }
}
END_TEST

START_TEST(exits_early)
{
    const char *e = getenv("WB_RUNNER_EXIT");
    if (e && !strcmp(e, "1")) _exit(0);
}
END_TEST

START_TEST(never_ends)
{
    const char *e = getenv("WB_RUNNER_HANG");
    if (_i == 0 && e && !strcmp(e, "crash")) raise(SIGSEGV);
    if (_i == 0 && e && !strcmp(e, "kill")) raise(SIGKILL);
    /* fail: the first test fails a check at once and the other three pass (no loop) */
    if (e && !strcmp(e, "fail")) {
        ck_assert_msg(_i != 0, "the first test fails a check");
        return;
    }
    for (volatile unsigned long k = 0;; k++) {}
}
END_TEST

static const wb_test TESTS[] = {
    { "w01.devquery", WB_T(skips_itself), WB_CPU, 0 },
    { "w01.vecadd", WB_T(multicast_off), WB_CPU, 0 },
    { "w01.vecadd", WB_T(exits_early), WB_CPU, 0 },
    { "w01.vecadd-bw", WB_T(passes), WB_CPU, 0 },
};

static const wb_test HANGS[] = {
    { "w01.devquery", WB_T(never_ends), WB_CPU, 4 },
    { "w01.vecadd", WB_T(multicast_off), WB_CPU, 0 },
    { "w01.vecadd-bw", WB_T(passes), WB_CPU, 0 },
};

int main(int argc, char **argv)
{
    const char *hang = getenv("WB_RUNNER_HANG");
    if (hang && *hang) return WB_TEST_MAIN_NO_BENCH(argc, argv, HANGS);
    return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS);
}
