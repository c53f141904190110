/* mytest.cu — week 04, exercise 3: your own test of SAXPY and your own
 * benchmark of sl_saxpy, in plain C (mytest.h says what each must do).
 *
 * The week's test checks them: mt_check_saxpy must report 0 failures on
 * correct SAXPYs (sl_saxpy on the GPU; CPU versions with and without a fused
 * multiply-add) and at least one on each planted bug; the CSV must have the
 * documented header, units and arithmetic. README.md, "Exercise 3", says
 * what makes a test catch bugs. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "mytest.h"
#include "saxpylib.h"

/* Given: splitmix64, a generator for your inputs, seeded by the caller. */
static inline uint64_t mt_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). (Marked unused: no warning before your checks call it.) */
__attribute__((unused)) static inline float mt_uniform(uint64_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)((mt_next(s) >> 40) * (1.0 / 16777216.0));
}

/* TODO (optional): a helper for your checks, one check of one size. */

int mt_check_saxpy(mt_saxpy_fn saxpy, uint64_t seed, FILE *log)
{
    /* TODO: run your checks on saxpy and return how many failed; draw every
     * input from seed. Which sizes, which a, which tolerance: README.md,
     * "Exercise 3". -1 tells the week's test that nothing is written yet. */
    (void)saxpy, (void)seed, (void)log;
    return -1;
}

void mt_csv_header(FILE *out)
{
    /* TODO: the header line of mytest.h, units in the column names. */
    (void)out;
}

void mt_csv_row(FILE *out, const char *name, size_t n, double ms)
{
    /* TODO: one row: name, n, the bytes SAXPY moves, ms, GB/s (mytest.h). */
    (void)out, (void)name, (void)n, (void)ms;
}

/* TODO (optional): helpers for the benchmark (a comparison for qsort). */

int mt_bench_saxpy(size_t n, FILE *out)
{
    /* TODO: device arrays of n floats, a warm-up call, then timed calls of
     * sl_saxpy between cudaEventRecord(start) and cudaEventRecord(stop),
     * the median time, and the CSV (mt_csv_header, mt_csv_row). Free
     * everything; -1 on a CUDA error. */
    (void)n, (void)out;
    return -1;
}
