// judge_w35_kernels.cu — week 35's judge kernel (judge_w35_kernels.h): a
// timed dropout output checked in full, its inputs recomputed from their
// seeds (never read from the buffers the runner saw) and its mask against
// the judge's own model (judge_w35_philox.h).
#include <math.h>
#include <stdint.h>

#include "judge_w35_kernels.h"
#include "judge_w35_philox.h"

#define CHECK_THREADS 256

// wb_fill.cu's hash_uniform, the same bits (as judge_kernels.cu keeps it:
// keep them in step; a drift fails every correct timed run, loudly).
static __device__ float w35_hash(unsigned long long seed, size_t i, float lo, float hi)
{
    unsigned long long z = seed ^ ((unsigned long long)i * 0x9E3779B97F4A7C15ull);
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    float u = (float)(z >> 40) * (1.0f / 16777216.0f);
    return __fadd_rn(lo, __fmul_rn(hi - lo, u));
}

// One thread a group of four elements (the inputs are finite here).
static __global__ void dropout_check_k(const float *out, size_t rows, int cols, unsigned long long sx,
                                       unsigned long long sr, unsigned long long sb, unsigned long long seed,
                                       unsigned long long offset, float p, float scale, unsigned long long *bad)
{
    const size_t n = rows * (size_t)cols, groups = (n + 3) / 4;
    const uint8_t *mask = (const uint8_t *)(out + n);
    for (size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += (size_t)gridDim.x * blockDim.x) {
        uint32_t w[4];
        jd35_group(seed, offset, g, w);
        for (int k = 0; k < 4; k++) {
            const size_t i = 4 * g + (size_t)k;
            if (i >= n) break;
            const int keep = jd35_uniform(w[k]) > p;
            const float r = w35_hash(sr, i, -1.0f, 1.0f), got = out[i];
            bool ok = mask[i] == (uint8_t)keep;
            if (ok && !keep) ok = got == r;
            else if (ok) {
                const float v = __fadd_rn(w35_hash(sx, i, -4.0f, 4.0f), w35_hash(sb, i % (size_t)cols, -1.0f, 1.0f));
                const double term = (double)v * (double)scale, exact = (double)r + term;
                const double tol = (fabs(exact) + fabs(term)) * 0x1p-23 + 0x1p-126;
                ok = isfinite(got) && fabs((double)got - exact) <= tol;
            }
            if (!ok) {
                atomicAdd(&bad[0], 1ull);
                atomicMin(&bad[1], (unsigned long long)i);
            }
        }
    }
}

extern "C" cudaError_t jd_w35_dropout_check(const float *out, size_t rows, int cols, unsigned long long sx,
                                            unsigned long long sr, unsigned long long sb, unsigned long long seed,
                                            unsigned long long offset, float p, unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    const size_t n = rows * (size_t)(cols > 0 ? cols : 0), groups = (n + 3) / 4;
    if (e != cudaSuccess || n == 0) return e;
    const float scale = p < 1.0f ? 1.0f / (1.0f - p) : 0.0f;
    size_t blocks = (groups + CHECK_THREADS - 1) / CHECK_THREADS;
    if (blocks > 65536) blocks = 65536;
    dropout_check_k<<<(unsigned)blocks, CHECK_THREADS, 0, s>>>(out, rows, cols, sx, sr, sb, seed, offset, p, scale, bad);
    return cudaGetLastError();
}
