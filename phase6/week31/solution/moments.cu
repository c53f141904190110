/* moments.cu — week 31, exercise 1: mean and variance three ways, on the CPU,
 * in float (moments.h says what each computes).
 *
 * Why the single pass fails: with x = 1e4 + noise of size 1, x*x is about
 * 1e8, where one float step (ulp) is 8. The sum of squares and mean*mean are
 * both near 1e8 and carry errors of several units; their difference, the
 * variance (about 0.33 here), is lost entirely and may come out negative.
 * The two-pass form subtracts the mean first, so it squares numbers of size
 * 1; Welford's update keeps a running mean and adds up squared deviations
 * from it, also numbers of size 1. Its error grows with |mean| / std only to
 * first order (the rounding of the running mean), not to second order. */
#include "moments.h"

void moments_sumsq(const float *x, size_t n, float *mean, float *var)
{
    //@solution
    if (n == 0) {
        *mean = 0.f, *var = 0.f;
        return;
    }
    float s = 0.f, q = 0.f;
    for (size_t i = 0; i < n; i++) {
        s += x[i];
        q += x[i] * x[i];
    }
    const float m = s / (float)n;
    *mean = m;
    *var = q / (float)n - m * m;
    //@starter
    //| /* TODO: one loop adding x[i] and x[i] * x[i] in two float sums, then
    //|  * mean = s / n and var = q / n - mean * mean (no clamp). n == 0 gives 0, 0.
    //|  * Until you write it, *mean and *var keep what the caller put there. */
    //| (void)x, (void)n, (void)mean, (void)var;
    //@end
}

void moments_twopass(const float *x, size_t n, float *mean, float *var)
{
    //@solution
    if (n == 0) {
        *mean = 0.f, *var = 0.f;
        return;
    }
    float s = 0.f;
    for (const float *p = x; p < x + n; p++) s += *p; /* index order, in float */
    const float m = s / (float)n;
    float q = 0.f;
    for (size_t i = 0; i < n; i++) {
        const float d = x[i] - m;
        q += d * d;
    }
    *mean = m;
    *var = q / (float)n;
    //@starter
    //| /* TODO: first loop: the float sum, mean = s / n; second loop: the float
    //|  * sum of (x[i] - mean)^2, var = that / n. n == 0 gives 0, 0. */
    //| (void)x, (void)n, (void)mean, (void)var;
    //@end
}

void moments_welford(const float *x, size_t n, float *mean, float *var)
{
    //@solution
    float m = 0.f, m2 = 0.f;
    for (size_t i = 0; i < n; i++) {
        const float d = x[i] - m;
        m += d / (float)(i + 1);
        m2 += d * (x[i] - m);
    }
    *mean = m;
    *var = n ? m2 / (float)n : 0.f;
    //@starter
    //| /* TODO: m = 0, M2 = 0; for the k-th element (k from 1): d = x - m,
    //|  * m += d / k, M2 += d * (x - m) with the NEW m; then var = M2 / n.
    //|  * n == 0 gives 0, 0. */
    //| (void)x, (void)n, (void)mean, (void)var;
    //@end
}
