/* wb_stats.h — summary statistics of timing samples, and the host's clock. */
#ifndef WB_STATS_H
#define WB_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t n;
    double median, min, max, mean;
    char   refused[200]; /* why the timing gives no figure (wb_time, wb_bench.h); "" when it gives one */
} wb_summary;

/* Median of n values (the mean of the two middle ones when n is even).
 * Does not reorder `v`. Returns NaN for n == 0. */
double wb_median(const double *v, size_t n);

/* Fills every field of *s from the n samples; n == 0 gives NaN fields. */
void wb_summarize(const double *v, size_t n, wb_summary *s);

/* Seconds on the host's monotonic clock (CLOCK_MONOTONIC), for deadlines
 * and host-side durations; GPU work is timed with events (wb_time). */
double wb_seconds(void);

#ifdef __cplusplus
}
#endif
#endif
