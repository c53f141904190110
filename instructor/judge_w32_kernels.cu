// judge_w32_kernels.cu — week 32's own kernels for its judge
// (judge_w32_kernels.h): LayerNorm backward's references from the judge's
// hashed inputs, in double, and the full checks of the timed outputs.
#include "judge_w32_kernels.h"
#include "wb_hd.h"

// The ranges of w32_checks.h (W32_*_LO/HI), which the judge's fills use.
#define X_LO -1.0f
#define X_HI 1.0f
#define G_LO 0.5f
#define G_HI 1.5f
#define M_LO -0.01f
#define M_HI 0.01f
#define R_LO 1.70f
#define R_HI 1.76f

#define THREADS 256

struct row_terms {
    double g, xh;
};

// Element (r, j)'s g = dy gamma_j and xhat = (x - mean) rstd, as the test's host expectation forms them.
static __device__ row_terms terms(const jd32_inputs &in, size_t base, int j, double mu, double rs)
{
    row_terms t;
    t.g = (double)wb_hash_uniform(in.sdy, base + j, X_LO, X_HI) * (double)wb_hash_uniform(in.sg, (size_t)j, G_LO, G_HI);
    t.xh = ((double)wb_hash_uniform(in.sx, base + j, X_LO, X_HI) - mu) * rs;
    return t;
}

// Row r's two means (sum g / cols, sum g xhat / cols), every thread of the block gets them.
static __device__ void row_means(const jd32_inputs &in, int r, double mu, double rs, double *c1, double *c2)
{
    __shared__ double part[2][THREADS];
    const size_t base = (size_t)r * in.cols;
    double s1 = 0, s2 = 0;
    for (int j = threadIdx.x; j < in.cols; j += blockDim.x) {
        row_terms t = terms(in, base, j, mu, rs);
        s1 += t.g, s2 += t.g * t.xh;
    }
    part[0][threadIdx.x] = s1, part[1][threadIdx.x] = s2;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[0][threadIdx.x] += part[0][threadIdx.x + s], part[1][threadIdx.x] += part[1][threadIdx.x + s];
        __syncthreads();
    }
    *c1 = part[0][0] / in.cols, *c2 = part[1][0] / in.cols;
    __syncthreads();
}

static __global__ void dx_rowsums_k(jd32_inputs in, double *c)
{
    for (int r = blockIdx.x; r < in.rows; r += gridDim.x) {
        const double mu = wb_hash_uniform(in.sm, (size_t)r, M_LO, M_HI), rs = wb_hash_uniform(in.sr, (size_t)r, R_LO, R_HI);
        double c1, c2;
        row_means(in, r, mu, rs, &c1, &c2);
        if (threadIdx.x == 0) c[2 * (size_t)r] = c1, c[2 * (size_t)r + 1] = c2;
    }
}

static __global__ void dx_check_k(const float *dx, jd32_inputs in, double atol, double rtol, unsigned long long *bad)
{
    for (int r = blockIdx.x; r < in.rows; r += gridDim.x) {
        const double mu = wb_hash_uniform(in.sm, (size_t)r, M_LO, M_HI), rs = wb_hash_uniform(in.sr, (size_t)r, R_LO, R_HI);
        const size_t base = (size_t)r * in.cols;
        double c1, c2;
        row_means(in, r, mu, rs, &c1, &c2);
        for (int j = threadIdx.x; j < in.cols; j += blockDim.x) {
            row_terms t = terms(in, base, j, mu, rs);
            if (!wb_close_hd(dx[base + j], rs * (t.g - c1 - t.xh * c2), atol, rtol)) {
                atomicAdd(&bad[0], 1ull);
                atomicMin(&bad[1], (unsigned long long)(base + j));
            }
        }
    }
}

static cudaError_t reset_bad(unsigned long long *bad, cudaStream_t s)
{
    static const unsigned long long init[2] = { 0, ~0ull };
    return cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
}

static unsigned row_blocks(int rows) { return (unsigned)(rows < 16384 ? rows : 16384); }

extern "C" cudaError_t jd32_dx_rowsums(const jd32_inputs *in, double *c, cudaStream_t s)
{
    if (in->rows <= 0 || in->cols <= 0) return cudaSuccess;
    dx_rowsums_k<<<row_blocks(in->rows), THREADS, 0, s>>>(*in, c);
    return cudaGetLastError();
}

extern "C" cudaError_t jd32_dx_check(const float *dx, const jd32_inputs *in, double atol, double rtol,
                                     unsigned long long *bad, cudaStream_t s)
{
    cudaError_t e = reset_bad(bad, s);
    if (e != cudaSuccess || in->rows <= 0 || in->cols <= 0) return e;
    dx_check_k<<<row_blocks(in->rows), THREADS, 0, s>>>(dx, *in, atol, rtol, bad);
    return cudaGetLastError();
}

// A thread a column, a chunk of rows a grid row; the chunks' sums added with atomics (in double: their
// order moves the result by far less than the check's tolerance).
#define COL_CHUNKS 128

static __global__ void dgb_colsums_k(jd32_inputs in, double *sums)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= in.cols) return;
    const int per = (in.rows + COL_CHUNKS - 1) / COL_CHUNKS, r0 = blockIdx.y * per;
    const int r1 = r0 + per < in.rows ? r0 + per : in.rows;
    double g = 0, b = 0;
    for (int r = r0; r < r1; r++) {
        const size_t i = (size_t)r * in.cols + j;
        const double d = wb_hash_uniform(in.sdy, i, X_LO, X_HI), x = wb_hash_uniform(in.sx, i, X_LO, X_HI);
        const double mu = wb_hash_uniform(in.sm, (size_t)r, M_LO, M_HI), rs = wb_hash_uniform(in.sr, (size_t)r, R_LO, R_HI);
        g += d * ((x - mu) * rs);
        b += d;
    }
    if (r1 > r0) atomicAdd(&sums[j], g), atomicAdd(&sums[in.cols + j], b);
}

extern "C" cudaError_t jd32_dgb_colsums(const jd32_inputs *in, double *sums, cudaStream_t s)
{
    if (in->cols <= 0) return cudaSuccess;
    cudaError_t e = cudaMemsetAsync(sums, 0, 2 * (size_t)in->cols * sizeof(double), s);
    if (e != cudaSuccess || in->rows <= 0) return e;
    dim3 grid((unsigned)((in->cols + THREADS - 1) / THREADS), COL_CHUNKS);
    dgb_colsums_k<<<grid, THREADS, 0, s>>>(*in, sums);
    return cudaGetLastError();
}

static __global__ void dgb_check_k(const float *out, const double *sums, int n, double atol, double rtol,
                                   unsigned long long *bad)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n && !wb_close_hd(out[k], sums[k], atol, rtol)) {
        atomicAdd(&bad[0], 1ull);
        atomicMin(&bad[1], (unsigned long long)k);
    }
}

extern "C" cudaError_t jd32_dgb_check(const float *out, const double *sums, int cols, double atol, double rtol,
                                      unsigned long long *bad, cudaStream_t s)
{
    cudaError_t e = reset_bad(bad, s);
    if (e != cudaSuccess || cols <= 0) return e;
    dgb_check_k<<<(unsigned)((2 * cols + THREADS - 1) / THREADS), THREADS, 0, s>>>(out, sums, 2 * cols, atol, rtol, bad);
    return cudaGetLastError();
}
