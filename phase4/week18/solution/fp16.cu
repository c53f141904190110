/* fp16.cu — week 18, exercise 3: the layer with half-precision weights.
 *
 * Inference tolerates weights rounded to 11 significant bits: the model's
 * weights are converted once, fp16_from_f32, and the layer reads them as halves
 * (half the bytes of the weights), widens each to float when it lands in
 * shared memory, and sums in float. The activations stay FP32, so the only
 * new error is the rounding of each weight, relative 2^-11 at most. The
 * kernel is fp32_linear's, but for the type of W. */
#include <cuda_fp16.h>
#include "fp16.h"

//@solution
static __global__ void f32_to_f16_kernel(const float *__restrict__ src, __half *__restrict__ dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = __float2half_rn(src[i]);
}
//@end

cudaError_t fp16_from_f32(const float *src, uint16_t *dst, size_t n)
{
    //@solution
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    f32_to_f16_kernel<<<(unsigned)(blocks < 65535u * 16 ? blocks : 65535u * 16), 256>>>(src, (__half *)dst, n);
    return cudaGetLastError();
    //@starter
    //| /* TODO: a grid-stride loop; __float2half_rn(v) rounds a float to the
    //|  * nearest half (cuda_fp16.h); store it through a __half pointer. */
    //| (void)src, (void)dst, (void)n;
    //| return cudaSuccess;
    //@end
}

//@solution
#define BM 64
#define BN 64
#define BK 32
#define THREADS 256

/* linear_f32_kernel with W in halves: see fp32.cu for the tile layout. */
template <bool RELU>
static __global__ void __launch_bounds__(THREADS)
    linear_f16_kernel(const float *__restrict__ x, const __half *__restrict__ W, const float *__restrict__ b,
                      float *__restrict__ y, int batch, int in, int out)
{
    __shared__ float xs[BK][BM + 1];
    __shared__ float ws[BK][BN + 1];
    int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    int ty = threadIdx.x / 16, tx = threadIdx.x % 16; /* a warp: 2 tile rows, 16 columns */
    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] = 0.f;

    for (int k0 = 0; k0 < in; k0 += BK) {
        for (int e = threadIdx.x; e < BM * BK; e += THREADS) {
            int r = e / BK, k = e % BK, gk = k0 + k;
            int gr = m0 + r, gn = n0 + r;
            xs[k][r] = (gr < batch && gk < in) ? x[(size_t)gr * in + gk] : 0.f;
            ws[k][r] = (gn < out && gk < in) ? __half2float(W[(size_t)gn * in + gk]) : 0.f; /* exact */
        }
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < BK; k++) {
            float a[4], w[4];
#pragma unroll
            for (int i = 0; i < 4; i++) a[i] = xs[k][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < 4; j++) w[j] = ws[k][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) acc[i][j] = fmaf(a[i], w[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int r = m0 + ty + 16 * i;
        if (r >= batch) continue;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int c = n0 + tx + 16 * j;
            if (c >= out) continue;
            float v = acc[i][j] + b[c];
            if (RELU) v = v < 0.f ? 0.f : v;
            y[(size_t)r * out + c] = v;
        }
    }
}
//@starter
//| /* TODO: your fp32_linear kernel, reading W as __half and widening each
//|  * weight with __half2float as it is staged (exact: every half is a float). */
//@end

cudaError_t fp16_linear(const float *x, const uint16_t *W, const float *b, float *y, int batch, int in, int out,
                        int relu)
{
    //@solution
    if (batch < 0 || in < 1 || out < 1) return cudaErrorInvalidValue;
    if (batch == 0) return cudaSuccess;
    dim3 grid((unsigned)((batch + (long long)BM - 1) / BM), (unsigned)((out + BN - 1) / BN));
    const __half *Wh = (const __half *)W;
    if (relu) linear_f16_kernel<true><<<grid, THREADS>>>(x, Wh, b, y, batch, in, out);
    else linear_f16_kernel<false><<<grid, THREADS>>>(x, Wh, b, y, batch, in, out);
    return cudaGetLastError();
    //@starter
    //| /* TODO: as fp32_linear, with the weights as (const __half *)W. */
    //| (void)x, (void)W, (void)b, (void)y, (void)batch, (void)in, (void)out, (void)relu;
    //| return cudaSuccess;
    //@end
}
