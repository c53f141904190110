/* devquery.h — week 01: what the device is, and what it could do at best. */
#ifndef DEVQUERY_H
#define DEVQUERY_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char   name[256];
    int    cc_major, cc_minor;   /* compute capability */
    int    sm_count;             /* multiprocessors */
    int    l2_bytes;
    int    sm_clock_khz;         /* peak SM clock */
    int    mem_clock_khz;        /* peak memory clock */
    int    bus_width_bits;
    size_t global_mem_bytes;
    double peak_gbps;            /* theoretical memory bandwidth, GB/s (1e9 bytes/s) */
    double peak_fp32_gflops;     /* theoretical FP32 rate, GFLOP/s */
} dq_report;

/* Theoretical DRAM bandwidth in GB/s: double data rate, bus width in bits. */
double dq_peak_gbps(int mem_clock_khz, int bus_width_bits);
/* Theoretical FP32 rate in GFLOP/s: one FMA (2 flops) per lane per clock. */
double dq_peak_fp32_gflops(int sm_count, int fp32_lanes_per_sm, int sm_clock_khz);
/* Fill *r for `device` with cudaDeviceGetAttribute (and the name from
 * cudaGetDeviceProperties); return the first error, or cudaSuccess. */
cudaError_t dq_query(int device, dq_report *r);

#ifdef __cplusplus
}
#endif
#endif
