/* softmax_host.h — for the C tests of weeks 39 and 40 (the softmax op):
 * FP16 and BF16 on the host (wb_f16.h: round to nearest even, as
 * __float2half_rn and __float2bfloat16_rn do) and the softmax of one row in
 * double, with torch's conventions. Header-only: each test includes it once. */
#ifndef WB_SOFTMAX_HOST_H
#define WB_SOFTMAX_HOST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "wb_f16.h" /* wb_f32_to_f16, wb_f16_to_f32, wb_f32_to_bf16, wb_bf16_to_f32 */

/* ---------------------------------------------------------------- the reference */

/* Softmax of one row in double, with torch's conventions: a NaN or a +Inf
 * makes the row NaN, -Inf elements give 0, a row of -Inf only is NaN. */
static inline void ref_row(const float *x, double *y, long long n)
{
    double m = -INFINITY, s = 0;
    int nan = 0;
    for (long long j = 0; j < n; j++) {
        if (isnan(x[j]) || x[j] == INFINITY) nan = 1;
        if (x[j] > m) m = x[j];
    }
    for (long long j = 0; j < n; j++) s += exp((double)x[j] - m);
    for (long long j = 0; j < n; j++) y[j] = (nan || m == -INFINITY) ? NAN : exp((double)x[j] - m) / s;
}

#endif
