/* spin.cu — week 05, given: a kernel that keeps a stream busy for a while. */
#include "streams.h"

static __global__ void spin_kernel(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

extern "C" cudaError_t w05_spin(cudaStream_t s, double ms)
{
    int dev = 0, khz = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
    if (e != cudaSuccess) return e;
    spin_kernel<<<1, 1, 0, s>>>((long long)(ms * khz));
    return cudaGetLastError();
}
