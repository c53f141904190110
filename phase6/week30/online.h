/* online.h — week 30: the online softmax normaliser, first on the CPU. */
#ifndef ONLINE_H
#define ONLINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A CPU function: the max m and the normaliser s = sum_j exp(x[j] - m) of
 * x[0..n), in ONE pass over x and in double (Milakov and Gimelshein's online
 * normaliser): keep a running (m, s); when an element raises the max from m
 * to m', the sum so far is rescaled by exp(m - m') before exp(x - m') is
 * added. Never read x twice.
 * Conventions (the same as the two-pass definition): n == 0 or a row of -Inf
 * only gives m = -Inf, s = 0 (never NaN: exp(-Inf - (-Inf)) must not be
 * evaluated); NaN entries are skipped by the max but make s NaN; a +Inf entry
 * makes m = +Inf and s NaN (Inf - Inf). */
void online_stats(const float *x, size_t n, double *m, double *s);

#ifdef __cplusplus
}
#endif
#endif
