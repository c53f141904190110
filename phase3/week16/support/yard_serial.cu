/* yard_serial.cu — week 16, given: the serial yardstick (one stream: copy
 * in, compute, copy out, chunk by chunk, each stage waiting for the one
 * before). */
#include <cuda_runtime.h>
#include "pipeline.h"

extern "C" cudaError_t yard_serial(const float *hx, float *hy, size_t n, float *dx, float *dy, size_t chunk, int iters)
{
    if (n == 0) return cudaSuccess;
    if (chunk == 0) return cudaErrorInvalidValue;
    for (size_t first = 0; first < n; first += chunk) {
        size_t m = chunk < n - first ? chunk : n - first;
        cudaError_t e = cudaMemcpyAsync(dx, &hx[first], m * 4, cudaMemcpyHostToDevice, 0);
        if (e == cudaSuccess) e = w16_work(dx, dy, m, iters, 0);
        if (e == cudaSuccess) e = cudaMemcpyAsync(&hy[first], dy, m * 4, cudaMemcpyDeviceToHost, 0);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
