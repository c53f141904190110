/* roofline.h — week 03: a roofline calculator, plain host C (no GPU needed). */
#ifndef ROOFLINE_H
#define ROOFLINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a kernel must move to or from DRAM (compulsory traffic: each input
 * element read once, each output element written once, 4 bytes a float) and
 * the floating-point operations it does (an FMA counts 2). */
typedef struct {
    double bytes;
    double flops;
} rl_cost;

/* c[i] = a[i] + b[i], n floats. */
rl_cost rl_cost_vecadd(size_t n);
/* y[i] = a * x[i] + y[i], n floats (y is read and written). */
rl_cost rl_cost_saxpy(size_t n);
/* s = sum x[i] * y[i], n floats (the one result is not counted). */
rl_cost rl_cost_dot(size_t n);
/* C = A B, float: A is m x k, B is k x n, C is m x n and written only
 * (not read); 2 m n k flops. */
rl_cost rl_cost_gemm(size_t m, size_t n, size_t k);
/* 5-point stencil on an nx x ny float grid: every interior point
 * (1 <= x < nx-1, 1 <= y < ny-1) gets out = w * (c + north + south + east + west),
 * 5 flops; the whole input grid is read once and only the interior points are
 * written. A grid with no interior point still reads the grid and writes nothing. */
rl_cost rl_cost_stencil5(size_t nx, size_t ny);

/* Where a run of a kernel sits on a device's roofline. */
typedef struct {
    double      gbps;        /* bytes / time, in GB/s (1e9 bytes per second) */
    double      gflops;      /* flops / time, in GFLOP/s */
    double      intensity;   /* flops per byte (INFINITY when bytes == 0) */
    double      ridge;       /* peak_gflops / peak_gbps: the intensity where the roof bends */
    double      roof_gflops; /* min(peak_gflops, intensity * peak_gbps): the best this intensity allows */
    const char *bound;       /* "memory" when intensity < ridge, else "compute" */
    double      fraction;    /* of the roof reached: gbps / peak_gbps when memory-bound,
                                gflops / peak_gflops when compute-bound */
} rl_point;

/* Fill *p for cost c that ran in `ms` milliseconds on a device with the given
 * peaks. Returns 0, or -1 (and leaves *p alone) when an argument is not
 * usable: ms <= 0, a peak <= 0, a negative or NaN count, or both counts 0. */
int rl_analyse(rl_cost c, double ms, double peak_gbps, double peak_gflops, rl_point *p);

#ifdef __cplusplus
}
#endif
#endif
