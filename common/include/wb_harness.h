/* wb_harness.h — the harness that runs a week's Check tests, the workbook's way.
 *
 * A week's test file writes its tests with Check's START_TEST/END_TEST and
 * lists them in one table that says which checkpoint each serves, whether it
 * needs a GPU, and how many times it loops. A speed checkpoint is one line
 * naming its benchmark, WB_SPEED: the harness runs the benchmark, which
 * hands back its headline row through the wb_headline it is given
 * (wb_bench_headline), checks that the row's yardstick is the one week.txt's
 * target names, and applies the target for the GPU the run found (week.txt's
 * `| H200 >= 0.64` for that model, else the default: wb_target_for).
 *
 *   START_TEST(vecadd_sizes) { ... } END_TEST
 *   static double bench_vecadd(wb_headline *h) { ...; return wb_bench_headline(&row, h); }
 *   static const wb_test TESTS[] = {
 *       { "w01.vecadd", WB_T(vecadd_sizes), WB_GPU, WB_COUNT(SIZES) },  // _i = 0..n-1
 *       WB_SPEED("w01.vecadd-bw", bench_vecadd),
 *   };
 *   int main(int argc, char **argv) { return WB_TEST_MAIN_NO_BENCH(argc, argv, TESTS); }
 *
 * Benchmarks that serve no checkpoint (a ladder, a report) go in a
 * wb_benchmark table passed with WB_TEST_MAIN; `test --bench` runs those and
 * every WB_SPEED benchmark (named by its function, less "bench_").
 *
 * wb_test_main builds one Check test case per checkpoint (named by its id),
 * probes for a GPU in a child process (so the parent never touches CUDA and
 * Check's fork mode works), runs GPU tests only when a device answered and
 * reports them skipped otherwise, prints a line per checkpoint, and writes
 * the results record (wb_results.h) to the file WB_RESULTS names. It never
 * records progress itself: `wb report --record RESULTS` does, for make check.
 *
 * `test --list` prints the tests. Environment: WB_SEED (a decimal number or
 * "random", resolved once before any test runs), CK_FORK=no (one process, for
 * cuda-gdb and compute-sanitizer), CK_RUN_CASE=<checkpoint id> (run one
 * checkpoint; the others are reported skipped as not selected),
 * WB_TEST_TIMEOUT (seconds per test, default 300; once a test of a
 * checkpoint is stopped there, crashes or is killed, the checkpoint's later tests fail
 * at once, saying so), WB_NO_GPU=1. */
#ifndef WB_HARNESS_H
#define WB_HARNESS_H

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

/* A speed checkpoint's benchmark: it fills *h with its headline row
 * (wb_bench_headline(&row, h), which reads h->target) and returns its ratio. */
typedef double (*wb_speed_fn)(wb_headline *h);

typedef struct {
    const char  *checkpoint;        /* id from week.txt */
    const TTest *test;              /* WB_T(name); NULL for WB_SPEED */
    int          gpu;               /* WB_CPU or WB_GPU */
    int          loops;             /* 0: run once; k: run with _i = 0..k-1 */
    wb_speed_fn  bench;             /* WB_SPEED: the benchmark behind a speed checkpoint */
    const char  *bench_name;
} wb_test;

#define WB_T(name) (&name##_ttest)

/* A speed checkpoint: `fn` is a wb_speed_fn ending in wb_bench_headline. */
#define WB_SPEED(id, fn) { (id), NULL, WB_GPU, 0, (fn), #fn }

/* The number of elements of an array (not a pointer). */
#define WB_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A benchmark prints rows with wb_bench_emit and returns its headline ratio
 * (the figure a speed checkpoint compares with its target). One that touches
 * no GPU (a table computed on the CPU) says so, and runs where none is:
 *   { "accuracy", bench_accuracy, .cpu_only = 1 } */
typedef struct {
    const char *name;
    double (*run)(void);
    int         cpu_only; /* 1: needs no GPU (no CUDA call), runs without one */
} wb_benchmark;

int wb_test_main(int argc, char **argv, const wb_test *tests, int n_tests,
                 const wb_benchmark *benches, int n_benches);

#define WB_TEST_MAIN(argc, argv, tests, benches) \
    wb_test_main((argc), (argv), (tests), (int)WB_COUNT(tests), (benches), (int)WB_COUNT(benches))
#define WB_TEST_MAIN_NO_BENCH(argc, argv, tests) \
    wb_test_main((argc), (argv), (tests), (int)WB_COUNT(tests), NULL, 0)

/* Inside a test: a generator for this test and loop index. */
#define WB_RNG() wb_rng_for(__func__, _i)

/* Inside a test: fail with the comparison's message unless it found nothing
 * wrong. `what` says which case ran ("n=1025"). */
#define WB_EXPECT_CMP(cmp, what) \
    ck_assert_msg((cmp).bad == 0, "%s (seed %llu): %s", (what), \
                  (unsigned long long)wb_base_seed(), (cmp).msg)

/* Inside a test: check a guarded device output (wb_cuda.h). Waits for the
 * device, copies the output back, compares its first n elements with ref at
 * atol + rtol * |ref| (NaN never passes where a number is expected; integers
 * exactly), checks that the guard bands are untouched, and fails the test
 * with `what` ("n=1025") and the seed. */
void wb_expect_dout_f32(const wb_dout *o, const float *ref, size_t n, double atol, double rtol, const char *what);
void wb_expect_dout_f32_f64(const wb_dout *o, const double *ref, size_t n, double atol, double rtol,
                            const char *what);
void wb_expect_dout_f64(const wb_dout *o, const double *ref, size_t n, double atol, double rtol, const char *what);
void wb_expect_dout_u32(const wb_dout *o, const uint32_t *ref, size_t n, const char *what);
/* The guards only: fetch the output into host (o->bytes) for the test to
 * check itself, failing the test if anything was written outside it. */
void wb_expect_dout_guards(const wb_dout *o, void *host, const char *what);

/* Inside a test whose speed figure is not one benchmark's headline (a ratio
 * of two of the learner's own kernels, say): report the ratio with `detail`
 * (its figures for people, wb_bench_detail of the row it comes from) as the
 * checkpoint's figure, then fail unless it reaches week.txt's target for this
 * GPU. Prefer
 * WB_SPEED where it fits. */
void wb_expect_target(const char *checkpoint, double ratio, const char *detail);

/* Inside a test whose speed figure is one row but which cannot be a WB_SPEED
 * line (it must be SKIP where an optional library is missing): the row is
 * judged as a WB_SPEED headline is (wb_bench_headline emits it; the
 * yardstick must be the one the target names, the figure valid), and its
 * figure, unit, yardstick figure and ratio go to the results record. */
void wb_expect_target_row(const char *checkpoint, wb_bench_row *row);

/* Inside a test: report a figure for the checkpoint this test serves (one
 * without a target: shown, and kept in the results record). */
void wb_report(const char *figure);

/* Inside a test that cannot do its work on this machine for a reason that is
 * not the code's (gnuplot is not installed): its checkpoint is SKIP with the
 * reason, printed and in the results record, never PASS, and nothing is
 * recorded as done. wb_skip_test(...) says so and returns from the test. */
void wb_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define wb_skip_test(...) do { wb_skip(__VA_ARGS__); return; } while (0)

/* Inside a test that can shrink to fit the device memory there is (a
 * past-2^31 test checked at a smaller size where the GPU is small): 1 when
 * `bytes` are free (*free_out: the free bytes), 0 when the test should
 * shrink. Where the grader runs several students' correctness tests on one
 * GPU (WB_GPU_SHARED=1) the test must not shrink, since a pass there stands:
 * it is SKIP instead ("the GPU is shared"), the grader runs it again alone,
 * and it returns -1 (WB_DEVICE_ROOM returns from the test). */
int wb_device_room(size_t bytes, size_t *free_out);

/* Inside a GPU test that needs k GPUs (Phase 8): on a machine with fewer,
 * its checkpoint is SKIP with "needs k GPUs, found m", never PASS. The
 * parts that run on one GPU are checkpoints of their own. */
#define wb_need_gpus(k)                                                                                        \
    do {                                                                                                       \
        int wb_found_ = wb_gpu_count();                                                                         \
        if (wb_found_ < (k)) wb_skip_test("needs %d GPUs, found %d", (int)(k), wb_found_);                     \
    } while (0)

/* Inside a GPU test of architecture-specific code, built for one compute
 * capability only (week.txt `nvflags: -gencode=arch=compute_90a,code=sm_90a`:
 * wgmma, TMA, setmaxnreg): such a cubin loads on that compute capability and
 * no other, and there is no PTX to fall back on. On any other GPU the
 * checkpoint is SKIP with why, never PASS and never FAIL (the learner's code
 * is not at fault). `what` names the code ("tma_copy (TMA, mbarriers)").
 * Weeks 27 and 53-56; a benchmark that is no test checks wb_device_is_cc. */
#define wb_device_is_cc(major, minor) \
    (wb_this_device()->cc_major == (major) && wb_this_device()->cc_minor == (minor))
#define wb_need_cc(major, minor, what)                                                                           \
    do {                                                                                                         \
        if (!wb_device_is_cc((major), (minor)))                                                                  \
            wb_skip_test("%s is sm_%d%da code, which loads only on a compute capability %d.%d GPU%s; this one is " \
                         "%d.%d", (what), (major), (minor), (major), (minor),                                    \
                         (major) == 9 && (minor) == 0 ? " (H100, H200)" : "", wb_this_device()->cc_major,       \
                         wb_this_device()->cc_minor);                                                            \
    } while (0)
#define wb_need_sm90a(what) wb_need_cc(9, 0, (what))

/* Draws `png` from `csv` with the gnuplot script `script` (run as gnuplot
 * -e "csv='...'; png='...'" script) and says so on stdout. 1 when the PNG was
 * drawn (wb_png_ok), 0 when gnuplot is not installed (the CSV stands alone:
 * the test then calls wb_skip_test_no_gnuplot), -1 when gnuplot failed. */
int wb_gnuplot(const char *script, const char *csv, const char *png);
#define wb_skip_test_no_gnuplot(csv)                                                                           \
    wb_skip_test("gnuplot is not installed: %s is written, the plot is not drawn (sudo apt-get install "         \
                 "gnuplot-nox, then check again)", (csv))

/* True when `path` is a PNG file (its signature) of more than 1 KiB: a plot
 * that was really drawn. */
int wb_png_ok(const char *path);

/* The loaded week (valid inside tests and benchmarks). */
const wb_week *wb_current_week(void);

#ifdef __cplusplus
}
#endif
#endif
