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
    //@solution
    return bytes > 0 ? flops / bytes : NAN;
    //@starter
    //| /* TODO: flops per byte; NaN when there are no bytes. */
    //| (void)flops, (void)bytes;
    //| return 0;
    //@end
}

//@solution
double intensity_vecadd(void) { return intensity_of(1, 12); }
double intensity_saxpy(void) { return intensity_of(2, 12); }
double intensity_dot(void) { return intensity_of(2, 8); }
double intensity_stencil5(void) { return intensity_of(9, 8); }

double intensity_gemm(double m, double n, double k, double elem_bytes)
{
    return intensity_of(2 * m * n * k, (m * k + k * n + m * n) * elem_bytes);
}

double intensity_roof_gflops(double ai, double gbps, double peak_gflops)
{
    double mem = gbps * ai;
    return mem < peak_gflops ? mem : peak_gflops;
}

double intensity_ridge(double gbps, double peak_gflops) { return gbps > 0 ? peak_gflops / gbps : NAN; }

int intensity_memory_bound(double ai, double gbps, double peak_gflops)
{
    return ai < intensity_ridge(gbps, peak_gflops);
}
//@starter
//| /* TODO: count flops and bytes for each kernel (intensity.h says what each
//|  * one reads and writes), then the roof, the ridge and the bound. */
//| double intensity_vecadd(void) { return 0; }
//| double intensity_saxpy(void) { return 0; }
//| double intensity_dot(void) { return 0; }
//| double intensity_stencil5(void) { return 0; }
//| double intensity_gemm(double m, double n, double k, double elem_bytes)
//| {
//|     (void)m, (void)n, (void)k, (void)elem_bytes;
//|     return 0;
//| }
//| double intensity_roof_gflops(double ai, double gbps, double peak_gflops)
//| {
//|     (void)ai, (void)gbps, (void)peak_gflops;
//|     return 0;
//| }
//| double intensity_ridge(double gbps, double peak_gflops) { (void)gbps, (void)peak_gflops; return 0; }
//| int intensity_memory_bound(double ai, double gbps, double peak_gflops)
//| {
//|     (void)ai, (void)gbps, (void)peak_gflops;
//|     return -1;
//| }
//@end
