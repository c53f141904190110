/* wb_stats.c — summary statistics of timing samples, and the host's clock. */
#include "wb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double wb_median(const double *v, size_t n)
{
    if (n == 0) return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s) return NAN;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double m = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

void wb_summarize(const double *v, size_t n, wb_summary *s)
{
    s->n = n;
    s->refused[0] = 0;
    if (n == 0) {
        s->median = s->min = s->max = s->mean = NAN;
        return;
    }
    double lo = v[0], hi = v[0], sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < lo) lo = v[i];
        if (v[i] > hi) hi = v[i];
        sum += v[i];
    }
    s->min = lo;
    s->max = hi;
    s->mean = sum / (double)n;
    s->median = wb_median(v, n);
}

double wb_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
