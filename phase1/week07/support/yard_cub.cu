/* yard_cub.cu — week 07, given: CUB's reduce, scan and histogram, called
 * from C (CUB asks for its workspace size with a null pointer first), and
 * the benchmarks' random inputs. */
#include <cub/cub.cuh>
#include "yard_cub.h"

extern "C" size_t yard_cub_sum_bytes(size_t n)
{
    size_t b = 0;
    cub::DeviceReduce::Sum(nullptr, b, (const float *)nullptr, (float *)nullptr, (long long)n);
    return b;
}

extern "C" cudaError_t yard_cub_sum(void *tmp, size_t tmp_bytes, const float *x, float *out, size_t n)
{
    return cub::DeviceReduce::Sum(tmp, tmp_bytes, x, out, (long long)n);
}

extern "C" size_t yard_cub_scan_bytes(size_t n)
{
    size_t b = 0;
    cub::DeviceScan::InclusiveSum(nullptr, b, (const float *)nullptr, (float *)nullptr, (int)n);
    return b;
}

extern "C" cudaError_t yard_cub_scan(void *tmp, size_t tmp_bytes, const float *x, float *y, size_t n)
{
    return cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)n);
}

extern "C" size_t yard_cub_hist_bytes(size_t n)
{
    size_t b = 0;
    cub::DeviceHistogram::HistogramEven(nullptr, b, (const unsigned char *)nullptr, (unsigned int *)nullptr, 257, 0,
                                        256, (long long)n);
    return b;
}

extern "C" cudaError_t yard_cub_hist(void *tmp, size_t tmp_bytes, const unsigned char *x, unsigned int *bins, size_t n)
{
    return cub::DeviceHistogram::HistogramEven(tmp, tmp_bytes, x, bins, 257, 0, 256, (long long)n);
}

/* splitmix64 of (seed, i): the benchmarks' random inputs */
static __device__ __forceinline__ unsigned long long mix(unsigned long long seed, size_t i)
{
    unsigned long long z = seed * 0x9E3779B97F4A7C15ull + i;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static __global__ void fill_bytes_kernel(unsigned char *d, size_t n, unsigned long long seed, int skew)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long z = mix(seed, i);
        d[i] = (unsigned char)(skew ? (z & 3) : (z & 255));
    }
}

extern "C" cudaError_t w07_fill_bytes(unsigned char *d, size_t n, unsigned long long seed, int skew)
{
    if (n == 0) return cudaSuccess;
    fill_bytes_kernel<<<1024, 256>>>(d, n, seed, skew);
    return cudaGetLastError();
}

static __global__ void fill_u32_kernel(unsigned int *d, size_t n, unsigned long long seed, unsigned int mod)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned int z = (unsigned int)(mix(seed, i) >> 32);
        d[i] = mod ? z % mod : z;
    }
}

extern "C" cudaError_t w07_fill_u32(unsigned int *d, size_t n, unsigned long long seed, unsigned int mod)
{
    if (n == 0) return cudaSuccess;
    fill_u32_kernel<<<1024, 256>>>(d, n, seed, mod);
    return cudaGetLastError();
}
