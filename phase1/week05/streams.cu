/* streams.cu — week 05, exercise 3: when does a kernel run?
 *
 * A launch only enqueues work; the host goes on at once. Work on one stream
 * runs in order; work on two streams may overlap in any order, so a kernel
 * that reads what another stream writes needs an explicit edge: record an
 * event after the producer, make the consumer's stream wait on it. The wait
 * is a device-side dependency: no cudaDeviceSynchronize, no stalled host. */
#include "streams.h"

static __global__ void square_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = x[i] * x[i];
}

static __global__ void plus_one_kernel(const float *__restrict__ y, float *__restrict__ z, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        z[i] = y[i] + 1.0f;
}

cudaError_t two_stream_chain(const float *x, float *y, float *z, size_t n, cudaStream_t a, cudaStream_t b,
                             cudaEvent_t ev)
{
    if (n == 0) return cudaSuccess;
    unsigned blocks = (unsigned)((n + 255) / 256 < 4096 ? (n + 255) / 256 : 4096);
    square_kernel<<<blocks, 256, 0, a>>>(x, y, n);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    /* TODO: stream b must not start plus_one_kernel before square_kernel
     * has finished on stream a, and the host must not wait. */
    (void)ev;
    plus_one_kernel<<<blocks, 256, 0, b>>>(y, z, n);
    return cudaGetLastError();
}
