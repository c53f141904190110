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
    //@solution
    return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
    //@starter
    //| /* TODO: bytes per second over 1e9. Memory transfers twice per clock. */
    //| (void)mem_clock_khz;
    //| (void)bus_width_bits;
    //| return 0.0;
    //@end
}

double dq_peak_fp32_gflops(int sm_count, int fp32_lanes_per_sm, int sm_clock_khz)
{
    //@solution
    return 2.0 * fp32_lanes_per_sm * sm_count * sm_clock_khz * 1e3 / 1e9;
    //@starter
    //| /* TODO: one fused multiply-add (2 flops) per lane per clock. */
    //| (void)sm_count;
    //| (void)fp32_lanes_per_sm;
    //| (void)sm_clock_khz;
    //| return 0.0;
    //@end
}

cudaError_t dq_query(int device, dq_report *r)
{
    memset(r, 0, sizeof *r);
    //@solution
    cudaError_t e;
    struct { int *field; enum cudaDeviceAttr attr; } facts[] = {
        { &r->cc_major, cudaDevAttrComputeCapabilityMajor },
        { &r->cc_minor, cudaDevAttrComputeCapabilityMinor },
        { &r->sm_count, cudaDevAttrMultiProcessorCount },
        { &r->l2_bytes, cudaDevAttrL2CacheSize },
        { &r->sm_clock_khz, cudaDevAttrClockRate },
        { &r->mem_clock_khz, cudaDevAttrMemoryClockRate },
        { &r->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth },
    };
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
        if ((e = cudaDeviceGetAttribute(facts[i].field, facts[i].attr, device)) != cudaSuccess) return e;
    cudaDeviceProp prop;
    if ((e = cudaGetDeviceProperties(&prop, device)) != cudaSuccess) return e;
    snprintf(r->name, sizeof r->name, "%s", prop.name);
    r->global_mem_bytes = prop.totalGlobalMem;
    r->peak_gbps = dq_peak_gbps(r->mem_clock_khz, r->bus_width_bits);
    r->peak_fp32_gflops =
        dq_peak_fp32_gflops(r->sm_count, wb_fp32_lanes_per_sm(r->cc_major, r->cc_minor), r->sm_clock_khz);
    return cudaSuccess;
    //@starter
    //| /* TODO: fill every field of *r. cudaDeviceGetAttribute(&value, attribute, device)
    //|  * reads one fact; the name and total memory come from cudaGetDeviceProperties.
    //|  * wb_fp32_lanes_per_sm(major, minor) (wb_cuda.h) gives the FP32 lanes per SM.
    //|  * Return the first error you meet. */
    //| (void)device;
    //| return cudaSuccess;
    //@end
}
