/* wb_bench.h — timing GPU work and printing benchmark results.
 *
 * Timing uses CUDA events around the work on the default stream: warm-up
 * runs first (module load, first-touch, handle creation stay out), then many
 * samples; the median is the figure, the minimum is printed beside it. With
 * flush_l2 a buffer of twice the L2 size is overwritten before each sample
 * (outside the timed region), so no sample is served from L2. Benchmarks
 * should still size their working sets well past L2 (wb_bench_bytes()).
 * After each sample the device must be idle: work still running once the
 * stop event has completed (a stream the events do not wait for) is found
 * by waiting for it, and when most samples had some, wb_time gives NaN and
 * the row says why: work timed on the side gets no figure.
 *
 * Every speed figure is a ratio to a yardstick measured in the same run:
 * wb_yard_copy_gbps() for memory-bound kernels (cudaMemcpy device to device,
 * counting bytes read plus bytes written), a library call for the others. */
#ifndef WB_BENCH_H
#define WB_BENCH_H

#include <stddef.h>
#include "wb_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int warmup;    /* untimed runs first (default 3) */
    int samples;   /* timed runs (default 20) */
    int flush_l2;  /* overwrite L2 before every sample (default 1) */
    /* A spot check (both or neither): before one timed sample chosen at
     * random in the second half, fresh(ctx, salt) gives the work new inputs
     * drawn with `salt` and poisons its output, outside the timed region;
     * after it, check(ctx, why, size) says whether that output is right (0)
     * or why not; then fresh(ctx, 0) puts the first inputs back and the
     * work runs once more, untimed, so its output is the first inputs'. Work that
     * skips itself when called again with the same arguments, or answers
     * from a cache, fails the check, and wb_time gives no figure. */
    void (*fresh)(void *ctx, unsigned long long salt);
    int  (*check)(void *ctx, char *why, size_t why_size);
    /* The work's output (optional; for work whose output is the same bits
     * every time it runs on the same inputs, and in which the all-ones
     * pattern is rare): poisoned (every byte 0xFF) before every warm-up run
     * and every sample, outside the timed region and before L2 is
     * overwritten; after each sample, untimed, 64 of its 4-byte words at
     * positions drawn from the clock are read back. A sample whose words
     * differ from the output the work leaves at the end (which the benchmark
     * then verifies) gives no figure. Work that tells timed runs from checked runs by the output's
     * pattern (the poison the checks leave, the last run's numbers) has
     * nothing to tell them apart by, and a sample that skipped its work, or
     * wrote something cheaper, is seen. */
    void  *out;
    size_t out_bytes;
} wb_bench_opts;

#define WB_BENCH_DEFAULTS { 3, 20, 1, NULL, NULL, NULL, 0 }

/* The work to time: enqueue it on the default stream and return; never
 * synchronise inside. */
typedef void (*wb_work_fn)(void *ctx);

/* Time `fn` and fill *t with milliseconds per call (median, min, ...).
 * opts may be NULL for the defaults; WB_BENCH_SAMPLES overrides samples.
 * When the timing gives no figure (work on the side, a failed spot check)
 * the times are NaN and t->refused says why; a row timed into its own t
 * carries that reason to its detail. */
void wb_time(wb_work_fn fn, void *ctx, const wb_bench_opts *opts, wb_summary *t);

/* A working-set size, in bytes, for one buffer of a memory-bound benchmark:
 * at least 8x the L2 and 256 MiB, at most an eighth of device memory. */
size_t wb_bench_bytes(void);

/* Yardstick: device-to-device cudaMemcpy of `bytes`, in GB/s counting read
 * plus written bytes (2 * bytes per copy); median of warm runs. It is timed
 * exactly as wb_time times the learner's work with the default options:
 * the same warm-up, the same samples, L2 overwritten before each one, so
 * neither side starts from a cache the other did not get. */
double wb_yard_copy_gbps(size_t bytes);

/* One line of a benchmark table. `value` and `yard` share `unit`. */
typedef struct {
    const char *exercise;  /* "vecadd" */
    const char *variant;   /* "float4 grid-stride" */
    size_t      n;         /* problem size (elements, or M=N=K) */
    double      bytes;     /* bytes the kernel must move (for GB/s, roofline) */
    double      flops;     /* floating-point operations (0 if none counted) */
    wb_summary  t;         /* milliseconds */
    double      value;     /* the figure: GB/s, TFLOP/s, ... */
    const char *unit;      /* "GB/s" */
    const char *yard_name; /* "COPY", "cuBLAS", ... (NULL: none) */
    double      yard;      /* the yardstick's figure in the same unit */
    double      target;    /* target ratio (0: none) */
    int         invalid;   /* set by wb_bench_invalid */
    char        why[200];  /* wb_bench_invalid's reason, kept with the row */
} wb_bench_row;

/* A benchmark checks the output of its timed runs before it reports a
 * figure: a kernel that is fast because it is wrong must not pass a speed
 * checkpoint. wb_dverify_f32 compares `samples` random elements of a device
 * array (and its first and last 64) with expect(i, ctx); it returns the
 * number wrong, with the message in *out. */
#include "wb_compare.h"
typedef double (*wb_expect_fn)(size_t i, const void *ctx);
size_t wb_dverify_f32(const char *name, const float *d, size_t n, wb_expect_fn expect, const void *ctx,
                      size_t samples, double atol, double rtol, wb_cmp *out);

/* Mark a row as having no valid figure (wrong output): value becomes NaN,
 * the ratio NaN, and `why` is kept in the row, for its detail. */
void wb_bench_invalid(wb_bench_row *r, const char *why);

/* The row's detail, for people and the results record: "3027 GB/s vs COPY
 * 2957 GB/s", or why it has no valid figure (wrong output, a refused
 * timing, a yardstick that failed). Written into buf (n bytes); returns buf. */
const char *wb_bench_detail(const wb_bench_row *r, char *buf, size_t n);

/* Print the header once per process, then one aligned line per row; when
 * WB_CSV names a file, append a CSV row (header written if the file is new)
 * with units in the column names and device/version columns. */
void wb_bench_emit(const wb_bench_row *r);
/* The ratio of the row (value / yard, NaN without a yardstick). */
double wb_bench_ratio(const wb_bench_row *r);

/* The headline row: the one row of a benchmark that a speed checkpoint
 * judges. A benchmark named in the test table with WB_SPEED takes the
 * harness's wb_headline and ends with
 *
 *     return wb_bench_headline(&row, h);
 *
 * which fills row.target from h->target, the checkpoint's target in
 * week.txt (when the row has none), emits the row like wb_bench_emit, fills
 * *h from it and returns its ratio. The harness then checks that the row's
 * yardstick is the one the target names, that the figure is valid, and that
 * the ratio reaches the target. h may be NULL (a row emitted as a headline
 * where no checkpoint judges it). */
typedef struct {
    double target;     /* in: the target the benchmark serves (0: none) */
    int    set;        /* out, from here on: a headline row was emitted */
    int    invalid;    /* its output was wrong */
    double value, yard, ratio;
    char   unit[24];
    char   yard_name[32];
    char   detail[200]; /* the row's detail (wb_bench_detail), with its size */
} wb_headline;

double wb_bench_headline(wb_bench_row *r, wb_headline *h);

#ifdef __cplusplus
}
#endif
#endif
