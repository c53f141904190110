// judge_w18_kernels.cu — week 18's judge kernels (judge_w18_kernels.h): the
// timed layer's inputs made from their seeds (wb_hd.h's hash), and its
// output checked in full against a double-precision sum over the judge's
// own copies of those inputs, never the buffers the runner saw.
#include <stdint.h>
#include <string.h>

#include "judge_w18_kernels.h"
#include "wb_hd.h"

// bfloat16 nearest even of a finite float (the draws are finite), as wb_f32_to_bf16
static __host__ __device__ inline uint16_t bf16_bits(float f)
{
    uint32_t u;
#ifdef __CUDA_ARCH__
    u = __float_as_uint(f);
#else
    memcpy(&u, &f, 4);
#endif
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static __host__ __device__ inline float bf16_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, 4);
    return f;
#endif
}

static __host__ __device__ inline float draw(unsigned long long seed, size_t i, float r, int bf16)
{
    float v = wb_hash_uniform(seed, i, -r, r);
    return bf16 ? bf16_float(bf16_bits(v)) : v;
}

extern "C" float jd_w18_draw(unsigned long long seed, size_t i, float r, int bf16) { return draw(seed, i, r, bf16); }

static __global__ void fill_k(unsigned char *in, int bf16, size_t nx, size_t nw, int out, unsigned long long sx,
                              unsigned long long sw, unsigned long long sb)
{
    const size_t es = bf16 ? 2 : 4, n = nx + nw + (size_t)out;
    float *b = (float *)(in + es * (nx + nw));
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        if (i >= nx + nw) {
            b[i - nx - nw] = wb_hash_uniform(sb, i - nx - nw, -JD_W18_BR, JD_W18_BR);
            continue;
        }
        const float v = i < nx ? wb_hash_uniform(sx, i, -JD_W18_XR, JD_W18_XR)
                               : wb_hash_uniform(sw, i - nx, -JD_W18_WR, JD_W18_WR);
        if (bf16) ((uint16_t *)in)[i] = bf16_bits(v);
        else ((float *)in)[i] = v;
    }
}

static unsigned grid_of(size_t n)
{
    size_t blocks = (n + 255) / 256;
    return (unsigned)(blocks < 65536 ? (blocks ? blocks : 1) : 65536);
}

extern "C" cudaError_t jd_w18_fill(void *in, int bf16, int batch, int in_, int out, unsigned long long sx,
                                   unsigned long long sw, unsigned long long sb, cudaStream_t s)
{
    const size_t nx = (size_t)batch * in_, nw = (size_t)out * in_;
    fill_k<<<grid_of(nx + nw + out), 256, 0, s>>>((unsigned char *)in, bf16, nx, nw, out, sx, sw, sb);
    return cudaGetLastError();
}

static __global__ void fill_ref_k(float *x, float *W, float *b, int bf16, size_t nx, size_t nw, int out,
                                  unsigned long long sx, unsigned long long sw, unsigned long long sb)
{
    const size_t n = nx + nw + (size_t)out;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        if (i < nx) x[i] = draw(sx, i, JD_W18_XR, bf16);
        else if (i < nx + nw) W[i - nx] = draw(sw, i - nx, JD_W18_WR, bf16);
        else b[i - nx - nw] = wb_hash_uniform(sb, i - nx - nw, -JD_W18_BR, JD_W18_BR);
    }
}

extern "C" cudaError_t jd_w18_fill_ref(float *x, float *W, float *b, int bf16, int batch, int in_, int out,
                                       unsigned long long sx, unsigned long long sw, unsigned long long sb,
                                       cudaStream_t s)
{
    const size_t nx = (size_t)batch * in_, nw = (size_t)out * in_;
    fill_ref_k<<<grid_of(nx + nw + out), 256, 0, s>>>(x, W, b, bf16, nx, nw, out, sx, sw, sb);
    return cudaGetLastError();
}

// 64 x 64 outputs a block of 256 threads, 4 x 4 each, k 16 at a time through shared tiles; sums in double.
enum { TM = 64, TK = 16 };
static __global__ void check_k(const float *y, const float *x, const float *W, const float *b, int batch, int in_,
                               int out, double atol, double rtol, unsigned long long *bad)
{
    __shared__ float xs[TK][TM + 1], ws[TK][TM + 1];
    const int r0 = blockIdx.y * TM, c0 = blockIdx.x * TM, tr = threadIdx.x / 16, tc = threadIdx.x % 16;
    double acc[4][4] = {};
    for (int k0 = 0; k0 < in_; k0 += TK) {
        for (int e = threadIdx.x; e < TK * TM; e += 256) {
            const int row = e / TK, kk = e % TK, k = k0 + kk;
            xs[kk][row] = r0 + row < batch && k < in_ ? x[(size_t)(r0 + row) * in_ + k] : 0.f;
            ws[kk][row] = c0 + row < out && k < in_ ? W[(size_t)(c0 + row) * in_ + k] : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < TK; kk++) {
            double a[4], w[4];
            for (int i = 0; i < 4; i++) a[i] = xs[kk][tr + 16 * i], w[i] = ws[kk][tc + 16 * i];
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) acc[i][j] += a[i] * w[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            const int r = r0 + tr + 16 * i, c = c0 + tc + 16 * j;
            if (r >= batch || c >= out) continue;
            double s = acc[i][j] + (double)b[c];
            s = s < 0 ? 0 : s;
            const size_t idx = (size_t)r * out + c;
            if (!wb_close_hd(y[idx], s, atol, rtol)) {
                atomicAdd(&bad[0], 1ull);
                atomicMin(&bad[1], (unsigned long long)idx);
            }
        }
}

extern "C" cudaError_t jd_w18_check(const float *y, const float *x, const float *W, const float *b, int batch, int in_,
                                    int out, double atol, double rtol, unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || batch <= 0 || out <= 0) return e;
    dim3 grid((unsigned)((out + TM - 1) / TM), (unsigned)((batch + TM - 1) / TM));
    check_k<<<grid, 256, 0, s>>>(y, x, W, b, batch, in_, out, atol, rtol, bad);
    return cudaGetLastError();
}
