// judge_w35_kernels.cu — week 35's judge kernel (judge_w35_kernels.h): a
// timed dropout output checked in full, its inputs recomputed from their
// seeds (never read from the buffers the runner saw) and its mask against
// the judge's own model (judge_w35_philox.h).
#include <math.h>
#include <stdint.h>

#include "judge_w35_kernels.h"
#include "judge_w35_philox.h"
#include "wb_hd.h"

#define CHECK_THREADS 256

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
            const float r = wb_hash_uniform(sr, i, -1.0f, 1.0f), got = out[i];
            bool ok = mask[i] == (uint8_t)keep;
            if (ok && !keep) ok = got == r;
            else if (ok) {
                const float v = __fadd_rn(wb_hash_uniform(sx, i, -4.0f, 4.0f), wb_hash_uniform(sb, i % (size_t)cols, -1.0f, 1.0f));
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
