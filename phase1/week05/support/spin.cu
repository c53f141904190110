/* spin.cu — week 05, given: kernels that keep a stream busy (spin), hold it
 * until the host lets go (gate), or cost a known amount per element (mix). */
#include "streams.h"

static __global__ void spin_kernel(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

/* The peak SM clock in kHz: cycles of it per millisecond. */
static cudaError_t clock_khz(int *khz)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(khz, cudaDevAttrClockRate, dev);
    return e;
}

extern "C" cudaError_t w05_spin(cudaStream_t s, double ms)
{
    int khz = 0;
    cudaError_t e = clock_khz(&khz);
    if (e != cudaSuccess) return e;
    spin_kernel<<<1, 1, 0, s>>>((long long)(ms * khz));
    return cudaGetLastError();
}

static __global__ void mix_kernel(const unsigned *__restrict__ x, unsigned *__restrict__ y, size_t n, unsigned rounds)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned v = x[i];
        for (unsigned r = 0; r < rounds; r++) {
            v ^= v >> 15;
            v *= 0x2c1b3c6dU;
            v ^= v >> 12;
            v += r;
        }
        y[i] = v;
    }
}

extern "C" cudaError_t w05_mix(const unsigned *x, unsigned *y, size_t n, unsigned rounds, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    if (blocks > 8192) blocks = 8192;
    mix_kernel<<<(unsigned)blocks, 256, 0, s>>>(x, y, n, rounds);
    return cudaGetLastError();
}

static __global__ void gate_kernel(volatile int *flags, long long cycles)
{
    flags[1] = 1;
    __threadfence_system();
    long long t0 = clock64();
    int released = 0;
    while (!(released = flags[0] != 0) && clock64() - t0 < cycles) {
    }
    flags[2] = released ? 1 : 2;
    __threadfence_system();
}

extern "C" cudaError_t w05_gate(cudaStream_t s, volatile int *flags, double timeout_ms)
{
    int khz = 0;
    void *d = NULL;
    cudaError_t e = clock_khz(&khz);
    if (e == cudaSuccess) e = cudaHostGetDevicePointer(&d, (void *)flags, 0);
    if (e != cudaSuccess) return e;
    gate_kernel<<<1, 1, 0, s>>>((volatile int *)d, (long long)(timeout_ms * khz));
    return cudaGetLastError();
}
