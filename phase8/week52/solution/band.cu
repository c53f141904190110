/* band.cu — week 52: the median, the noise band and the verdict of a
 * regression suite. Plain C arithmetic in a .cu file: the GPU part of the
 * week is the test's, which feeds these functions real runs of a kernel. */
#include <math.h>
#include <string.h>

#include "band.h"

//@solution
/* Insertion sort of a copy: k is a handful of runs. */
static void sorted_copy(const double *x, int n, double *y)
{
    for (int i = 0; i < n; i++) {
        double v = x[i];
        int j = i;
        for (; j > 0 && y[j - 1] > v; j--) y[j] = y[j - 1];
        y[j] = v;
    }
}
//@end

int band_median(const double *x, int n, double *out)
{
    //@solution
    enum { MAXN = 1024 };
    if (n < 1 || n > MAXN) return -1;
    for (int i = 0; i < n; i++)
        if (isnan(x[i])) return -1;
    double y[MAXN];
    sorted_copy(x, n, y);
    *out = n % 2 ? y[n / 2] : 0.5 * (y[n / 2 - 1] + y[n / 2]);
    return 0;
    //@starter
    //| /* TODO: refuse n < 1 and NaN; sort a copy (x is const); the middle
    //|  * element, or the mean of the middle two when n is even. */
    //| (void)x, (void)n, (void)out;
    //| return -1;
    //@end
}

int band_baseline(const double *ratios, int n, double min_band, double max_band, band_base *out)
{
    //@solution
    if (n < 1) return -1;
    double lo = INFINITY, hi = -INFINITY, med;
    for (int i = 0; i < n; i++) {
        if (!isfinite(ratios[i]) || !(ratios[i] > 0)) return -1;
        if (ratios[i] < lo) lo = ratios[i];
        if (ratios[i] > hi) hi = ratios[i];
    }
    if (band_median(ratios, n, &med)) return -1;
    double spread = (hi - lo) / med, band = 1.5 * spread;
    if (band < min_band) band = min_band;
    if (band > max_band) band = max_band;
    out->runs = n, out->median = med, out->lo = lo, out->hi = hi, out->band = band;
    return 0;
    //@starter
    //| /* TODO: refuse n < 1 and any ratio that is not finite and above 0;
    //|  * fill runs, median (band_median), lo, hi, and
    //|  * band = 1.5 * (hi - lo) / median held in [min_band, max_band]. */
    //| (void)ratios, (void)n, (void)min_band, (void)max_band, (void)out;
    //| return -1;
    //@end
}

int band_verdict(const band_base *b, double now)
{
    //@solution
    if (!isfinite(now) || !(now > 0)) return -1;
    if (now < b->median * (1 - b->band)) return -1;
    if (now > b->median * (1 + b->band)) return 1;
    return 0;
    //@starter
    //| /* TODO: -1 for no figure (NaN, Inf, <= 0) or below median * (1 - band),
    //|  * +1 above median * (1 + band), 0 otherwise (the edges are noise). */
    //| (void)b, (void)now;
    //| return 0;
    //@end
}
