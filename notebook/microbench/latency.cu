/* latency.cu — load-to-use latency by pointer chasing, across working sets.
 *
 *   build/notebook/latency > build/notebook/latency.csv
 *
 * One thread follows a random cycle through a buffer: each load's address is
 * the previous load's value, so nothing overlaps and time / hops is the
 * latency of one dependent load. Slots are 128 bytes apart (a cache line
 * each), visited in a random order (Sattolo's algorithm: one cycle through
 * every slot), so neither the prefetcher nor spatial locality helps. As the
 * working set outgrows L1 (256 KB an SM, part of it shared memory), then L2
 * (50 MB on an H100), the latency steps up to the next level; past a few
 * hundred MB the TLB adds its own step. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "wb.h"

#define SLOT 32 /* uint32 per 128-byte slot */

static __global__ void chase(const uint32_t *p, long hops, uint32_t *sink)
{
    uint32_t j = 0;
    for (long h = 0; h < hops; h++) j = p[j];
    *sink = j;
}

int main(void)
{
    char why[256];
    if (!wb_gpu_probe(why, sizeof why)) { /* say so, and print no CSV header */
        fprintf(stderr, "latency: %s\n", why);
        return 1;
    }
    const wb_device *d = wb_this_device();
    printf("bytes,ns_per_load,device\n");
    uint32_t *sink = (uint32_t *)wb_dmalloc(4);
    cudaEvent_t a, b;
    WB_CUDA(cudaEventCreate(&a));
    WB_CUDA(cudaEventCreate(&b));
    wb_rng rng;
    wb_rng_seed(&rng, 12345);
    for (size_t bytes = 4096; bytes <= ((size_t)512 << 20); bytes = (bytes * 3 / 2) / 128 * 128) {
        size_t slots = bytes / 128;
        if (slots < 2) continue;
        uint32_t *h = (uint32_t *)calloc(slots * SLOT, 4), *order = (uint32_t *)malloc(slots * 4);
        for (size_t s = 0; s < slots; s++) order[s] = (uint32_t)s;
        for (size_t s = slots - 1; s > 0; s--) { /* Sattolo: a single cycle */
            size_t r = (size_t)wb_rng_int(&rng, 0, (int64_t)s - 1);
            uint32_t t = order[s]; order[s] = order[r]; order[r] = t;
        }
        for (size_t s = 0; s < slots; s++) h[(size_t)order[s] * SLOT] = order[(s + 1) % slots] * SLOT;
        /* order[] as a cycle: slot order[s] points to slot order[s+1] */
        uint32_t *dp = (uint32_t *)wb_dmalloc(slots * SLOT * 4);
        wb_h2d(dp, h, slots * SLOT * 4);
        long warm = slots < 300000 ? (long)slots : 300000, hops = 200000;
        chase<<<1, 1>>>(dp, warm, sink);
        WB_CUDA(cudaEventRecord(a, 0));
        chase<<<1, 1>>>(dp, hops, sink);
        WB_CUDA(cudaEventRecord(b, 0));
        WB_CUDA(cudaEventSynchronize(b));
        float ms;
        WB_CUDA(cudaEventElapsedTime(&ms, a, b));
        double ns = ms * 1e6 / hops;
        printf("%zu,%.2f,\"%s\"\n", slots * 128, ns, d->name);
        fprintf(stderr, "  %10.1f KiB  %7.1f ns\n", slots * 128 / 1024.0, ns);
        fflush(stdout);
        wb_dfree(dp), free(h), free(order);
    }
    wb_dfree(sink);
    return 0;
}
