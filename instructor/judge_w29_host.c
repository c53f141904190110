/* judge_w29_host.c — week 29's three functions on the CPU, for testing the
 * judge without a GPU (instructor/tests/judge_w29.sh): linked with
 * judge_w29_runner.c into build/instructor/judge-w29-host-runner, which the
 * judge, having no GPU, gives host buffers. They return cudaSuccess, so the
 * judge run with JUDGE_W29_HOST_CHECKS=1 (without it the GPU checkpoints
 * SKIP without a GPU) checks every output as it would a GPU's: correct (W29_HOST_BUG
 * unset) no case may fail; each bug below must fail where the test would
 * on a GPU, which shows the cases before it ran and passed:
 *   long     naive and stable: one element 1e-5 off in rows of 100003 columns
 *            (the 18th of the 19 shapes);
 *   maxsub   naive_softmax subtracts the row's max (right everywhere: the
 *            overflow rows must then be wrong and are not);
 *   nanrows  stable_softmax writes nothing in a row with a NaN, a +Inf or
 *            only -Inf (the rows whose answer is NaN);
 *   outside  stable_softmax writes one float past y's end;
 *   sums     naive_softmax writes one float past its rows sums;
 *   table    naive_limit knows the test's nine column counts, 0 for others.
 * Instructor code only: no student object. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "naive.h"
#include "stable.h"

static int bug(const char *name)
{
    const char *b = getenv("W29_HOST_BUG");
    return b && !strcmp(b, name);
}

double naive_limit(int cols)
{
    static const int listed[] = { 1, 2, 3, 10, 37, 1000, 4096, 32768, 1 << 20 };
    const double l = log((double)FLT_MAX) - log((double)cols);
    if (!bug("table")) return l;
    for (size_t k = 0; k < sizeof listed / sizeof *listed; k++)
        if (listed[k] == cols) return l;
    return 0.0;
}

/* Row i's sum of e[j] (float terms, added in double), as a float. */
static float row_sum(const float *e, int cols)
{
    double s = 0;
    for (int j = 0; j < cols; j++) s += e[j];
    return (float)s;
}

cudaError_t naive_softmax(const float *x, float *y, float *sums, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    for (int i = 0; i < rows; i++) {
        const float *xr = x + (size_t)i * cols;
        float *yr = y + (size_t)i * cols, m = 0.f;
        if (bug("maxsub")) {
            m = -INFINITY;
            for (int j = 0; j < cols; j++) m = fmaxf(m, xr[j]);
        }
        for (int j = 0; j < cols; j++) yr[j] = expf(xr[j] - m);
        sums[i] = row_sum(yr, cols);
        for (int j = 0; j < cols; j++) yr[j] = yr[j] / sums[i];
        if (bug("long") && cols >= 100003) yr[cols - 1] += 1e-5f; /* past 1e-7 + 5e-5 |ref|: these are below 2e-4 */
    }
    if (bug("sums")) sums[rows] = 0.f;
    return cudaSuccess;
}

cudaError_t stable_softmax(const float *x, float *y, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    for (int i = 0; i < rows; i++) {
        const float *xr = x + (size_t)i * cols;
        float *yr = y + (size_t)i * cols, m = -INFINITY;
        for (int j = 0; j < cols; j++) m = fmaxf(m, xr[j]);
        int special = !isfinite(m);
        for (int j = 0; j < cols; j++) special |= isnan(xr[j]);
        if (bug("nanrows") && special) continue;
        for (int j = 0; j < cols; j++) yr[j] = expf(xr[j] - m);
        const float s = row_sum(yr, cols);
        for (int j = 0; j < cols; j++) yr[j] = yr[j] / s;
        if (bug("long") && cols >= 100003) yr[cols - 1] += 1e-5f; /* past 1e-7 + 5e-5 |ref|: these are below 2e-4 */
    }
    if (bug("outside")) y[(size_t)rows * cols] = 0.f;
    return cudaSuccess;
}
