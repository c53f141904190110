/* int8.cu — week 18, exercise 4: the layer in INT8.
 *
 * Weights: quantised once per output channel (a row of W), so a channel of
 * small weights keeps its resolution beside one of large ones. Activations:
 * quantised per row (per sample) inside the layer kernel, because they
 * change with every input. The dot products are exact in int32 (__dp4a: four
 * int8 products and a sum in one instruction); one float multiply by the two
 * scales turns the sum back into a real number, and the bias and ReLU are
 * fused after it as in FP32. The quantiser is int8.h's, bit for bit. */
#include <math.h>
#include "int8.h"

//@solution
/* One warp a row: the row's absolute max by shuffles, then the quantised
 * row and its padding. */
static __global__ void quantize_rows_kernel(const float *__restrict__ W, int rows, int cols, int8_t *__restrict__ q,
                                            float *__restrict__ scale)
{
    int lane = threadIdx.x % 32;
    long long o = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (o >= rows) return;
    const float *w = W + o * cols;
    float amax = 0.f;
    for (int k = lane; k < cols; k += 32) amax = fmaxf(amax, fabsf(w[k]));
    for (int off = 16; off > 0; off >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, off));
    float inv = amax > 0.f ? 127.0f / amax : 0.f;
    if (lane == 0) scale[o] = amax / 127.0f;
    int ld = I8_LD(cols);
    int8_t *qo = q + o * ld;
    for (int k = lane; k < ld; k += 32) {
        float v = k < cols ? rintf(w[k] * inv) : 0.f;
        qo[k] = (int8_t)(int)fminf(fmaxf(v, -127.f), 127.f);
    }
}
//@end

cudaError_t int8_quantize_rows(const float *W, int rows, int cols, int8_t *q, float *scale)
{
    //@solution
    if (rows < 0 || cols < 1) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    quantize_rows_kernel<<<(unsigned)((rows + 7LL) / 8), 256>>>(W, rows, cols, q, scale);
    return cudaGetLastError();
    //@starter
    //| /* TODO: a warp per row: the absolute max by __shfl_xor_sync, then
    //|  * scale = amax / 127.0f and q = rintf(w * (127.0f / amax)) clamped to
    //|  * +-127 (all zero when amax == 0), padding columns 0 (int8.h). */
    //| (void)W, (void)rows, (void)cols, (void)q, (void)scale;
    //| return cudaSuccess;
    //@end
}

//@solution
#define BM 64
#define BN 64
#define BK4 8      /* K a step in packs of 4: 32 int8 values */
#define THREADS 256

/* The tile layout of linear_f32_kernel (fp32.cu), with a shared element now
 * an int holding 4 consecutive k of int8. The block first finds the scale of
 * each of its 64 rows (a warp per row, over the whole of K), then quantises
 * its X tile as it stages it. */
template <bool RELU>
static __global__ void __launch_bounds__(THREADS)
    linear_i8_kernel(const float *__restrict__ x, const int8_t *__restrict__ qw, const float *__restrict__ sw,
                     const float *__restrict__ b, float *__restrict__ y, int batch, int in, int out)
{
    __shared__ int xs[BK4][BM + 1];
    __shared__ int ws[BK4][BN + 1];
    __shared__ float s_inv[BM], s_sx[BM];
    int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int ty = threadIdx.x / 16, tx = threadIdx.x % 16; /* a warp: 2 tile rows, 16 columns */

    for (int r = warp; r < BM; r += THREADS / 32) {
        int gr = m0 + r;
        float amax = 0.f;
        if (gr < batch)
            for (int k = lane; k < in; k += 32) amax = fmaxf(amax, fabsf(x[(size_t)gr * in + k]));
        for (int off = 16; off > 0; off >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, off));
        if (lane == 0) {
            s_inv[r] = amax > 0.f ? 127.0f / amax : 0.f;
            s_sx[r] = amax / 127.0f;
        }
    }
    __syncthreads();

    int ld4 = I8_LD(in) / 4; /* ints a weight row */
    int acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] = 0;

    for (int p0 = 0; p0 < ld4; p0 += BK4) {
        for (int e = threadIdx.x; e < BM * BK4; e += THREADS) {
            int r = e / BK4, p = p0 + e % BK4;
            int gr = m0 + r, gn = n0 + r;
            unsigned packed = 0;
            if (gr < batch && p < ld4) {
                const float *xr = x + (size_t)gr * in;
                float inv = s_inv[r];
#pragma unroll
                for (int t = 0; t < 4; t++) {
                    int k = 4 * p + t, qv = 0;
                    if (k < in) qv = (int)fminf(fmaxf(rintf(xr[k] * inv), -127.f), 127.f);
                    packed |= (unsigned)(qv & 0xff) << (8 * t);
                }
            }
            xs[e % BK4][r] = (int)packed;
            ws[e % BK4][r] = (gn < out && p < ld4) ? ((const int *)(qw + (size_t)gn * ld4 * 4))[p] : 0;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK4; p++) {
            int a[4], w[4];
#pragma unroll
            for (int i = 0; i < 4; i++) a[i] = xs[p][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < 4; j++) w[j] = ws[p][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) acc[i][j] = __dp4a(a[i], w[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < 4; i++) {
        int rl = ty + 16 * i, r = m0 + rl;
        if (r >= batch) continue;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int c = n0 + tx + 16 * j;
            if (c >= out) continue;
            float v = (float)acc[i][j] * (s_sx[rl] * sw[c]) + b[c];
            if (RELU) v = v < 0.f ? 0.f : v;
            y[(size_t)r * out + c] = v;
        }
    }
}
//@starter
//| /* TODO: the kernel, on fp32_linear's tiles. Before the K loop, the scale
//|  * of each row of the block's X tile (a warp a row, the max over all of K,
//|  * into shared memory). In the K loop, quantise 4 consecutive k of a row
//|  * and pack them into one int (byte t = k + t); load the weights as ints
//|  * (rows are I8_LD(in) bytes, zero padded). acc = __dp4a(a, w, acc) adds the
//|  * four int8 products. Epilogue: (float)acc * (sx[r] * sw[c]) + b[c], ReLU. */
//@end

cudaError_t int8_linear(const float *x, const int8_t *qw, const float *sw, const float *b, float *y, int batch, int in,
                        int out, int relu)
{
    //@solution
    if (batch < 0 || in < 1 || out < 1) return cudaErrorInvalidValue;
    if (batch == 0) return cudaSuccess;
    dim3 grid((unsigned)((batch + (long long)BM - 1) / BM), (unsigned)((out + BN - 1) / BN));
    if (relu) linear_i8_kernel<true><<<grid, THREADS>>>(x, qw, sw, b, y, batch, in, out);
    else linear_i8_kernel<false><<<grid, THREADS>>>(x, qw, sw, b, y, batch, in, out);
    return cudaGetLastError();
    //@starter
    //| /* TODO: sizes as fp32_linear, then launch your kernel. */
    //| (void)x, (void)qw, (void)sw, (void)b, (void)y, (void)batch, (void)in, (void)out, (void)relu;
    //| return cudaSuccess;
    //@end
}
