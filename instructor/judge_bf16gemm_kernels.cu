// judge_bf16gemm_kernels.cu — the BF16 GEMM judges' own kernel
// (judge_bf16gemm_kernels.h): BF16 bits to doubles, for cuBLAS's DGEMM, the
// reference of the large and the timed outputs.
#include "judge_bf16gemm_kernels.h"

static __global__ void bf16_to_f64_k(const uint16_t *h, double *d, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = (double)__uint_as_float((unsigned)h[i] << 16);
}

extern "C" cudaError_t jd_bf16_to_f64(const uint16_t *h, double *d, size_t n, cudaStream_t s)
{
    if (!n) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    bf16_to_f64_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>(h, d, n);
    return cudaGetLastError();
}
