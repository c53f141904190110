// judge_w36_kernels.cu — week 36's own kernels for its judge
// (judge_w36_kernels.h): the rows' max and sum of the timed calls' hashed
// scores, in double, and the full check of every P.
#include <math.h>

#include "judge_w36_kernels.h"
#include "wb_hd.h"

#define THREADS 256
#define CHUNK   8192 // keys of a row a stats block covers

// Keys 0 .. kept-1 of flattened row r survive the mask (the test's kept_of).
static __device__ long long kept_of(size_t r, const jd36_scores &in)
{
    long long k = in.causal ? (long long)(r % (size_t)in.rows) + 1 + (in.cols - in.rows) : in.cols;
    if (k < 0) k = 0;
    return k > in.cols ? in.cols : k;
}

// z as the kernels make it: one float multiply, rounded once.
static __device__ double zof(const jd36_scores &in, size_t i)
{
    return (double)__fmul_rn(in.scale, wb_hash_uniform(in.seed, i, in.lo, in.hi));
}

static size_t nrows_of(const jd36_scores *in)
{
    return in->batch > 0 && in->rows > 0 && in->cols > 0 ? (size_t)in->batch * (size_t)in->rows : 0;
}
static size_t chunks_of(const jd36_scores *in) { return ((size_t)(in->cols > 0 ? in->cols : 0) + CHUNK - 1) / CHUNK; }

extern "C" size_t jd36_scratch_doubles(const jd36_scores *in) { return 2 * nrows_of(in) * chunks_of(in) + 2; }

// Block reduction of v (max when is_max, else sum) in a fixed order; every thread gets the result.
static __device__ double block_reduce(double v, bool is_max)
{
    __shared__ double part[THREADS];
    part[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            const double o = part[threadIdx.x + s];
            part[threadIdx.x] = is_max ? (o > part[threadIdx.x] ? o : part[threadIdx.x]) : part[threadIdx.x] + o;
        }
        __syncthreads();
    }
    const double r = part[0];
    __syncthreads();
    return r;
}

// Block b: row b / chunks, keys [c CHUNK, (c + 1) CHUNK) of it: its (max, sum of exp(z - max)).
static __global__ void stats_k(jd36_scores in, size_t nblocks, size_t chunks, double *part)
{
    for (size_t b = blockIdx.x; b < nblocks; b += gridDim.x) {
        const size_t r = b / chunks, c = b % chunks, base = r * (size_t)in.cols;
        const long long kept = kept_of(r, in), j0 = (long long)c * CHUNK;
        const long long j1 = j0 + CHUNK < kept ? j0 + CHUNK : kept;
        double m = -INFINITY, s = 0;
        for (long long j = j0 + threadIdx.x; j < j1; j += THREADS) {
            const double z = zof(in, base + (size_t)j);
            if (z > m) m = z;
        }
        m = block_reduce(m, true);
        if (m != -INFINITY)
            for (long long j = j0 + threadIdx.x; j < j1; j += THREADS) s += exp(zof(in, base + (size_t)j) - m);
        s = block_reduce(s, false);
        if (threadIdx.x == 0) part[2 * b] = m, part[2 * b + 1] = s;
    }
}

// A thread a row: its chunks' pairs merged in order.
static __global__ void merge_k(size_t nrows, size_t chunks, const double *part, double *stats)
{
    const size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows) return;
    double M = -INFINITY, S = 0;
    for (size_t c = 0; c < chunks; c++) {
        const double m = part[2 * (r * chunks + c)];
        if (m > M) M = m;
    }
    if (M != -INFINITY)
        for (size_t c = 0; c < chunks; c++) {
            const double m = part[2 * (r * chunks + c)], s = part[2 * (r * chunks + c) + 1];
            if (m != -INFINITY) S += s * exp(m - M);
        }
    stats[2 * r] = M, stats[2 * r + 1] = S;
}

static unsigned grid_for(size_t work, size_t per)
{
    size_t g = (work + per - 1) / per;
    return (unsigned)(g < 1 ? 1 : g > 65535 ? 65535 : g);
}

extern "C" cudaError_t jd36_row_stats(const jd36_scores *in, double *scratch, double *stats, cudaStream_t s)
{
    const size_t nrows = nrows_of(in), chunks = chunks_of(in);
    if (nrows == 0) return cudaSuccess;
    stats_k<<<grid_for(nrows * chunks, 1), THREADS, 0, s>>>(*in, nrows * chunks, chunks, scratch);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    merge_k<<<(unsigned)((nrows + THREADS - 1) / THREADS), THREADS, 0, s>>>(nrows, chunks, scratch, stats);
    return cudaGetLastError();
}

static __global__ void check_k(const float *P, jd36_scores in, size_t n, const double *stats, double atol, double rtol,
                               unsigned long long *bad)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const size_t r = i / (size_t)in.cols;
        const long long j = (long long)(i % (size_t)in.cols);
        const double M = stats[2 * r], S = stats[2 * r + 1];
        const double want = M == -INFINITY || j >= kept_of(r, in) ? 0.0 : exp(zof(in, i) - M) / S;
        if (!wb_close_hd(P[i], want, atol, rtol)) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

extern "C" cudaError_t jd36_check(const float *P, const jd36_scores *in, const double *stats, double atol, double rtol,
                                  unsigned long long *bad, cudaStream_t s)
{
    static const unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    const size_t n = nrows_of(in) * (size_t)(in->cols > 0 ? in->cols : 0);
    if (e != cudaSuccess || n == 0) return e;
    check_k<<<grid_for(n, THREADS * 16), THREADS, 0, s>>>(P, *in, n, stats, atol, rtol, bad);
    return cudaGetLastError();
}
