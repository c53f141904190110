/* band.cu — week 52: the median, the noise band and the verdict of a
 * regression suite. Plain C arithmetic in a .cu file: the GPU part of the
 * week is the test's, which feeds these functions real runs of a kernel. */
#include <math.h>
#include <string.h>

#include "band.h"


int band_median(const double *x, int n, double *out)
{
    /* TODO: refuse n < 1 and NaN; sort a copy (x is const); the middle
     * element, or the mean of the middle two when n is even. */
    (void)x, (void)n, (void)out;
    return -1;
}

int band_baseline(const double *ratios, int n, double min_band, double max_band, band_base *out)
{
    /* TODO: refuse n < 1 and any ratio that is not finite and above 0;
     * fill runs, median (band_median), lo, hi, and
     * band = 1.5 * (hi - lo) / median held in [min_band, max_band]. */
    (void)ratios, (void)n, (void)min_band, (void)max_band, (void)out;
    return -1;
}

int band_verdict(const band_base *b, double now)
{
    /* TODO: -1 for no figure (NaN, Inf, <= 0) or below median * (1 - band),
     * +1 above median * (1 + band), 0 otherwise (the edges are noise). */
    (void)b, (void)now;
    return 0;
}
