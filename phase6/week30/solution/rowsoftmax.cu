/* rowsoftmax.cu — week 30, exercise 2: the online softmax, a warp a row and a
 * block a row, and the dispatcher.
 *
 * Every version makes the row's (m, s) with the online rule of online.cu:
 * each thread makes its own pair over the elements it holds, then pairs merge,
 *     M = max(m1, m2),  S = s1 exp(m1 - M) + s2 exp(m2 - M),
 * first across a warp with __shfl_xor_sync, then (a block a row) across the
 * warps through shared memory. Then y = exp(x - M) / S.
 *
 * Where x lives between the statistics and the output decides the traffic:
 *   - in registers (cols % 4 == 0, x and y 16-byte aligned, the row no longer
 *     than the threads can hold: 1024 floats a warp, 32768 a block): each
 *     thread loads its float4s once, makes its pair from its registers, and
 *     after the merge writes y from the same registers. DRAM sees x once and
 *     y once, 8 bytes an element: the copy's traffic.
 *   - streamed (longer rows, or unaligned ones): one online pass over the row
 *     makes the pair (a chunk of loads at a time, the sum rescaled when the
 *     chunk raises the max), and a second pass reads x again to write y.
 *     That re-read comes from L2 when little else has passed through it in
 *     between (a block a row, few rows in flight), from DRAM otherwise.
 *
 * One subtlety: a thread whose elements are all -Inf (a masked stretch, or
 * the padding past the row's end) has m = -Inf, and exp(x - m) would be
 * exp(-Inf + Inf) = NaN. Its exponentials are taken against 0 instead
 * (exp(-Inf - 0) = 0; a NaN element still gives NaN), and merges never
 * evaluate exp(m - M) for the term whose m is M. */
#include <math.h>
#include <stdint.h>
#include "rowsoftmax.h"

#define WARP_THREADS 256 /* the warp versions: 8 warps a block */

//@solution
#define NEG_INF4 make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY)

static __device__ __forceinline__ float max4(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }
/* exp(v - b) summed over a float4 */
static __device__ __forceinline__ float sumexp4(float4 v, float b)
{
    return (__expf(v.x - b) + __expf(v.y - b)) + (__expf(v.z - b) + __expf(v.w - b));
}
static __device__ __forceinline__ float4 softmax4(float4 v, float m, float inv)
{
    return make_float4(__expf(v.x - m) * inv, __expf(v.y - m) * inv, __expf(v.z - m) * inv, __expf(v.w - m) * inv);
}
/* The base the exponentials of a thread's own elements are taken against. */
static __device__ __forceinline__ float safe_base(float m) { return m == -INFINITY ? 0.f : m; }

/* (m, s) <- (m, s) merged with (om, os). */
static __device__ __forceinline__ void ms_merge(float &m, float &s, float om, float os)
{
    const float M = fmaxf(m, om);
    s = (m == M ? s : s * __expf(m - M)) + (om == M ? os : os * __expf(om - M));
    m = M;
}
/* Butterfly over groups of GROUP lanes (a power of two, at most 32): every
 * lane of a group ends with the group's pair. All 32 lanes must call it. */
template <int GROUP>
static __device__ __forceinline__ void group_merge(float &m, float &s)
{
#pragma unroll
    for (int off = GROUP / 2; off > 0; off >>= 1) {
        const float om = __shfl_xor_sync(0xffffffffu, m, off), os = __shfl_xor_sync(0xffffffffu, s, off);
        ms_merge(m, s, om, os);
    }
}
/* The whole block's pair in every thread. red_m/red_s hold a pair per warp;
 * the first barrier keeps the previous row's readers ahead of this row's
 * writers. Every thread of the block must call it. */
template <int THREADS>
static __device__ __forceinline__ void block_merge(float &m, float &s, float *red_m, float *red_s)
{
    group_merge<32>(m, s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) red_m[warp] = m, red_s[warp] = s;
    __syncthreads();
    m = lane < THREADS / 32 ? red_m[lane] : -INFINITY;
    s = lane < THREADS / 32 ? red_s[lane] : 0.f;
    group_merge<32>(m, s);
}

/* ---- a warp (or a group of GROUP lanes) a row, the row in registers ----
 * Lane g of a group holds float4s g, g + GROUP, ..., g + GROUP (V-1) of its
 * row; past the row they are -Inf and never stored. The loop runs over bases
 * of 32 / GROUP rows, the same in the whole warp, so every lane takes every
 * shuffle; a group past the last row loads and stores nothing. */
template <int GROUP, int V>
static __global__ void __launch_bounds__(WARP_THREADS) warp_regs(const float *__restrict__ x, float *__restrict__ y,
                                                                 int rows, int cols)
{
    constexpr int RPW = 32 / GROUP, WARPS = WARP_THREADS / 32;
    const int lane = threadIdx.x & 31, g = lane % GROUP, cols4 = cols >> 2;
    const long long step = (long long)gridDim.x * WARPS * RPW;
    for (long long base = ((long long)blockIdx.x * WARPS + (threadIdx.x >> 5)) * RPW; base < rows; base += step) {
        const long long row = base + lane / GROUP;
        const bool ok = row < rows;
        const size_t off = ok ? (size_t)row * (size_t)cols : 0;
        const float4 *xr = reinterpret_cast<const float4 *>(x + off);
        float4 v[V];
        float m = -INFINITY;
#pragma unroll
        for (int k = 0; k < V; k++) {
            const int c = g + GROUP * k;
            v[k] = ok && c < cols4 ? xr[c] : NEG_INF4;
            m = fmaxf(m, max4(v[k]));
        }
        const float b = safe_base(m);
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < V; k++) s += sumexp4(v[k], b);
        group_merge<GROUP>(m, s);
        const float inv = 1.0f / s;
        float4 *yr = reinterpret_cast<float4 *>(y + off);
#pragma unroll
        for (int k = 0; k < V; k++) {
            const int c = g + GROUP * k;
            if (ok && c < cols4) yr[c] = softmax4(v[k], m, inv);
        }
    }
}

/* ---- a block a row, the row in registers: thread t holds float4s t,
 * t + THREADS, ..., t + THREADS (V-1). ---- */
template <int THREADS, int V>
static __global__ void __launch_bounds__(THREADS) block_regs(const float *__restrict__ x, float *__restrict__ y,
                                                             int rows, int cols)
{
    __shared__ float red_m[32], red_s[32];
    const int cols4 = cols >> 2;
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float4 *xr = reinterpret_cast<const float4 *>(x + (size_t)row * (size_t)cols);
        float4 v[V];
        float m = -INFINITY;
#pragma unroll
        for (int k = 0; k < V; k++) {
            const int c = threadIdx.x + THREADS * k;
            v[k] = c < cols4 ? xr[c] : NEG_INF4;
            m = fmaxf(m, max4(v[k]));
        }
        const float b = safe_base(m);
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < V; k++) s += sumexp4(v[k], b);
        block_merge<THREADS>(m, s, red_m, red_s);
        const float inv = 1.0f / s;
        float4 *yr = reinterpret_cast<float4 *>(y + (size_t)row * (size_t)cols);
#pragma unroll
        for (int k = 0; k < V; k++) {
            const int c = threadIdx.x + THREADS * k;
            if (c < cols4) yr[c] = softmax4(v[k], m, inv);
        }
    }
}

/* ---- streamed: any length, any alignment ----
 * One thread's online pass over elements t, t + stride, ... of a row of n
 * (floats, or float4s when VEC): U loads at a time, the chunk's max first,
 * the running sum rescaled once a chunk when the max rose. */
template <bool VEC>
static __device__ __forceinline__ void stream_stats(const float *xr, long long n, int t, int stride, float &m,
                                                    float &s)
{
    constexpr int U = 4;
    m = -INFINITY, s = 0.f;
    for (long long c0 = 0; c0 < n; c0 += (long long)stride * U) {
        float mc = m;
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const long long c = c0 + t + (long long)stride * u;
            if (VEC) v[u] = c < n ? reinterpret_cast<const float4 *>(xr)[c] : NEG_INF4;
            else v[u] = make_float4(c < n ? xr[c] : -INFINITY, -INFINITY, -INFINITY, -INFINITY);
            mc = fmaxf(mc, max4(v[u]));
        }
        if (mc != m) s *= __expf(m - mc); /* the max rose: rescale (m = -Inf: s was 0) */
        m = mc;
        const float b = safe_base(m);
#pragma unroll
        for (int u = 0; u < U; u++) s += sumexp4(v[u], b);
    }
}
template <bool VEC>
static __device__ __forceinline__ void stream_write(const float *xr, float *yr, long long n, int t, int stride,
                                                    float m, float inv)
{
    for (long long c = t; c < n; c += stride) {
        if (VEC) reinterpret_cast<float4 *>(yr)[c] = softmax4(reinterpret_cast<const float4 *>(xr)[c], m, inv);
        else yr[c] = __expf(xr[c] - m) * inv;
    }
}

/* A warp a row, streamed (scalar: any alignment). */
static __global__ void __launch_bounds__(WARP_THREADS) warp_stream(const float *__restrict__ x, float *__restrict__ y,
                                                                   int rows, int cols)
{
    constexpr int WARPS = WARP_THREADS / 32;
    const int lane = threadIdx.x & 31;
    for (long long row = (long long)blockIdx.x * WARPS + (threadIdx.x >> 5); row < rows;
         row += (long long)gridDim.x * WARPS) {
        const float *xr = x + (size_t)row * (size_t)cols;
        float m, s;
        stream_stats<false>(xr, cols, lane, 32, m, s);
        group_merge<32>(m, s);
        stream_write<false>(xr, y + (size_t)row * (size_t)cols, cols, lane, 32, m, 1.0f / s);
    }
}

/* A block a row, streamed: float4 when VEC (cols % 4 == 0, aligned). */
template <int THREADS, bool VEC>
static __global__ void __launch_bounds__(THREADS) block_stream(const float *__restrict__ x, float *__restrict__ y,
                                                               int rows, int cols)
{
    __shared__ float red_m[32], red_s[32];
    const long long n = VEC ? cols / 4 : cols;
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float *xr = x + (size_t)row * (size_t)cols;
        float m, s;
        stream_stats<VEC>(xr, n, threadIdx.x, THREADS, m, s);
        block_merge<THREADS>(m, s, red_m, red_s);
        stream_write<VEC>(xr, y + (size_t)row * (size_t)cols, n, threadIdx.x, THREADS, m, 1.0f / s);
    }
}

static unsigned grid_for(long long units)
{
    const long long cap = 1 << 20;
    return (unsigned)(units < cap ? units : cap);
}
static bool vec_ok(const float *x, const float *y, int cols)
{
    return cols % 4 == 0 && ((((uintptr_t)x) | ((uintptr_t)y)) & 15) == 0;
}
template <int GROUP, int V>
static void launch_warp_regs(const float *x, float *y, int rows, int cols)
{
    const long long rows_per_block = (WARP_THREADS / 32) * (32 / GROUP);
    warp_regs<GROUP, V><<<grid_for((rows + rows_per_block - 1) / rows_per_block), WARP_THREADS>>>(x, y, rows, cols);
}
//@starter
//| /* TODO: the kernels. rowsoftmax.h says what they compute and how the
//|  * (m, s) pairs merge; online.cu is the same rule on the CPU.
//|  *  - a warp a row: lane l loads float4s l, l + 32, ... of its row into
//|  *    registers (V of them, a template parameter, -Inf past the row), makes
//|  *    its pair (max, then the sum of __expf(v - max)), merges pairs with a
//|  *    __shfl_xor_sync butterfly (offsets 16 ... 1), then writes y from the
//|  *    registers. Rows of 32 or 64 floats: 8 or 16 lanes a row, 4 or 2 rows
//|  *    a warp (butterfly offsets below the group size), loop over rows the
//|  *    same in the whole warp.
//|  *  - a block a row: the same with thread t holding float4s t, t + THREADS,
//|  *    ...; after the warp butterfly, one pair per warp through __shared__
//|  *    arrays, __syncthreads(), and a butterfly over those.
//|  *  - streamed, for rows too long for registers or not float4-aligned: an
//|  *    online pass (a chunk of loads, the chunk's max, rescale s when it
//|  *    rose), the merge, then a second pass that reads x again and writes y.
//|  * A thread whose elements are all -Inf must take its exponentials against
//|  * 0, not against its own -Inf max. */
//@end

cudaError_t rowsoftmax_warp(const float *x, float *y, int rows, int cols)
{
    //@solution
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const int cols4 = cols / 4;
    if (vec_ok(x, y, cols) && cols4 <= 256) {
        if (cols4 <= 8) launch_warp_regs<8, 1>(x, y, rows, cols);
        else if (cols4 <= 16) launch_warp_regs<16, 1>(x, y, rows, cols);
        else if (cols4 <= 32) launch_warp_regs<32, 1>(x, y, rows, cols);
        else if (cols4 <= 64) launch_warp_regs<32, 2>(x, y, rows, cols);
        else if (cols4 <= 128) launch_warp_regs<32, 4>(x, y, rows, cols);
        else launch_warp_regs<32, 8>(x, y, rows, cols);
    } else {
        const long long rows_per_block = WARP_THREADS / 32;
        warp_stream<<<grid_for((rows + rows_per_block - 1) / rows_per_block), WARP_THREADS>>>(x, y, rows, cols);
    }
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing for rows or cols <= 0. float4 registers when cols % 4
    //|  * == 0 and x, y are 16-byte aligned and the row fits (pick GROUP and V
    //|  * from cols / 4); the streamed kernel otherwise. Blocks of WARP_THREADS,
    //|  * rows / rows-per-block of them (at most 2^20: loop past). */
    //| (void)x, (void)y, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}

cudaError_t rowsoftmax_block(const float *x, float *y, int rows, int cols)
{
    //@solution
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const unsigned g = grid_for(rows);
    const int cols4 = cols / 4;
    if (vec_ok(x, y, cols) && cols4 <= 8192) {
        if (cols4 <= 256) block_regs<256, 1><<<g, 256>>>(x, y, rows, cols);
        else if (cols4 <= 512) block_regs<256, 2><<<g, 256>>>(x, y, rows, cols);
        else if (cols4 <= 1024) block_regs<256, 4><<<g, 256>>>(x, y, rows, cols);
        else if (cols4 <= 2048) block_regs<512, 4><<<g, 512>>>(x, y, rows, cols);
        else if (cols4 <= 4096) block_regs<1024, 4><<<g, 1024>>>(x, y, rows, cols);
        else block_regs<1024, 8><<<g, 1024>>>(x, y, rows, cols);
    } else if (vec_ok(x, y, cols)) {
        block_stream<1024, true><<<g, 1024>>>(x, y, rows, cols);
    } else {
        block_stream<1024, false><<<g, 1024>>>(x, y, rows, cols);
    }
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing for rows or cols <= 0. float4 registers when cols % 4
    //|  * == 0, x and y are 16-byte aligned and cols <= 32768 (pick THREADS and
    //|  * V so that 4 * THREADS * V >= cols); the streamed kernel otherwise. A
    //|  * block a row, at most 2^20 blocks (loop past). */
    //| (void)x, (void)y, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}

cudaError_t rowsoftmax_online(const float *x, float *y, int rows, int cols)
{
    //@solution
    return cols <= SOFTMAX_WARP_MAX ? rowsoftmax_warp(x, y, rows, cols) : rowsoftmax_block(x, y, rows, cols);
    //@starter
    //| /* TODO: pick rowsoftmax_warp or rowsoftmax_block by the row's length
    //|  * (SOFTMAX_WARP_MAX). Why there? Look at what fits in a warp's
    //|  * registers, and at the ladder's plot. */
    //| (void)x, (void)y, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}
