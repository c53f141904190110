/* wb_test.h — a week's Check test, the workbook's way.
 *
 * A week's test file writes its tests with Check's START_TEST/END_TEST,
 * lists them in a table that says which checkpoint each serves and whether
 * it needs a GPU, lists its benchmarks, and hands both to wb_test_main:
 *
 *   START_TEST(vecadd_sizes) { ... } END_TEST
 *   static const wb_test TESTS[] = {
 *       { "w01.vecadd", WB_T(vecadd_sizes), WB_GPU, 8 },   // loop _i = 0..7
 *   };
 *   static const wb_benchmark BENCHES[] = { { "vecadd", bench_vecadd } };
 *   int main(int argc, char **argv) { return WB_TEST_MAIN(argc, argv, TESTS, BENCHES); }
 *
 * wb_test_main builds one Check test case per checkpoint (named by its id),
 * probes for a GPU in a child process (so the parent never touches CUDA and
 * Check's fork mode works), runs the GPU tests only when a device answered
 * and reports them skipped otherwise, prints a result per checkpoint with
 * one line on what to do next, and records passed checkpoints in the
 * progress file when WB_RECORD=1 and a GPU ran them.
 *
 * `test --bench` runs the benchmarks in-process instead; `--list` prints the
 * tests. Environment: WB_SEED (inputs), CK_FORK=no (debugging: one process,
 * for cuda-gdb and compute-sanitizer), CK_RUN_CASE=<checkpoint id>. */
#ifndef WB_TEST_H
#define WB_TEST_H

#include <check.h>
#include "wb.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { WB_CPU = 0, WB_GPU = 1 };

/* Check's START_TEST, less the pointer variable it also defines: the test
 * table refers to each test as WB_T(name), a constant address. */
#undef START_TEST
#define START_TEST(__testname)                                                                  \
    static void __testname##_fn(int _i CK_ATTRIBUTE_UNUSED);                                   \
    static const TTest __testname##_ttest = { "" #__testname, __testname##_fn, __FILE__, __LINE__ }; \
    static void __testname##_fn(int _i CK_ATTRIBUTE_UNUSED)

typedef struct {
    const char  *checkpoint;  /* id from week.txt */
    const TTest *test;        /* WB_T(name) */
    int          gpu;         /* WB_CPU or WB_GPU */
    int          loops;       /* 0: run once; k: run with _i = 0..k-1 */
} wb_test;

#define WB_T(name) (&name##_ttest)

/* A benchmark prints rows with wb_bench_emit and returns its headline ratio
 * (the figure a speed checkpoint compares with its target). */
typedef struct {
    const char *name;
    double (*run)(void);
} wb_benchmark;

int wb_test_main(int argc, char **argv, const wb_test *tests, int n_tests,
                 const wb_benchmark *benches, int n_benches);

#define WB_TEST_MAIN(argc, argv, tests, benches) \
    wb_test_main((argc), (argv), (tests), (int)(sizeof(tests) / sizeof((tests)[0])), \
                 (benches), (int)(sizeof(benches) / sizeof((benches)[0])))
#define WB_TEST_MAIN_NO_BENCH(argc, argv, tests) \
    wb_test_main((argc), (argv), (tests), (int)(sizeof(tests) / sizeof((tests)[0])), NULL, 0)

/* Inside a test: a generator for this test and loop index. */
#define WB_RNG() wb_rng_for(__func__, _i)

/* Inside a test: fail with the comparison's message unless it found nothing
 * wrong. `what` says which case ran ("n=1025"). */
#define WB_EXPECT_CMP(cmp, what) \
    ck_assert_msg((cmp).bad == 0, "%s (seed %llu): %s", (what), \
                  (unsigned long long)wb_base_seed(), (cmp).msg)

/* Inside a speed test: report the measured ratio and its detail as the
 * checkpoint's figure, then fail unless ratio >= the target in week.txt. */
void wb_expect_target(const char *checkpoint, double ratio, const char *detail);

/* Report a figure for a checkpoint without a target (shown and recorded). */
void wb_report_figure(const char *checkpoint, const char *figure);

/* The loaded week (valid inside tests and benchmarks). */
const wb_week *wb_current_week(void);

#ifdef __cplusplus
}
#endif
#endif
