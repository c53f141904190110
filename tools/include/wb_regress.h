/* wb_regress.h — the regression suite's arithmetic (`make regress`).
 *
 * A baseline is what the speed checkpoints of a tree measured on one GPU,
 * run several times: for each checkpoint the median of its ratios (figure
 * over yardstick, both from the same run) and the spread between runs. A
 * later run is compared with it: a ratio below median x (1 - band) is a
 * regression. The band is learned from the spread: 1.5 x (max - min) /
 * median, never under WB_REGRESS_MIN_BAND (run-to-run noise a baseline of
 * few runs may not have seen) and never over WB_REGRESS_MAX_BAND (so a 20 %
 * slowdown is always caught; a checkpoint noisier than that is marked noisy).
 *
 * Baseline file (tab-separated, written whole):
 *   line 1  "#wb-regress 1"
 *   line 2  column names (ignored)
 *   then    week, checkpoint, gpu, runs, median, min, max, band, unit,
 *           yardstick, detail (the median run's figure for people)
 * Ratios are compared only between records of the same GPU name. */
#ifndef WB_REGRESS_H
#define WB_REGRESS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WB_REGRESS_MIN_BAND 0.05
#define WB_REGRESS_MAX_BAND 0.15

typedef struct {
    char   week[64], id[64], gpu[128], unit[24], yard[32], detail[200];
    int    runs;
    double median, lo, hi, band;
} wb_regress_row;

/* Builds a baseline from results records (several runs, any weeks): every
 * passing record with a finite ratio counts. Writes it to `out`. Returns the
 * number of checkpoints, or -1 with the reason in err (no records with a
 * ratio, records of two GPUs, a record that does not read). */
int wb_regress_baseline(const char *out, const char *const *records, int n, char *err, size_t errsz);

/* Reads a baseline: rows into *rows (caller frees); count or -1 with err. */
int wb_regress_read(const char *path, wb_regress_row **rows, char *err, size_t errsz);

/* Compares results records (one run) with a baseline; one line per
 * checkpoint of the baseline on `report`: "ok", "REGRESSION" (below the
 * band, or no figure where the baseline has one), "faster" (above it).
 * Returns the number of regressions, or -1 with err (unreadable input, or
 * the records are from another GPU than the baseline). */
int wb_regress_check(const char *baseline, const char *const *records, int n, FILE *report, char *err,
                     size_t errsz);

#ifdef __cplusplus
}
#endif
#endif
