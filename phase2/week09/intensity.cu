/* intensity.cu — week 09, exercise 1: arithmetic intensity and the roofline.
 *
 * Pure host code: the roofline is arithmetic before it is a plot. A kernel's
 * intensity (flop per byte of DRAM traffic) places it on the x axis; the
 * device's bandwidth and compute peak draw the roof; the ridge point
 * peak / bandwidth splits memory-bound from compute-bound. On an H100
 * (about 3000 GB/s, 60+ TFLOP/s FP32) the ridge sits near 20 flop/byte: every
 * element-wise kernel is far to its left. */
#include <math.h>
#include "intensity.h"

double intensity_of(double flops, double bytes)
{
    /* TODO: flops per byte; NaN when there are no bytes. */
    (void)flops, (void)bytes;
    return 0;
}

/* TODO: count flops and bytes for each kernel (intensity.h says what each
 * one reads and writes), then the roof, the ridge and the bound. */
double intensity_vecadd(void) { return 0; }
double intensity_saxpy(void) { return 0; }
double intensity_dot(void) { return 0; }
double intensity_stencil5(void) { return 0; }
double intensity_gemm(double m, double n, double k, double elem_bytes)
{
    (void)m, (void)n, (void)k, (void)elem_bytes;
    return 0;
}
double intensity_roof_gflops(double ai, double gbps, double peak_gflops)
{
    (void)ai, (void)gbps, (void)peak_gflops;
    return 0;
}
double intensity_ridge(double gbps, double peak_gflops) { (void)gbps, (void)peak_gflops; return 0; }
int intensity_memory_bound(double ai, double gbps, double peak_gflops)
{
    (void)ai, (void)gbps, (void)peak_gflops;
    return -1;
}
