/* intensity.h — week 09: arithmetic intensity and the roofline, on the CPU. */
#ifndef INTENSITY_H
#define INTENSITY_H

#ifdef __cplusplus
extern "C" {
#endif

/* flops / bytes in flop/byte; NaN when bytes <= 0. */
double intensity_of(double flops, double bytes);

/* Intensity of FP32 kernels, counting each input element read once from
 * DRAM and each output element written once (an ideal cache):
 *   vecadd  c[i] = a[i] + b[i]                      1 flop, 12 bytes
 *   saxpy   y[i] = a * x[i] + y[i]                  2 flops, 12 bytes (y read and written)
 *   dot     s += x[i] * y[i]                        2 flops, 8 bytes (the scalar is free)
 *   stencil out[i] = 5 weighted neighbours (2D)     9 flops (5 mul, 4 add), 8 bytes
 *           (five distinct weights; week 03's stencil, w * (sum of the 5), is 5 flops: 5/8)
 *   gemm    C = A B, A m x k, B k x n, C written    2 m n k flops, (m k + k n + m n) * elem_bytes */
double intensity_vecadd(void);
double intensity_saxpy(void);
double intensity_dot(void);
double intensity_stencil5(void);
double intensity_gemm(double m, double n, double k, double elem_bytes);

/* The roof: attainable GFLOP/s at intensity ai on a device with memory
 * bandwidth gbps (GB/s) and compute peak peak_gflops: min(gbps * ai, peak). */
double intensity_roof_gflops(double ai, double gbps, double peak_gflops);
/* The ridge point, flop/byte: where gbps * ai == peak. */
double intensity_ridge(double gbps, double peak_gflops);
/* 1 when a kernel of intensity ai is memory-bound (left of the ridge),
 * 0 when compute-bound (at or right of it). */
int intensity_memory_bound(double ai, double gbps, double peak_gflops);

#ifdef __cplusplus
}
#endif
#endif
