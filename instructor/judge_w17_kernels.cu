// judge_w17_kernels.cu — week 17's judge kernel (judge_w17_kernels.h): a
// timed convolution's output checked in full, the input re-derived from its
// seed (wb_hd.h), never read from the buffers the runner saw.
#include "judge_w17_kernels.h"
#include "wb_hd.h"

static __device__ int clampd(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

static __global__ void conv_check_k(const float *out, int width, int height, jd_w17_filter f, unsigned long long seed,
                                    float lo, float hi, int zero_pad, double atol, double rtol, unsigned long long *bad)
{
    const size_t n = (size_t)width * height;
    const int r = f.k / 2;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const int x = (int)(i % (size_t)width), y = (int)(i / (size_t)width);
        double s = 0;
        for (int a = 0; a < f.k; a++)
            for (int b = 0; b < f.k; b++) {
                int xx = x + b - r, yy = y + a - r;
                double v;
                if (zero_pad && (xx < 0 || xx >= width || yy < 0 || yy >= height)) v = 0;
                else v = wb_hash_uniform(seed, (size_t)clampd(yy, height) * width + clampd(xx, width), lo, hi);
                s += (double)f.w[a * f.k + b] * v;
            }
        if (!wb_close_hd(out[i], s, atol, rtol)) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

extern "C" cudaError_t jd_w17_conv_check_f32(const float *out, int width, int height, const jd_w17_filter *f,
                                             unsigned long long seed, float lo, float hi, int zero_pad, double atol,
                                             double rtol, unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || width <= 0 || height <= 0) return e;
    size_t n = (size_t)width * height, blocks = (n + 255) / 256;
    conv_check_k<<<(unsigned)(blocks < 65536 ? blocks : 65536), 256, 0, s>>>(out, width, height, *f, seed, lo, hi,
                                                                            zero_pad, atol, rtol, bad);
    return cudaGetLastError();
}
