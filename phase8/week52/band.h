/* band.h — week 52's exercise: the arithmetic of a regression suite.
 *
 * A speed checkpoint gives a ratio: your kernel's figure over a yardstick
 * measured in the same run. Run it k times on an unchanged tree and the
 * ratios differ a little: that is the noise. A baseline keeps their median
 * and a band learned from their spread; a later ratio below
 * median x (1 - band) is a regression, one above median x (1 + band) is
 * "faster", anything between is noise.
 *
 *   band = 1.5 x (max - min) / median, held between min_band and max_band
 *
 * min_band covers noise that k runs did not happen to show; max_band keeps
 * the suite able to catch a slowdown of that size even on a noisy
 * checkpoint. `make regress` does the same with min_band = 5 % and
 * max_band = 15 % (tools/include/wb_regress.h). */
#ifndef BAND_H
#define BAND_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int    runs;   /* how many ratios the baseline was made of */
    double median; /* their median (the mean of the middle two for an even count) */
    double lo, hi; /* the smallest and the largest */
    double band;   /* the relative band, as above */
} band_base;

/* The median of x[0..n-1] (x is not changed). Returns 0, or -1 (and leaves
 * *out alone) when n < 1 or any x is NaN. */
int band_median(const double *x, int n, double *out);

/* A baseline from n ratios, with the band held between min_band and
 * max_band (0 < min_band <= max_band). Returns 0, or -1 (and leaves *out
 * alone) when n < 1 or any ratio is not a finite number above 0. */
int band_baseline(const double *ratios, int n, double min_band, double max_band, band_base *out);

/* The verdict on a new ratio: -1 a regression (now < median x (1 - band),
 * or now is not a finite number above 0: a run that gave no figure), +1
 * faster (now > median x (1 + band)), 0 within the band. The edges belong
 * to the band. */
int band_verdict(const band_base *b, double now);

#ifdef __cplusplus
}
#endif
#endif
