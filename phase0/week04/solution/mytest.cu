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

//@solution
enum { MT_GUARD = 8 }; /* poisoned floats after y[n-1]: a write past the end shows */

/* One check: SAXPY on n random elements, every element compared with a
 * double reference, the guard after the output still poisoned. 0: passed. */
static int mt_check_one(mt_saxpy_fn saxpy, uint64_t *s, size_t n, FILE *log)
{
    float *x = (float *)malloc((n + 1) * sizeof(float));
    float *y = (float *)malloc((n + MT_GUARD) * sizeof(float));
    float *y0 = (float *)malloc((n + 1) * sizeof(float));
    if (!x || !y || !y0) {
        fprintf(log, "n=%zu: out of host memory\n", n);
        free(x), free(y), free(y0);
        return 1;
    }
    /* |a| in [0.5, 2), either sign: never 1 (a SAXPY that ignores a passes
     * with a = 1) and never 0 (one that ignores x passes with a = 0). */
    float a = mt_uniform(s, 0.5f, 2.0f);
    if (a == 1.0f) a = 1.25f;
    if (mt_next(s) & 1) a = -a;
    for (size_t i = 0; i < n; i++) {
        x[i] = mt_uniform(s, -1, 1);
        y[i] = y0[i] = mt_uniform(s, -1, 1);
    }
    for (int g = 0; g < MT_GUARD; g++) y[n + g] = NAN;
    int failed = 0;
    if (saxpy(a, n ? x : NULL, n ? y : NULL, n) != 0) {
        fprintf(log, "n=%zu a=%g: the SAXPY returned an error\n", n, a);
        failed = 1;
    }
    /* |error| <= 1e-6 + 1e-6 |ref|: a float SAXPY rounds twice (a*x, then
     * the add), or once with an FMA, each time by at most 2^-24 of a value
     * below 3 here; the tolerance is a few times that, and NaN never passes. */
    for (size_t i = 0; i < n && !failed; i++) {
        double want = (double)a * x[i] + y0[i];
        if (!(fabs((double)y[i] - want) <= 1e-6 + 1e-6 * fabs(want))) {
            fprintf(log, "n=%zu a=%g: y[%zu] = %.9g, expected %.9g\n", n, a, i, y[i], want);
            failed = 1;
        }
    }
    for (int g = 0; g < MT_GUARD && !failed; g++)
        if (!isnan(y[n + g])) {
            fprintf(log, "n=%zu: y[%zu], past the end, was written (%.9g)\n", n, n + g, y[n + g]);
            failed = 1;
        }
    free(x), free(y), free(y0);
    return failed;
}
//@starter
//| /* TODO (optional): a helper for your checks, one check of one size. */
//@end

int mt_check_saxpy(mt_saxpy_fn saxpy, uint64_t seed, FILE *log)
{
    //@solution
    /* Edge sizes: empty, below and around a float4 (n % 4 = 1, 2, 3), around
     * a block of 256, past 2^20 (a grid that does not stride stops short),
     * and one drawn at random. */
    size_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 255, 256, 257, 1023, 1025, 4099, ((size_t)1 << 20) + 3, 0 };
    size_t count = sizeof sizes / sizeof sizes[0];
    uint64_t s = seed;
    sizes[count - 1] = 1 + (size_t)(mt_next(&s) % 300000);
    int failed = 0;
    for (size_t k = 0; k < count; k++) failed += mt_check_one(saxpy, &s, sizes[k], log);
    return failed;
    //@starter
    //| /* TODO: run your checks on saxpy and return how many failed; draw every
    //|  * input from seed. Which sizes, which a, which tolerance: README.md,
    //|  * "Exercise 3". -1 tells the week's test that nothing is written yet. */
    //| (void)saxpy, (void)seed, (void)log;
    //| return -1;
    //@end
}

void mt_csv_header(FILE *out)
{
    //@solution
    fputs("name,n,bytes,time_ms,gb_per_s\n", out);
    //@starter
    //| /* TODO: the header line of mytest.h, units in the column names. */
    //| (void)out;
    //@end
}

void mt_csv_row(FILE *out, const char *name, size_t n, double ms)
{
    //@solution
    double bytes = 12.0 * (double)n;
    fprintf(out, "%s,%zu,%.0f,%.6g,%.6g\n", name, n, bytes, ms, bytes / (ms * 1e-3) / 1e9);
    //@starter
    //| /* TODO: one row: name, n, the bytes SAXPY moves, ms, GB/s (mytest.h). */
    //| (void)out, (void)name, (void)n, (void)ms;
    //@end
}

//@solution
enum { MT_WARMUP = 3, MT_SAMPLES = 21 };

static int mt_cmp_float(const void *p, const void *q)
{
    float u = *(const float *)p, v = *(const float *)q;
    return (u > v) - (u < v);
}
//@starter
//| /* TODO (optional): helpers for the benchmark (a comparison for qsort). */
//@end

int mt_bench_saxpy(size_t n, FILE *out)
{
    //@solution
    float *x = NULL, *y = NULL, ms[MT_SAMPLES];
    cudaEvent_t start = NULL, stop = NULL;
    cudaError_t e = cudaMalloc((void **)&x, n * sizeof(float));
    if (e == cudaSuccess) e = cudaMalloc((void **)&y, n * sizeof(float));
    /* Inputs: every byte 0x3c, the float 0.0115; y grows by 0.0057 a call. */
    if (e == cudaSuccess) e = cudaMemset(x, 0x3c, n * sizeof(float));
    if (e == cudaSuccess) e = cudaMemset(y, 0x3c, n * sizeof(float));
    if (e == cudaSuccess) e = cudaEventCreate(&start);
    if (e == cudaSuccess) e = cudaEventCreate(&stop);
    /* Warm-up: the first call pays for loading the module and the clocks. */
    for (int k = 0; k < MT_WARMUP && e == cudaSuccess; k++) e = sl_saxpy(0.5f, x, y, n);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    /* Each sample between two events on stream 0, the stream sl_saxpy uses;
     * the median, not the mean, so one slow sample does not move it. */
    for (int k = 0; k < MT_SAMPLES && e == cudaSuccess; k++) {
        e = cudaEventRecord(start, 0);
        if (e == cudaSuccess) e = sl_saxpy(0.5f, x, y, n);
        if (e == cudaSuccess) e = cudaEventRecord(stop, 0);
        if (e == cudaSuccess) e = cudaEventSynchronize(stop);
        if (e == cudaSuccess) e = cudaEventElapsedTime(&ms[k], start, stop);
    }
    if (e == cudaSuccess) {
        qsort(ms, MT_SAMPLES, sizeof ms[0], mt_cmp_float);
        mt_csv_header(out);
        mt_csv_row(out, "sl_saxpy", n, ms[MT_SAMPLES / 2]);
    }
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    cudaFree(x), cudaFree(y);
    return e == cudaSuccess ? 0 : -1;
    //@starter
    //| /* TODO: device arrays of n floats, a warm-up call, then timed calls of
    //|  * sl_saxpy between cudaEventRecord(start) and cudaEventRecord(stop),
    //|  * the median time, and the CSV (mt_csv_header, mt_csv_row). Free
    //|  * everything; -1 on a CUDA error. */
    //| (void)n, (void)out;
    //| return -1;
    //@end
}
