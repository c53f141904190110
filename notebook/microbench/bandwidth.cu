/* bandwidth.cu — host<->device and device<->device copy bandwidth.
 *
 *   build/notebook/bandwidth [MiB] > build/notebook/bandwidth.csv
 *
 * Pageable memory (malloc) is copied through a pinned staging buffer by the
 * driver; pinned memory (cudaMallocHost) is read by the GPU's copy engines
 * directly over PCIe or C2C. D2D counts read + written bytes, like the
 * workbook's COPY yardstick. Median of 10 timed copies after 2 warm-ups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wb.h"

static double time_copy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    cudaEvent_t a, b;
    WB_CUDA(cudaEventCreate(&a));
    WB_CUDA(cudaEventCreate(&b));
    double ms[10];
    for (int j = -2; j < 10; j++) {
        WB_CUDA(cudaEventRecord(a, 0));
        WB_CUDA(cudaMemcpy(dst, src, bytes, kind));
        WB_CUDA(cudaEventRecord(b, 0));
        WB_CUDA(cudaEventSynchronize(b));
        float t;
        WB_CUDA(cudaEventElapsedTime(&t, a, b));
        if (j >= 0) ms[j] = t;
    }
    cudaEventDestroy(a), cudaEventDestroy(b);
    return wb_median(ms, 10);
}

int main(int argc, char **argv)
{
    char why[256];
    if (!wb_gpu_probe(why, sizeof why)) { /* say so, and print no CSV header */
        fprintf(stderr, "bandwidth: %s\n", why);
        return 1;
    }
    size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 256, bytes = mib << 20;
    const wb_device *d = wb_this_device();
    void *pageable = malloc(bytes), *pinned = NULL, *d1 = wb_dmalloc(bytes), *d2 = wb_dmalloc(bytes);
    WB_CUDA(cudaMallocHost(&pinned, bytes));
    memset(pageable, 1, bytes), memset(pinned, 1, bytes);
    struct { const char *kind; void *dst; const void *src; enum cudaMemcpyKind k; double factor; } runs[] = {
        { "H2D pageable", d1, pageable, cudaMemcpyHostToDevice, 1 },
        { "D2H pageable", pageable, d1, cudaMemcpyDeviceToHost, 1 },
        { "H2D pinned", d1, pinned, cudaMemcpyHostToDevice, 1 },
        { "D2H pinned", pinned, d1, cudaMemcpyDeviceToHost, 1 },
        { "D2D (read+write)", d2, d1, cudaMemcpyDeviceToDevice, 2 },
    };
    printf("kind,bytes,median_ms,gbps,device\n");
    for (size_t j = 0; j < sizeof runs / sizeof runs[0]; j++) {
        double ms = time_copy(runs[j].dst, runs[j].src, bytes, runs[j].k);
        double gbps = runs[j].factor * bytes / (ms * 1e-3) / 1e9;
        printf("%s,%zu,%.4f,%.1f,\"%s\"\n", runs[j].kind, bytes, ms, gbps, d->name);
        fprintf(stderr, "  %-18s %8.1f GB/s\n", runs[j].kind, gbps);
    }
    fprintf(stderr, "  (HBM in theory: %.0f GB/s)\n", d->peak_gbps);
    cudaFreeHost(pinned), free(pageable), wb_dfree(d1), wb_dfree(d2);
    return 0;
}
