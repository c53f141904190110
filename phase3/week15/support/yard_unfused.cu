/* yard_unfused.cu — week 15, given: every chain of the week as separate kernels,
 * the way a framework runs it one operation at a time. Each kernel is itself
 * reasonably fast (float4 where the data allow, grid-stride loops): the
 * benchmarks compare fused and unfused on traffic, not on sloppy code.
 * These are the yardsticks (UNFUSED) of the week's speed checkpoints. */
#include <math.h>
#include <stdint.h>
#include <cuda_runtime.h>
#include "gelu_chain.h"
#include "linear.h"
#include "norm.h"
#include "smooth.h"
#include "softmax.h"

#define U_THREADS 256

static unsigned u_blocks(size_t work)
{
    const size_t cap = (size_t)1 << 20;
    size_t g = (work + U_THREADS - 1) / U_THREADS;
    return (unsigned)(g == 0 ? 1 : g < cap ? g : cap);
}
static int u_aligned(const void *a, const void *b, const void *c)
{
    return ((((uintptr_t)a | (uintptr_t)b | (uintptr_t)c)) % 16) == 0;
}

/* ---- one element-wise operation over n floats: out = op(a, b) ---- */
template <class Op>
static __global__ void u_map4(const float4 *a, const float4 *b, float4 *out, size_t count, Op op)
{
    for (size_t k = blockIdx.x * (size_t)U_THREADS + threadIdx.x; k < count; k += (size_t)gridDim.x * U_THREADS) {
        const float4 p = a[k], q = b ? b[k] : p;
        out[k] = make_float4(op(p.x, q.x), op(p.y, q.y), op(p.z, q.z), op(p.w, q.w));
    }
}
template <class Op>
static __global__ void u_map1(const float *a, const float *b, float *out, size_t from, size_t n, Op op)
{
    for (size_t k = from + blockIdx.x * (size_t)U_THREADS + threadIdx.x; k < n; k += (size_t)gridDim.x * U_THREADS)
        out[k] = op(a[k], b ? b[k] : a[k]);
}
template <class Op>
static cudaError_t u_map(const float *a, const float *b, float *out, size_t n, Op op)
{
    if (n == 0) return cudaSuccess;
    size_t head = 0;
    if (u_aligned(a, b, out)) {
        head = n / 4 * 4;
        if (head) u_map4<<<u_blocks(n / 4), U_THREADS>>>((const float4 *)a, (const float4 *)b, (float4 *)out, n / 4, op);
    }
    if (head < n) u_map1<<<u_blocks(n - head), U_THREADS>>>(a, b, out, head, n, op);
    return cudaGetLastError();
}

struct OpGeluTanh {
    __device__ float operator()(float v, float) const
    {
        return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
};
struct OpScale {
    float s;
    __device__ float operator()(float v, float) const { return s * v; }
};
struct OpAdd {
    __device__ float operator()(float u, float w) const { return u + w; }
};
struct OpSquare {
    __device__ float operator()(float v, float) const { return v * v; }
};
struct OpBell {
    __device__ float operator()(float v, float) const { return expf(-(v * v)); }
};

/* ---- one operation with a per-column vector over rows x cols ---- */
template <bool RELU, bool V4>
static __global__ void u_colwise(const float *in, const float *vec, float *out, int rows, int cols)
{
    const int per_row = V4 ? cols / 4 : cols;
    for (int i = blockIdx.y; i < rows; i += gridDim.y)
        for (int j = blockIdx.x * U_THREADS + threadIdx.x; j < per_row; j += gridDim.x * U_THREADS) {
            const size_t at = (size_t)i * (size_t)per_row + j;
            if (V4) {
                float4 p = ((const float4 *)in)[at];
                const float4 q = ((const float4 *)vec)[j];
                p.x += q.x, p.y += q.y, p.z += q.z, p.w += q.w;
                if (RELU) {
                    p.x = p.x < 0.f ? 0.f : p.x, p.y = p.y < 0.f ? 0.f : p.y;
                    p.z = p.z < 0.f ? 0.f : p.z, p.w = p.w < 0.f ? 0.f : p.w;
                }
                ((float4 *)out)[at] = p;
            } else {
                float p = in[at] + vec[j];
                out[at] = RELU && p < 0.f ? 0.f : p;
            }
        }
}
template <bool RELU>
static cudaError_t u_cols(const float *in, const float *vec, float *out, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const bool v4 = cols % 4 == 0 && u_aligned(in, vec, out);
    const size_t per_row = v4 ? (size_t)cols / 4 : (size_t)cols;
    size_t gx = (per_row + U_THREADS - 1) / U_THREADS;
    const dim3 grid((unsigned)(gx > 1024 ? 1024 : gx), (unsigned)(rows > 65535 ? 65535 : rows));
    if (v4) u_colwise<RELU, true><<<grid, U_THREADS>>>(in, vec, out, rows, cols);
    else u_colwise<RELU, false><<<grid, U_THREADS>>>(in, vec, out, rows, cols);
    return cudaGetLastError();
}

#define U_TRY(call) do { cudaError_t u_e = (call); if (u_e != cudaSuccess) return u_e; } while (0)

extern "C" cudaError_t yard_gelu_chain_unfused(const float *x, const float *bias, const float *r, float *t, float *y,
                                               int rows, int cols, float s)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const size_t n = (size_t)rows * (size_t)cols;
    U_TRY(u_cols<false>(x, bias, t, rows, cols));   /* t = x + bias */
    U_TRY(u_map(t, NULL, t, n, OpGeluTanh()));      /* t = gelu(t) */
    U_TRY(u_map(t, NULL, t, n, OpScale{ s }));      /* t = s t */
    return u_map(t, r, y, n, OpAdd());              /* y = t + r */
}

extern "C" cudaError_t yard_bias_relu_inplace(float *C, const float *bias, int M, int N)
{
    return u_cols<true>(C, bias, C, M, N);
}

/* ---- sums: a shared-memory tree per block, then one block for the partials ---- */
static __device__ float u_block_tree(float v)
{
    __shared__ float tree[U_THREADS];
    tree[threadIdx.x] = v;
    __syncthreads();
    for (int half = U_THREADS / 2; half > 0; half /= 2) {
        if ((int)threadIdx.x < half) tree[threadIdx.x] += tree[threadIdx.x + half];
        __syncthreads();
    }
    return tree[0];
}
static __global__ void u_sum_parts(const float *t, size_t n, float *parts)
{
    const size_t all = (size_t)gridDim.x * U_THREADS, first = blockIdx.x * (size_t)U_THREADS + threadIdx.x;
    float mine = 0.f;
    const size_t n4 = ((uintptr_t)t % 16 == 0) ? n / 4 : 0;
    for (size_t k = first; k < n4; k += all) {
        const float4 p = ((const float4 *)t)[k];
        mine += (p.x + p.y) + (p.z + p.w);
    }
    for (size_t k = n4 * 4 + first; k < n; k += all) mine += t[k];
    const float total = u_block_tree(mine);
    if (threadIdx.x == 0) parts[blockIdx.x] = total;
}
static __global__ void u_sum_root(const float *parts, unsigned count, float *out)
{
    float mine = 0.f;
    for (unsigned k = threadIdx.x; k < count; k += U_THREADS) mine += parts[k];
    const float total = u_block_tree(mine);
    if (threadIdx.x == 0) out[0] = sqrtf(total);
}

extern "C" cudaError_t yard_l2norm_unfused(const float *x, float *t, size_t n, float *out, void *tmp)
{
    float *parts = (float *)tmp;
    unsigned count = 0;
    if (n > 0) {
        int dev = 0, sms = 0;
        U_TRY(cudaGetDevice(&dev));
        U_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        size_t want = (n + 4 * U_THREADS - 1) / (4 * U_THREADS), cap = (size_t)sms * 8;
        if (cap > NORM_MAX_BLOCKS) cap = NORM_MAX_BLOCKS;
        count = (unsigned)(want < cap ? want : cap);
        U_TRY(u_map(x, NULL, t, n, OpSquare()));    /* t = x^2 */
        u_sum_parts<<<count, U_THREADS>>>(t, n, parts);
        U_TRY(cudaGetLastError());
    }
    u_sum_root<<<1, U_THREADS>>>(parts, count, out); /* sqrt(sum t) */
    return cudaGetLastError();
}

static __global__ void u_divide(const float *x, const float *norm, float *y, size_t n)
{
    const float d = *norm;
    const size_t all = (size_t)gridDim.x * U_THREADS, first = blockIdx.x * (size_t)U_THREADS + threadIdx.x;
    const size_t n4 = ((((uintptr_t)x | (uintptr_t)y)) % 16 == 0) ? n / 4 : 0;
    for (size_t k = first; k < n4; k += all) {
        const float4 p = ((const float4 *)x)[k];
        ((float4 *)y)[k] = make_float4(p.x / d, p.y / d, p.z / d, p.w / d);
    }
    for (size_t k = n4 * 4 + first; k < n; k += all) y[k] = x[k] / d;
}

extern "C" cudaError_t yard_normalize_unfused(const float *x, float *y, size_t n, float *norm, void *tmp)
{
    if (n == 0) return cudaSuccess;
    U_TRY(norm_l2(x, n, norm, tmp)); /* yours */
    int dev = 0, sms = 0;
    U_TRY(cudaGetDevice(&dev));
    U_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    size_t want = (n + 4 * U_THREADS - 1) / (4 * U_THREADS), cap = (size_t)sms * 8;
    u_divide<<<(unsigned)(want < cap ? want : cap), U_THREADS>>>(x, norm, y, n);
    return cudaGetLastError();
}

/* ---- softmax, three kernels: a warp a row in each ---- */
static __device__ float u_warp_fold(float v, bool take_max)
{
    for (int d = 1; d < 32; d *= 2) {
        const float o = __shfl_xor_sync(0xffffffffu, v, d);
        v = take_max ? fmaxf(v, o) : v + o;
    }
    return v;
}
static __global__ void u_row_max(const float *x, float *rowmax, int rows, int cols)
{
    const int w = (blockIdx.x * U_THREADS + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (w >= rows) return; /* the whole warp leaves together */
    const float *p = x + (size_t)w * cols;
    float m = -INFINITY;
#pragma unroll 4
    for (int j = lane; j < cols; j += 32) m = fmaxf(m, p[j]);
    m = u_warp_fold(m, true);
    if (lane == 0) rowmax[w] = m;
}
static __global__ void u_row_sumexp(const float *x, const float *rowmax, float *rowsum, int rows, int cols)
{
    const int w = (blockIdx.x * U_THREADS + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (w >= rows) return;
    const float *p = x + (size_t)w * cols;
    const float m = rowmax[w];
    float s = 0.f;
#pragma unroll 4
    for (int j = lane; j < cols; j += 32) s += expf(p[j] - m);
    s = u_warp_fold(s, false);
    if (lane == 0) rowsum[w] = s;
}
static __global__ void u_row_divide(const float *x, const float *rowmax, const float *rowsum, float *y, int rows, int cols)
{
    const int w = (blockIdx.x * U_THREADS + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (w >= rows) return;
    const size_t at = (size_t)w * cols;
    const float m = rowmax[w], s = rowsum[w];
#pragma unroll 4
    for (int j = lane; j < cols; j += 32) y[at + j] = expf(x[at + j] - m) / s;
}

extern "C" cudaError_t yard_softmax_unfused(const float *x, float *rowmax, float *rowsum, float *y, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const unsigned g = (unsigned)(((size_t)rows * 32 + U_THREADS - 1) / U_THREADS);
    u_row_max<<<g, U_THREADS>>>(x, rowmax, rows, cols);
    U_TRY(cudaGetLastError());
    u_row_sumexp<<<g, U_THREADS>>>(x, rowmax, rowsum, rows, cols);
    U_TRY(cudaGetLastError());
    u_row_divide<<<g, U_THREADS>>>(x, rowmax, rowsum, y, rows, cols);
    return cudaGetLastError();
}

/* ---- smoothing: produce t, then consume it ---- */
static __global__ void u_consume(const float *t, float *y, size_t n)
{
    for (size_t k = blockIdx.x * (size_t)U_THREADS + threadIdx.x; k < n; k += (size_t)gridDim.x * U_THREADS) {
        const float before = k > 0 ? t[k - 1] : 0.f, after = k + 1 < n ? t[k + 1] : 0.f;
        y[k] = 0.25f * (before + after) + 0.5f * t[k];
    }
}

extern "C" cudaError_t yard_smooth_unfused(const float *x, float *t, float *y, size_t n)
{
    if (n == 0) return cudaSuccess;
    U_TRY(u_map(x, NULL, t, n, OpBell())); /* t = exp(-x^2) */
    u_consume<<<u_blocks(n), U_THREADS>>>(t, y, n);
    return cudaGetLastError();
}
