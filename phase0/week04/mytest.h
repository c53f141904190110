/* mytest.h — week 04, exercise 3: your own test and benchmark of saxpylib.
 *
 * The week's test (test_week04.c) tests your library; here you write a test
 * and a benchmark of it yourself, and the week's test tests *them*: your
 * checks must pass a correct SAXPY and catch each of several planted bugs,
 * and your CSV must have the documented header, units and arithmetic.
 *
 * Plain C behind extern "C" (mytest.cu is compiled by nvcc only so that
 * mt_bench_saxpy can call the CUDA runtime): no Check, no wb_* helpers. */
#ifndef MYTEST_H
#define MYTEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A SAXPY under test, on HOST arrays: y[i] = a * x[i] + y[i] for i < n,
 * nothing else written. x and y may be NULL when n == 0. Returns 0, or
 * nonzero when the implementation reported an error (a CUDA error behind it).
 * The week's test hands your checks sl_saxpy (through a copy to the GPU and
 * back), correct CPU versions (with and without a fused multiply-add), and
 * CPU versions with a planted bug. */
typedef int (*mt_saxpy_fn)(float a, const float *x, float *y, size_t n);

/* Your test of a SAXPY: run your checks on `saxpy` and return how many of
 * them failed (0: every check passed). Draw the inputs (a, x, y, and any
 * sizes you choose at random) from `seed`: the week's test gives a fresh seed
 * each time. Compare against a reference computed in double, at a tolerance
 * a correct float SAXPY always meets. Write one line per failed check to
 * `log` (what, n, index, got, expected); nothing else. A check that the
 * implementation returned nonzero counts as a failed check. */
int mt_check_saxpy(mt_saxpy_fn saxpy, uint64_t seed, FILE *log);

/* The benchmark's CSV, one header line and one line per row:
 *
 *   name,n,bytes,time_ms,gb_per_s
 *   sl_saxpy,16777216,201326592,0.0712,2827.6
 *
 * (the figures of this example are invented: not yet measured)
 * name: what was timed (no comma, no quote); n: elements; bytes: the bytes
 * SAXPY moves, 12 per element (reads x and y, writes y); time_ms: one call,
 * in milliseconds; gb_per_s: bytes / (time_ms * 1e-3) / 1e9. Numbers with at
 * least 6 significant digits (%.6g). The units are in the column names. */
void mt_csv_header(FILE *out);
void mt_csv_row(FILE *out, const char *name, size_t n, double ms);

/* Time sl_saxpy on n floats in device memory with CUDA events (warm-up
 * first, then the median of several timed calls) and write the header and
 * one row named "sl_saxpy" to out. Returns 0, or -1 on a CUDA error (after
 * freeing what it allocated). Needs a GPU. */
int mt_bench_saxpy(size_t n, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
