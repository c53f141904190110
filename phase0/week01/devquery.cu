/* devquery.cu — week 01, exercise 1: the device report.
 *
 * Read each fact with cudaDeviceGetAttribute (cheap, one value at a time;
 * CUDA 13's cudaDeviceProp no longer carries the clocks), then compute the
 * two ceilings every later week measures against. */
#include <stdio.h>
#include <string.h>
#include "devquery.h"
#include "wb_cuda.h"

double dq_peak_gbps(int mem_clock_khz, int bus_width_bits)
{
    /* TODO: bytes per second over 1e9. Memory transfers twice per clock. */
    (void)mem_clock_khz;
    (void)bus_width_bits;
    return 0.0;
}

double dq_peak_fp32_gflops(int sm_count, int fp32_lanes_per_sm, int sm_clock_khz)
{
    /* TODO: one fused multiply-add (2 flops) per lane per clock. */
    (void)sm_count;
    (void)fp32_lanes_per_sm;
    (void)sm_clock_khz;
    return 0.0;
}

cudaError_t dq_query(int device, dq_report *r)
{
    memset(r, 0, sizeof *r);
    /* TODO: fill every field of *r. cudaDeviceGetAttribute(&value, attribute, device)
     * reads one fact; the name and total memory come from cudaGetDeviceProperties.
     * wb_fp32_lanes_per_sm(major, minor) (wb_cuda.h) gives the FP32 lanes per SM.
     * Return the first error you meet. */
    (void)device;
    return cudaSuccess;
}
