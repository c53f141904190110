// judge_kernels.cu — the judge's own kernels (judge_kernels.h): the look at
// a sample of an output right after a runner's reply, and the full checks
// of an output after the timing.
#include <stdlib.h>

#include <cuda_fp16.h>

#include "judge_kernels.h"
#include "wb_hd.h"

static __global__ void gather_reps_k(const float *const *src, const unsigned long long *idx, int n, float *dst)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[(size_t)blockIdx.y * n + i] = src[blockIdx.y][idx[i]];
}

extern "C" cudaError_t jd_gather_reps_f32(const float *const *src, int reps, const unsigned long long *idx, int n,
                                          float *dst, cudaStream_t s)
{
    if (n <= 0 || reps <= 0) return cudaSuccess;
    gather_reps_k<<<dim3((unsigned)(n + 255) / 256, (unsigned)reps), 256, 0, s>>>(src, idx, n, dst);
    return cudaGetLastError();
}

static __global__ void sum_check_k(const float *c, size_t n, unsigned long long sa, unsigned long long sb, float lo,
                                   float hi, unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float want = __fadd_rn(wb_hash_uniform(sa, i, lo, hi), wb_hash_uniform(sb, i, lo, hi));
        if (__float_as_uint(c[i]) != __float_as_uint(want)) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

extern "C" cudaError_t jd_sum_check_f32(const float *c, size_t n, unsigned long long sa, unsigned long long sb, float lo,
                                        float hi, unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || n == 0) return e;
    size_t blocks = (n + 255) / 256;
    sum_check_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>(c, n, sa, sb, lo, hi, bad);
    return cudaGetLastError();
}

// Every y[i] (i < n) against ref(i) (a functor: element i's expected value,
// a float or a double) by close_d: bad[0] = how many differ, bad[1] = the first (on stream s, not
// waited for).
template <class Ref>
static __global__ void ref_check_k(const float *y, size_t n, Ref ref, double atol, double rtol, unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        if (!wb_close_hd(y[i], ref(i), atol, rtol)) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

template <class Ref>
static cudaError_t ref_check(const float *y, size_t n, Ref ref, double atol, double rtol, unsigned long long *bad,
                             cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || n == 0) return e;
    size_t blocks = (n + 255) / 256;
    ref_check_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>(y, n, ref, atol, rtol, bad);
    return cudaGetLastError();
}

// The FMA replay: x = wb_hash_uniform(sx, i, lo, hi) after `iters` steps of x = fmaf(x, a, b).
struct fma_ref {
    unsigned long long sx;
    float              lo, hi;
    int                iters;
    float              a, b;
    __device__ float operator()(size_t i) const
    {
        float v = wb_hash_uniform(sx, i, lo, hi);
        for (int k = 0; k < iters; k++) v = fmaf(v, a, b);
        return v;
    }
};

extern "C" cudaError_t jd_fma_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, int iters,
                                        float a, float b, double atol, double rtol, unsigned long long *bad,
                                        cudaStream_t s)
{
    return ref_check(y, n, fma_ref{ sx, lo, hi, iters, a, b }, atol, rtol, bad, s);
}

// Week 05's scale+ReLU: ref = relu(alpha x), x = wb_hash_uniform(sx, i, lo, hi),
// the product rounded once as the CPU's float multiply rounds it.
struct relu_ref {
    unsigned long long sx;
    float              lo, hi, alpha;
    __device__ float operator()(size_t i) const
    {
        float v = __fmul_rn(wb_hash_uniform(sx, i, lo, hi), alpha);
        return v < 0.f ? 0.f : v;
    }
};

extern "C" cudaError_t jd_relu_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, float alpha,
                                         double atol, double rtol, unsigned long long *bad, cudaStream_t s)
{
    return ref_check(y, n, relu_ref{ sx, lo, hi, alpha }, atol, rtol, bad, s);
}

// Week 12's fused chain: ref = relu(fmaf(a, x, b)) s, x = wb_hash_uniform(sx, i, lo, hi).
struct chain_ref {
    unsigned long long sx;
    float              lo, hi, a, b, s;
    __device__ float operator()(size_t i) const
    {
        float t = fmaf(a, wb_hash_uniform(sx, i, lo, hi), b);
        return __fmul_rn(t < 0.f ? 0.f : t, s);
    }
};

extern "C" cudaError_t jd_chain_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, float a,
                                          float b, float s, double atol, double rtol, unsigned long long *bad,
                                          cudaStream_t st)
{
    return ref_check(y, n, chain_ref{ sx, lo, hi, a, b, s }, atol, rtol, bad, st);
}

static __global__ void saxpy_check_k(const float *y, size_t n, unsigned long long sx, unsigned long long sy, float lo,
                                     float hi, float a, double atol, double rtol, unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        double ref = (double)a * (double)wb_hash_uniform(sx, i, lo, hi) + (double)wb_hash_uniform(sy, i, lo, hi);
        float got = y[i];
        if (!(isfinite(got) && fabs((double)got - ref) <= atol + rtol * fabs(ref))) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

extern "C" cudaError_t jd_saxpy_check_f32(const float *y, size_t n, unsigned long long sx, unsigned long long sy,
                                          float lo, float hi, float a, double atol, double rtol,
                                          unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || n == 0) return e;
    size_t blocks = (n + 255) / 256;
    saxpy_check_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>(y, n, sx, sy, lo, hi, a, atol, rtol, bad);
    return cudaGetLastError();
}

// y[i] = x[(i % R) * S + i / R]: a transpose of an R x S matrix, or week 06's strided copy (R = n / s, S = s).
static __global__ void perm_check_k(const float *y, size_t n, unsigned long long sx, float lo, float hi, size_t R,
                                    size_t S, unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float want = wb_hash_uniform(sx, (i % R) * S + i / R, lo, hi);
        if (__float_as_uint(y[i]) != __float_as_uint(want)) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

extern "C" cudaError_t jd_perm_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi, size_t R,
                                         size_t S, unsigned long long *bad, cudaStream_t st)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, st);
    if (e != cudaSuccess || n == 0) return e;
    if (R == 0) return cudaErrorInvalidValue;
    size_t blocks = (n + 255) / 256;
    perm_check_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, st>>>(y, n, sx, lo, hi, R, S, bad);
    return cudaGetLastError();
}

typedef struct {
    float c[16];
} poly16;

static __global__ void polyt_check_k(const float *out, int rows, int cols, unsigned long long sx, float lo, float hi,
                                     poly16 k, double atol, double rtol, unsigned long long *bad)
{
    size_t n = (size_t)rows * cols;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        size_t c = i / (size_t)rows, r = i % (size_t)rows;
        double x = wb_hash_uniform(sx, r * (size_t)cols + c, lo, hi), ref = k.c[15];
        for (int t = 14; t >= 0; t--) ref = __dadd_rn(__dmul_rn(ref, x), (double)k.c[t]); // unfused, as the host's
        float got = out[i];
        if (!(isfinite(got) && fabs((double)got - ref) <= atol + rtol * fabs(ref))) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

extern "C" cudaError_t jd_polyt_check_f32(const float *out, int rows, int cols, unsigned long long sx, float lo,
                                          float hi, const float coef[16], double atol, double rtol,
                                          unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    size_t n = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);
    if (e != cudaSuccess || n == 0) return e;
    poly16 k;
    for (int j = 0; j < 16; j++) k.c[j] = coef[j];
    size_t blocks = (n + 255) / 256;
    polyt_check_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>(out, rows, cols, sx, lo, hi, k, atol, rtol,
                                                                             bad);
    return cudaGetLastError();
}

// The double sum of wb_hash_uniform(seed, i, lo, hi) over i < n: what a sum of
// wb_dfill_uniform_f32's floats must come to; of their squares where square.
static __global__ void hash_sum_k(size_t n, unsigned long long seed, float lo, float hi, int square, double *out)
{
    __shared__ double part[256];
    double acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        double v = wb_hash_uniform(seed, i, lo, hi);
        acc += square ? v * v : v;
    }
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, part[0]);
}

static cudaError_t hash_sum(size_t n, unsigned long long seed, float lo, float hi, int square, double *out, cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(out, 0, sizeof *out, s);
    if (e != cudaSuccess || n == 0) return e;
    size_t blocks = (n + 255) / 256;
    hash_sum_k<<<(unsigned)(blocks < 2048 ? blocks : 2048), 256, 0, s>>>(n, seed, lo, hi, square, out);
    return cudaGetLastError();
}

extern "C" cudaError_t jd_hash_sum_f64(size_t n, unsigned long long seed, float lo, float hi, double *out, cudaStream_t s)
{
    return hash_sum(n, seed, lo, hi, 0, out, s);
}

extern "C" cudaError_t jd_hash_sumsq_f64(size_t n, unsigned long long seed, float lo, float hi, double *out,
                                         cudaStream_t s)
{
    return hash_sum(n, seed, lo, hi, 1, out, s);
}

static __device__ unsigned char hash_byte(unsigned long long seed, size_t i) { return (unsigned char)(wb_hash_bits(seed, i) >> 56); }

static __device__ unsigned hash_key(unsigned long long seed, size_t i, unsigned nkeys)
{
    unsigned long long z = wb_hash_bits(seed, i);
    return z >> 48 == 0 ? nkeys + (unsigned)(z & 255) : (unsigned)((z >> 16) % nkeys);
}

static __global__ void hash_bytes_k(unsigned char *d, size_t n, unsigned long long seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = hash_byte(seed, i);
}

static __global__ void hash_bytes_hist_k(size_t n, unsigned long long seed, unsigned int *bins)
{
    __shared__ unsigned int h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        atomicAdd(&h[hash_byte(seed, i)], 1u);
    __syncthreads();
    if (h[threadIdx.x]) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

static __global__ void hash_keys_k(unsigned *d, size_t n, unsigned long long seed, unsigned nkeys)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = hash_key(seed, i, nkeys);
}

static __global__ void hash_keys_in_range_k(size_t n, unsigned long long seed, unsigned nkeys, unsigned long long *count)
{
    __shared__ unsigned long long c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    unsigned long long mine = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        mine += hash_key(seed, i, nkeys) < nkeys;
    atomicAdd(&c, mine);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(count, c);
}

static unsigned grid_for(size_t n)
{
    size_t blocks = (n + 255) / 256;
    return (unsigned)(blocks < 2048 ? blocks : 2048);
}

extern "C" cudaError_t jd_hash_bytes(unsigned char *d, size_t n, unsigned long long seed, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    hash_bytes_k<<<grid_for(n), 256, 0, s>>>(d, n, seed);
    return cudaGetLastError();
}

extern "C" cudaError_t jd_hash_bytes_hist(size_t n, unsigned long long seed, unsigned int *bins, cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(bins, 0, 256 * sizeof *bins, s);
    if (e != cudaSuccess || n == 0) return e;
    hash_bytes_hist_k<<<grid_for(n), 256, 0, s>>>(n, seed, bins);
    return cudaGetLastError();
}

extern "C" cudaError_t jd_hash_keys(unsigned *d, size_t n, unsigned long long seed, unsigned nkeys, cudaStream_t s)
{
    if (n == 0 || nkeys == 0) return n == 0 ? cudaSuccess : cudaErrorInvalidValue;
    hash_keys_k<<<grid_for(n), 256, 0, s>>>(d, n, seed, nkeys);
    return cudaGetLastError();
}

extern "C" cudaError_t jd_hash_keys_in_range(size_t n, unsigned long long seed, unsigned nkeys, unsigned long long *count,
                                             cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(count, 0, sizeof *count, s);
    if (e != cudaSuccess || n == 0 || nkeys == 0) return e;
    hash_keys_in_range_k<<<grid_for(n), 256, 0, s>>>(n, seed, nkeys, count);
    return cudaGetLastError();
}

// The inclusive prefix sums, in double, of wb_hash_uniform(seed, i, lo, hi):
// tiles of PREFIX_TILE elements, 16 a thread; each tile's sum, the tiles'
// offsets scanned on the host, then each tile scanned from its offset.
#define PREFIX_TILE 4096

static __global__ void prefix_tile_sum_k(size_t n, unsigned long long seed, float lo, float hi, double *tsum)
{
    __shared__ double part[256];
    size_t base = blockIdx.x * (size_t)PREFIX_TILE + threadIdx.x * 16;
    double acc = 0;
    for (int k = 0; k < 16; k++)
        if (base + k < n) acc += (double)wb_hash_uniform(seed, base + k, lo, hi);
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) tsum[blockIdx.x] = part[0];
}

static __global__ void prefix_tile_scan_k(size_t n, unsigned long long seed, float lo, float hi, const double *toff,
                                          double *ref)
{
    __shared__ double part[256];
    size_t base = blockIdx.x * (size_t)PREFIX_TILE + threadIdx.x * 16;
    double v[16], acc = 0;
    for (int k = 0; k < 16; k++) {
        if (base + k < n) acc += (double)wb_hash_uniform(seed, base + k, lo, hi);
        v[k] = acc;
    }
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned off = 1; off < 256; off <<= 1) { // inclusive scan of the threads' totals
        double t = threadIdx.x >= off ? part[threadIdx.x - off] : 0;
        __syncthreads();
        part[threadIdx.x] += t;
        __syncthreads();
    }
    double before = toff[blockIdx.x] + (threadIdx.x ? part[threadIdx.x - 1] : 0);
    for (int k = 0; k < 16; k++)
        if (base + k < n) ref[base + k] = before + v[k];
}

// Both prefixes' host part: the tiles' sums (sum(T, d): a kernel of T
// blocks into d), their exclusive prefix on the host, then each tile scanned
// from its offset (scan(T, d)); waited for.
template <typename V, typename Sum, typename Scan>
static cudaError_t prefix_by_tiles(size_t n, cudaStream_t s, Sum sum, Scan scan)
{
    if (n == 0) return cudaSuccess;
    size_t T = (n + PREFIX_TILE - 1) / PREFIX_TILE;
    V *d = NULL, *h = (V *)malloc(T * sizeof *h);
    cudaError_t e = h ? cudaMalloc((void **)&d, T * sizeof *d) : cudaErrorMemoryAllocation;
    if (e == cudaSuccess) {
        sum((unsigned)T, d);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(h, d, T * sizeof *h, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e == cudaSuccess) {
        V acc = 0; // exclusive: tile t starts after the sum of tiles 0 .. t-1 (unsigned: modulo 2^32)
        for (size_t t = 0; t < T; t++) {
            V x = h[t];
            h[t] = acc, acc += x;
        }
        e = cudaMemcpyAsync(d, h, T * sizeof *h, cudaMemcpyHostToDevice, s);
    }
    if (e == cudaSuccess) {
        scan((unsigned)T, d);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (d) cudaFree(d);
    free(h);
    return e;
}

extern "C" cudaError_t jd_hash_prefix_f64(size_t n, unsigned long long seed, float lo, float hi, double *ref,
                                          cudaStream_t s)
{
    return prefix_by_tiles<double>(
        n, s, [=](unsigned T, double *d) { prefix_tile_sum_k<<<T, 256, 0, s>>>(n, seed, lo, hi, d); },
        [=](unsigned T, double *d) { prefix_tile_scan_k<<<T, 256, 0, s>>>(n, seed, lo, hi, d, ref); });
}

static __global__ void prefix_check_k(const float *y, const double *ref, size_t n, double atol, double rtol,
                                      unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float got = y[i];
        double r = ref[i];
        if (!(isfinite(got) && fabs((double)got - r) <= atol + rtol * fabs(r))) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

extern "C" cudaError_t jd_prefix_check_f32(const float *y, const double *ref, size_t n, double atol, double rtol,
                                           unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || n == 0) return e;
    size_t blocks = (n + 255) / 256;
    prefix_check_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>(y, ref, n, atol, rtol, bad);
    return cudaGetLastError();
}

// ------------------------------------------------------------ week 15's checks

static __device__ void flag_bad(unsigned long long *bad, size_t i)
{
    atomicAdd(&bad[0], 1ull);
    atomicMin(&bad[1], (unsigned long long)i);
}

static cudaError_t reset_bad(unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    return cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
}

// w15_checks.h's w15_gelu_ref, in double.
static __device__ double gelu_d(double v) { return v / (1.0 + exp(-1.5957691216057308 * (v + 0.044715 * v * v * v))); }

// Week 15's GELU chain: r + s gelu(x + bias[i % cols]) in double.
struct gelu_ref {
    unsigned long long sx;
    float              xlo, xhi;
    unsigned long long sb, sr;
    float              lo, hi, s;
    size_t             cols;
    __device__ double operator()(size_t i) const
    {
        double v = (double)wb_hash_uniform(sx, i, xlo, xhi) + (double)wb_hash_uniform(sb, i % cols, lo, hi);
        return (double)wb_hash_uniform(sr, i, lo, hi) + (double)s * gelu_d(v);
    }
};

extern "C" cudaError_t jd_gelu_check_f32(const float *y, size_t n, int cols, unsigned long long sx, float xlo, float xhi,
                                         unsigned long long sb, unsigned long long sr, float lo, float hi, float s,
                                         double atol, double rtol, unsigned long long *bad, cudaStream_t st)
{
    if (cols <= 0) n = 0;
    return ref_check(y, n, gelu_ref{ sx, xlo, xhi, sb, sr, lo, hi, s, (size_t)(cols > 0 ? cols : 1) }, atol, rtol, bad, st);
}

// One block a row (a grid-stride loop over the rows): the row's max and
// sum of exp(x - max) in double, then every element against exp(x - m) / sum.
static __global__ void softmax_check_k(const float *y, int rows, int cols, unsigned long long sx, float lo, float hi,
                                       double atol, double rtol, unsigned long long *bad)
{
    __shared__ double part[256];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        size_t base = (size_t)row * cols;
        double m = -INFINITY;
        for (int j = threadIdx.x; j < cols; j += blockDim.x) m = fmax(m, (double)wb_hash_uniform(sx, base + j, lo, hi));
        part[threadIdx.x] = m;
        __syncthreads();
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s) part[threadIdx.x] = fmax(part[threadIdx.x], part[threadIdx.x + s]);
            __syncthreads();
        }
        m = part[0];
        __syncthreads();
        double sum = 0;
        for (int j = threadIdx.x; j < cols; j += blockDim.x) sum += exp((double)wb_hash_uniform(sx, base + j, lo, hi) - m);
        part[threadIdx.x] = sum;
        __syncthreads();
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
            if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
            __syncthreads();
        }
        sum = part[0];
        __syncthreads();
        for (int j = threadIdx.x; j < cols; j += blockDim.x) {
            double ref = exp((double)wb_hash_uniform(sx, base + j, lo, hi) - m) / sum;
            float got = y[base + j];
            if (!wb_close_hd(got, ref, atol, rtol)) flag_bad(bad, base + j);
        }
    }
}

extern "C" cudaError_t jd_softmax_check_f32(const float *y, int rows, int cols, unsigned long long sx, float lo, float hi,
                                            double atol, double rtol, unsigned long long *bad, cudaStream_t st)
{
    cudaError_t e = reset_bad(bad, st);
    if (e != cudaSuccess || rows <= 0 || cols <= 0) return e;
    softmax_check_k<<<rows < 16384 ? rows : 16384, 256, 0, st>>>(y, rows, cols, sx, lo, hi, atol, rtol, bad);
    return cudaGetLastError();
}

static __device__ double bell_d(double v) { return exp(-v * v); }

// Week 15's smoothing: 0.25 t[i-1] + 0.5 t[i] + 0.25 t[i+1], t = exp(-x^2), 0 outside [0, n).
struct smooth_ref {
    unsigned long long sx;
    float              lo, hi;
    size_t             n;
    __device__ double operator()(size_t i) const
    {
        double l = i > 0 ? bell_d(wb_hash_uniform(sx, i - 1, lo, hi)) : 0;
        double r = i + 1 < n ? bell_d(wb_hash_uniform(sx, i + 1, lo, hi)) : 0;
        return 0.25 * (l + r) + 0.5 * bell_d(wb_hash_uniform(sx, i, lo, hi));
    }
};

extern "C" cudaError_t jd_smooth_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi,
                                           double atol, double rtol, unsigned long long *bad, cudaStream_t st)
{
    return ref_check(y, n, smooth_ref{ sx, lo, hi, n }, atol, rtol, bad, st);
}

// Week 15's normalize: x / sqrt(*sumsq).
struct scale_ref {
    unsigned long long sx;
    float              lo, hi;
    const double      *sumsq;
    __device__ double operator()(size_t i) const { return (double)wb_hash_uniform(sx, i, lo, hi) / sqrt(*sumsq); }
};

extern "C" cudaError_t jd_scale_check_f32(const float *y, size_t n, unsigned long long sx, float lo, float hi,
                                          const double *sumsq, double atol, double rtol, unsigned long long *bad,
                                          cudaStream_t st)
{
    return ref_check(y, n, scale_ref{ sx, lo, hi, sumsq }, atol, rtol, bad, st);
}

// Week 15's linear: C = A B (row-major, M x K by K x N), relu(A B + bias[col]) where bias_relu.
struct gemm_ref {
    unsigned long long sa, sb, sbias;
    float              lo, hi;
    int                N, K, bias_relu;
    __device__ double operator()(size_t i) const
    {
        size_t row = i / (size_t)N, col = i % (size_t)N;
        double acc = 0;
        for (int k = 0; k < K; k++)
            acc += (double)wb_hash_uniform(sa, row * K + k, lo, hi) * (double)wb_hash_uniform(sb, (size_t)k * N + col, lo, hi);
        if (!bias_relu) return acc;
        acc += (double)wb_hash_uniform(sbias, col, lo, hi);
        return acc < 0 ? 0 : acc;
    }
};

extern "C" cudaError_t jd_gemm_check_f32(const float *C, int M, int N, int K, unsigned long long sa, unsigned long long sb,
                                         unsigned long long sbias, float lo, float hi, int bias_relu, double atol,
                                         double rtol, unsigned long long *bad, cudaStream_t st)
{
    size_t mn = M > 0 && N > 0 ? (size_t)M * N : 0;
    return ref_check(C, mn, gemm_ref{ sa, sb, sbias, lo, hi, N > 0 ? N : 1, K, bias_relu }, atol, rtol, bad, st);
}

// The HGEMM weeks' inputs: the half nearest wb_hash_uniform(seed, i, lo, hi)
// (__float2half_rn: to nearest even, as the tests' fill_half_uniform and
// the host's wb_f32_to_f16), stored as its bits, its float or its double.
template <class T> static __device__ T half_as(__half h);
template <> __device__ unsigned short half_as<unsigned short>(__half h) { return __half_as_ushort(h); }
template <> __device__ float half_as<float>(__half h) { return __half2float(h); }
template <> __device__ double half_as<double>(__half h) { return (double)__half2float(h); }

template <class T>
static __global__ void hash_half_k(T *d, size_t n, unsigned long long seed, float lo, float hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = half_as<T>(__float2half_rn(wb_hash_uniform(seed, i, lo, hi)));
}

extern "C" cudaError_t jd_hash_half(void *d, int as, size_t n, unsigned long long seed, float lo, float hi, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    if (as == JD_HALF_BITS) hash_half_k<<<grid_for(n), 256, 0, s>>>((unsigned short *)d, n, seed, lo, hi);
    else if (as == JD_HALF_F32) hash_half_k<<<grid_for(n), 256, 0, s>>>((float *)d, n, seed, lo, hi);
    else if (as == JD_HALF_F64) hash_half_k<<<grid_for(n), 256, 0, s>>>((double *)d, n, seed, lo, hi);
    else return cudaErrorInvalidValue;
    return cudaGetLastError();
}

// Week 13's scan: d[i] = wb_hash_bits(seed, i) >> (64 - bits), the inclusive
// prefix sums of those words modulo 2^32 (tiles of PREFIX_TILE, 16 a thread,
// as the double prefix above), and a bit-for-bit check of a scan against them.
static __device__ unsigned hash_word(unsigned long long seed, size_t i, unsigned bits)
{
    return (unsigned)(wb_hash_bits(seed, i) >> (64 - bits));
}

static __global__ void hash_u32_k(unsigned *d, size_t n, unsigned long long seed, unsigned bits)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = hash_word(seed, i, bits);
}

extern "C" cudaError_t jd_hash_u32(unsigned *d, size_t n, unsigned long long seed, unsigned bits, cudaStream_t s)
{
    if (bits < 1 || bits > 32) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    hash_u32_k<<<grid_for(n), 256, 0, s>>>(d, n, seed, bits);
    return cudaGetLastError();
}

static __global__ void prefix_u32_tile_sum_k(size_t n, unsigned long long seed, unsigned bits, unsigned *tsum)
{
    __shared__ unsigned part[256];
    size_t base = blockIdx.x * (size_t)PREFIX_TILE + threadIdx.x * 16;
    unsigned acc = 0;
    for (int k = 0; k < 16; k++)
        if (base + k < n) acc += hash_word(seed, base + k, bits);
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) tsum[blockIdx.x] = part[0];
}

static __global__ void prefix_u32_tile_scan_k(size_t n, unsigned long long seed, unsigned bits, const unsigned *toff,
                                              unsigned *ref)
{
    __shared__ unsigned part[256];
    size_t base = blockIdx.x * (size_t)PREFIX_TILE + threadIdx.x * 16;
    unsigned v[16], acc = 0;
    for (int k = 0; k < 16; k++) {
        if (base + k < n) acc += hash_word(seed, base + k, bits);
        v[k] = acc;
    }
    part[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned off = 1; off < 256; off <<= 1) { // inclusive scan of the threads' totals
        unsigned t = threadIdx.x >= off ? part[threadIdx.x - off] : 0;
        __syncthreads();
        part[threadIdx.x] += t;
        __syncthreads();
    }
    unsigned before = toff[blockIdx.x] + (threadIdx.x ? part[threadIdx.x - 1] : 0);
    for (int k = 0; k < 16; k++)
        if (base + k < n) ref[base + k] = before + v[k];
}

extern "C" cudaError_t jd_hash_prefix_u32(size_t n, unsigned long long seed, unsigned bits, unsigned *ref, cudaStream_t s)
{
    if (bits < 1 || bits > 32) return cudaErrorInvalidValue;
    return prefix_by_tiles<unsigned>(
        n, s, [=](unsigned T, unsigned *d) { prefix_u32_tile_sum_k<<<T, 256, 0, s>>>(n, seed, bits, d); },
        [=](unsigned T, unsigned *d) { prefix_u32_tile_scan_k<<<T, 256, 0, s>>>(n, seed, bits, d, ref); });
}

static __global__ void u32_check_k(const unsigned *y, const unsigned *ref, size_t n, unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        if (y[i] != ref[i]) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
}

extern "C" cudaError_t jd_u32_check(const unsigned *y, const unsigned *ref, size_t n, unsigned long long *bad,
                                    cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || n == 0) return e;
    size_t blocks = (n + 255) / 256;
    u32_check_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>(y, ref, n, bad);
    return cudaGetLastError();
}

// Week 13's row sums and GEMV: y[r] against the double sum over c < cols of
// a = wb_hash_uniform(sa, r * cols + c, lo, hi), times wb_hash_uniform(sx, c, lo,
// hi) where has_x (a GEMV), a thread a row.
static __global__ void rowdot_check_k(const float *y, size_t rows, size_t cols, unsigned long long sa,
                                      unsigned long long sx, int has_x, float lo, float hi, double atol, double rtol,
                                      unsigned long long *bad)
{
    for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)gridDim.x * blockDim.x) {
        double acc = 0;
        for (size_t c = 0; c < cols; c++) {
            double a = (double)wb_hash_uniform(sa, r * cols + c, lo, hi);
            acc += has_x ? a * (double)wb_hash_uniform(sx, c, lo, hi) : a;
        }
        float got = y[r];
        if (!(isfinite(got) && fabs((double)got - acc) <= atol + rtol * fabs(acc))) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)r);
        }
    }
}

extern "C" cudaError_t jd_rowdot_check_f32(const float *y, size_t rows, size_t cols, unsigned long long sa,
                                           unsigned long long sx, int has_x, float lo, float hi, double atol,
                                           double rtol, unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || rows == 0) return e;
    size_t blocks = (rows + 127) / 128;
    rowdot_check_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 128, 0, s>>>(y, rows, cols, sa, sx, has_x, lo, hi, atol,
                                                                              rtol, bad);
    return cudaGetLastError();
}

// Phase 5's SGEMM judges (judge_gemm.c): an input as wb_dfill_uniform_f32 fills it, widened to
// double, for the judge's own cublasDgemm reference.
static __global__ void hash_fill_f64_k(double *d, size_t n, unsigned long long seed, float lo, float hi)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = (double)wb_hash_uniform(seed, i, lo, hi);
}

extern "C" cudaError_t jd_hash_fill_f64(double *d, size_t n, unsigned long long seed, float lo, float hi, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    hash_fill_f64_k<<<(unsigned)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>(d, n, seed, lo, hi);
    return cudaGetLastError();
}

// Week 28's epilogue on a reference product, in place, in double: ref[i] =
// act(ref[i] + bias[i % N]), bias[c] = wb_hash_uniform(sbias, c, lo, hi) (what
// wb_dfill_uniform_f32 writes) when has_bias; act 0 none, 1 ReLU (v < 0 ? 0
// : v), 2 GELU in its tanh form, as gemm_epilogue.h defines them.
static __global__ void bias_act_f64_k(double *ref, size_t n, size_t N, unsigned long long sbias, int has_bias, float lo,
                                      float hi, int act)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        double v = ref[i] + (has_bias ? (double)wb_hash_uniform(sbias, i % N, lo, hi) : 0.0);
        if (act == 1) v = v < 0 ? 0 : v;
        else if (act == 2) v = 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
        ref[i] = v;
    }
}

extern "C" cudaError_t jd_bias_act_f64(double *ref, size_t n, size_t N, unsigned long long sbias, int has_bias, float lo,
                                       float hi, int act, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    if (N == 0 || act < 0 || act > 2) return cudaErrorInvalidValue;
    bias_act_f64_k<<<grid_for(n), 256, 0, s>>>(ref, n, N, sbias, has_bias, lo, hi, act);
    return cudaGetLastError();
}

// Week 19's 7-point stencil over the hashed grid (x fastest): boundary cells copied, interior cells
// c0 x + c1 (the six neighbours), in double from the float inputs (test_week19.c's st_expect).
struct stencil_ref {
    unsigned long long sx;
    float              lo, hi;
    size_t             nx, ny, nz;
    double             c0, c1;
    __device__ double  in(size_t i) const { return (double)wb_hash_uniform(sx, i, lo, hi); }
    __device__ double  operator()(size_t i) const
    {
        size_t sy = nx, sz = nx * ny, x = i % sy, y = i / sy % ny, z = i / sz;
        if (x == 0 || y == 0 || z == 0 || x + 1 == nx || y + 1 == ny || z + 1 == nz) return in(i);
        return c0 * in(i) + c1 * (in(i - 1) + in(i + 1) + in(i - sy) + in(i + sy) + in(i - sz) + in(i + sz));
    }
};

extern "C" cudaError_t jd_stencil_check_f32(const float *y, size_t nx, size_t ny, size_t nz, unsigned long long sx,
                                            float lo, float hi, double c0, double c1, double atol, double rtol,
                                            unsigned long long *bad, cudaStream_t s)
{
    return ref_check(y, nx * ny * nz, stencil_ref{ sx, lo, hi, nx, ny, nz, c0, c1 }, atol, rtol, bad, s);
}

// Week 19's accelerations: for each body i, a_i in double from the float bodies (x, y, z, m) and
// S_i = sum_j |m_j| |d| / (|d|^2 + eps2)^1.5; every component of acc within tmul S_i (test_week19.c's
// check_acc). bad[0] counts the wrong bodies, bad[1] the first.
static __global__ void nbody_check_k(const float *acc, const float4 *pos, int n, double eps2, double tmul,
                                     unsigned long long *bad)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float4 p = pos[i];
        double ax = 0, ay = 0, az = 0, S = 0;
        for (int j = 0; j < n; j++) {
            float4 q = pos[j];
            double dx = (double)q.x - p.x, dy = (double)q.y - p.y, dz = (double)q.z - p.z;
            double r2 = dx * dx + dy * dy + dz * dz, s2 = r2 + eps2, w = (double)q.w / (s2 * sqrt(s2));
            ax += dx * w, ay += dy * w, az += dz * w;
            S += fabs(w) * sqrt(r2);
        }
        double tol = tmul * S, g0 = acc[3 * (size_t)i], g1 = acc[3 * (size_t)i + 1], g2 = acc[3 * (size_t)i + 2];
        if (!(fabs(g0 - ax) <= tol) || !(fabs(g1 - ay) <= tol) || !(fabs(g2 - az) <= tol)) {
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)i);
        }
    }
}

extern "C" cudaError_t jd_nbody_check_f32(const float *acc, const float *pos, int n, double eps2, double tmul,
                                          unsigned long long *bad, cudaStream_t s)
{
    unsigned long long init[2] = { 0, ~0ull };
    cudaError_t e = cudaMemcpyAsync(bad, init, sizeof init, cudaMemcpyHostToDevice, s);
    if (e != cudaSuccess || n <= 0) return e;
    nbody_check_k<<<(unsigned)((n + 127) / 128), 128, 0, s>>>(acc, (const float4 *)pos, n, eps2, tmul, bad);
    return cudaGetLastError();
}
