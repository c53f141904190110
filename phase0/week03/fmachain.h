/* fmachain.h — week 03: FMA chains, the FP32 ceiling. */
#ifndef FMACHAIN_H
#define FMACHAIN_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For every i < n: start from v = x0[i], do `iters` steps of v = fmaf(v, a, b)
 * (one fused multiply-add each, in this order), then y[i] = v. iters >= 0
 * (0 copies). That is 2 * iters * n floating-point operations. x0 and y are
 * device pointers (float alignment), not overlapping; nothing past y[n-1]
 * may be written. Launches on the default stream; returns the launch's error. */
cudaError_t fmachain_run(const float *x0, float *y, size_t n, int iters, float a, float b);

#ifdef __cplusplus
}
#endif
#endif
