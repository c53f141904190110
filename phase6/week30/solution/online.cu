/* online.cu — week 30, exercise 1: the online normaliser on the CPU.
 *
 * Two passes make the softmax's statistics: the max m, then s = sum exp(x - m).
 * The online rule makes both in one: after element k the running pair is
 * (m_k, s_k) with s_k = sum_{j<=k} exp(x_j - m_k). A new element x either
 * leaves the max alone (s += exp(x - m)) or raises it to m' = x, and then
 * every term already in s is off by the factor exp(m - m'): s = s exp(m - m')
 * + exp(x - m') = s exp(m - x) + 1. Write it here, in plain C arithmetic,
 * where you can print every step; the GPU kernels of rowsoftmax.cu use the
 * same rule, once per thread and again to merge the threads' pairs. */
#include <math.h>
#include "online.h"

void online_stats(const float *x, size_t n, double *m, double *s)
{
    //@solution
    double mm = -INFINITY, ss = 0; /* the running pair */
    for (size_t k = 0; k < n; k++) { /* one pass */
        const double v = x[k];
        if (v > mm) {              /* a new max (never true for NaN) */
            ss = ss * exp(mm - v); /* mm = -Inf: exp(-Inf) = 0, and ss was 0 */
            mm = v;
            ss += v == INFINITY ? NAN : 1.0; /* exp(v - v), but Inf - Inf is NaN */
        } else if (v == -INFINITY) {
            /* exp(-Inf - m) = 0 adds nothing; with m = -Inf it would be NaN */
        } else {
            ss += exp(v - mm); /* NaN stays NaN; v = m = +Inf gives NaN */
        }
    }
    *m = mm, *s = ss;
    //@starter
    //| /* TODO: one loop over x with a running (m, s), m starting at -INFINITY
    //|  * and s at 0, in double. When x[j] > m: rescale s by exp(m - x[j]), then
    //|  * m = x[j]. Then add exp(x[j] - m). Mind the edges online.h lists:
    //|  * a -Inf element while m is still -Inf (-Inf - (-Inf) is NaN, but the
    //|  * answer is s = 0), a NaN, a +Inf. Store the pair in *m and *s. */
    //| (void)x, (void)n, (void)m, (void)s;
    //@end
}
