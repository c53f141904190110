/* scan.cu — week 07, exercise 2: inclusive scan, three ways.
 *
 * scan_hs and scan_blelloch scan tiles inside one block each, write each
 * tile's total, scan the totals (the same function, recursively), then add
 * each tile's offset back (the driver, given): y is written twice.
 *   Hillis-Steele: log2(T) steps, each adding v[i - off]: O(T log T) adds,
 *   double-buffered in shared memory.
 *   Blelloch: an up-sweep (reduce tree) then a down-sweep: O(T) adds, an
 *   exclusive scan of 2 elements per thread; x is added back for inclusive.
 * scan_fast is reduce-then-scan: a first pass only sums each 4096-element
 *   tile (reads x), the tile sums are scanned, and a second pass scans every
 *   tile again from its offset (reads x, writes y): 3n of traffic instead of
 *   4n, with float4 loads and warp shuffles instead of shared-memory trees.
 * CUB's single-pass scan (decoupled look-back) moves only 2n. */
#include <stdint.h>
#include "scan.h"

#define HS_T 512   /* Hillis-Steele: one element per thread */
#define BL_T 1024  /* Blelloch: 512 threads, two elements each */
#define FAST_THREADS 256
#define FAST_T 4096 /* fast: 8 warps x 4 steps x 128 elements */

//@solution
static __global__ void tile_scan_hs(const float *x, float *y, float *sums, size_t n) /* x may equal y */
{
    __shared__ float buf[2][HS_T];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * HS_T + t;
    int cur = 0;
    buf[0][t] = i < n ? x[i] : 0.f;
    __syncthreads();
    for (unsigned off = 1; off < HS_T; off *= 2) {
        float v = buf[cur][t];
        if (t >= off) v += buf[cur][t - off];
        buf[cur ^ 1][t] = v;
        cur ^= 1;
        __syncthreads();
    }
    if (i < n) y[i] = buf[cur][t];
    if (sums && t == HS_T - 1) sums[blockIdx.x] = buf[cur][t];
}

static __global__ void tile_scan_blelloch(const float *x, float *y, float *sums, size_t n)
{
    __shared__ float s[BL_T];
    unsigned t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * BL_T;
    float in0 = base + t < n ? x[base + t] : 0.f, in1 = base + t + BL_T / 2 < n ? x[base + t + BL_T / 2] : 0.f;
    s[t] = in0, s[t + BL_T / 2] = in1;
    /* up-sweep: s[k*2d + 2d - 1] += s[k*2d + d - 1] */
    unsigned d = 1;
    for (unsigned active = BL_T / 2; active > 0; active >>= 1, d <<= 1) {
        __syncthreads();
        if (t < active) {
            unsigned a = d * (2 * t + 1) - 1, b = d * (2 * t + 2) - 1;
            s[b] += s[a];
        }
    }
    __syncthreads();
    float total = s[BL_T - 1];
    __syncthreads();
    if (t == 0) s[BL_T - 1] = 0.f;
    /* down-sweep */
    for (unsigned active = 1; active < BL_T; active <<= 1) {
        d >>= 1;
        __syncthreads();
        if (t < active) {
            unsigned a = d * (2 * t + 1) - 1, b = d * (2 * t + 2) - 1;
            float l = s[a];
            s[a] = s[b];
            s[b] += l;
        }
    }
    __syncthreads();
    if (base + t < n) y[base + t] = s[t] + in0;
    if (base + t + BL_T / 2 < n) y[base + t + BL_T / 2] = s[t + BL_T / 2] + in1;
    if (sums && t == 0) sums[blockIdx.x] = total;
}

static __device__ __forceinline__ float warp_incl(float v, unsigned lane)
{
#pragma unroll
    for (int off = 1; off < 32; off *= 2) {
        float u = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= (unsigned)off) v += u;
    }
    return v;
}

/* Pass 1 of scan_fast: sums[b] = sum of tile b. */
static __global__ void tile_reduce_fast(const float *__restrict__ x, float *__restrict__ sums, size_t n)
{
    __shared__ float warps[FAST_THREADS / 32];
    size_t base = (size_t)blockIdx.x * FAST_T;
    float acc = 0.f;
    if (base + FAST_T <= n && (((uintptr_t)x) & 15) == 0) {
        const float4 *x4 = (const float4 *)(x + base);
#pragma unroll
        for (int k = 0; k < FAST_T / 4 / FAST_THREADS; k++) {
            float4 p = x4[k * FAST_THREADS + threadIdx.x];
            acc += (p.x + p.y) + (p.z + p.w);
        }
    } else {
        for (size_t i = base + threadIdx.x; i < base + FAST_T && i < n; i += FAST_THREADS) acc += x[i];
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if ((threadIdx.x & 31) == 0) warps[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        for (int w = 0; w < FAST_THREADS / 32; w++) s += warps[w];
        sums[blockIdx.x] = s;
    }
}

/* Pass 2 of scan_fast: warp w owns elements [w*512, w*512 + 512) of the tile,
 * in 4 steps of 128; lane l holds 4 consecutive elements of each step. The
 * tile starts from offs[b-1] (scanned tile sums; 0 for the first tile). */
static __global__ void tile_scan_fast(const float *x, float *y, const float *offs, size_t n)
{
    __shared__ float warps[FAST_THREADS / 32];
    unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    size_t base = (size_t)blockIdx.x * FAST_T + (size_t)w * (FAST_T / (FAST_THREADS / 32));
    bool vec = base + FAST_T / (FAST_THREADS / 32) <= n && ((((uintptr_t)x) | ((uintptr_t)y)) & 15) == 0;
    float4 v[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        size_t e = base + k * 128 + lane * 4;
        if (vec) v[k] = *(const float4 *)(x + e);
        else {
            v[k].x = e < n ? x[e] : 0.f;
            v[k].y = e + 1 < n ? x[e + 1] : 0.f;
            v[k].z = e + 2 < n ? x[e + 2] : 0.f;
            v[k].w = e + 3 < n ? x[e + 3] : 0.f;
        }
    }
    float carry = 0.f;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        v[k].y += v[k].x;
        v[k].z += v[k].y;
        v[k].w += v[k].z;
        float incl = warp_incl(v[k].w, lane), prev = __shfl_up_sync(0xffffffffu, incl, 1);
        float excl = carry + (lane ? prev : 0.f); /* not incl - own: Inf - Inf would be NaN */
        carry += __shfl_sync(0xffffffffu, incl, 31);
        v[k].x += excl, v[k].y += excl, v[k].z += excl, v[k].w += excl;
    }
    if (lane == 0) warps[w] = carry;
    __syncthreads();
    float off = blockIdx.x > 0 ? offs[blockIdx.x - 1] : 0.f;
    for (unsigned j = 0; j < w; j++) off += warps[j];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        size_t e = base + k * 128 + lane * 4;
        float4 o = make_float4(v[k].x + off, v[k].y + off, v[k].z + off, v[k].w + off);
        if (vec) *(float4 *)(y + e) = o;
        else {
            if (e < n) y[e] = o.x;
            if (e + 1 < n) y[e + 1] = o.y;
            if (e + 2 < n) y[e + 2] = o.z;
            if (e + 3 < n) y[e + 3] = o.w;
        }
    }
}
//@starter
//| /* TODO: four kernels (see the comment at the top and the hints).
//|  * tile_scan_hs: HS_T threads scan HS_T elements; tile_scan_blelloch: BL_T/2
//|  * threads scan BL_T elements. Both write y for their tile and, when sums is
//|  * not NULL, the tile's total to sums[blockIdx.x].
//|  * tile_reduce_fast: FAST_THREADS threads write the sum of their FAST_T
//|  * elements to sums[blockIdx.x]; tile_scan_fast: scan the tile starting
//|  * from offs[blockIdx.x - 1] (0 for block 0). */
//| static __global__ void tile_scan_hs(const float *x, float *y, float *sums, size_t n)
//| {
//|     (void)x, (void)y, (void)sums, (void)n;
//| }
//| static __global__ void tile_scan_blelloch(const float *x, float *y, float *sums, size_t n)
//| {
//|     (void)x, (void)y, (void)sums, (void)n;
//| }
//| static __global__ void tile_reduce_fast(const float *x, float *sums, size_t n) { (void)x, (void)sums, (void)n; }
//| static __global__ void tile_scan_fast(const float *x, float *y, const float *offs, size_t n)
//| {
//|     (void)x, (void)y, (void)offs, (void)n;
//| }
//@end

/* ---- given: the drivers ---- */

/* y[tile b] += sums[b - 1] for b >= 1 (sums already scanned). */
static __global__ void add_offsets(float *__restrict__ y, const float *__restrict__ sums, size_t n, unsigned T)
{
    size_t b = blockIdx.x + 1;
    float off = sums[b - 1];
    for (size_t i = b * T + threadIdx.x; i < (b + 1) * T && i < n; i += blockDim.x) y[i] += off;
}

static size_t round64(size_t m) { return (m + 63) & ~(size_t)63; }

size_t scan_tmp_bytes(size_t n)
{
    size_t total = 0;
    for (size_t m = n; m > 1;) { /* the smallest tile (HS_T) needs the most levels */
        m = (m + HS_T - 1) / HS_T;
        total += round64(m);
    }
    return (total + 64) * sizeof(float);
}

/* method 0: Hillis-Steele, 1: Blelloch, 2: fast */
static cudaError_t scan_rec(int method, const float *x, float *y, size_t n, float *tmp)
{
    if (n == 0) return cudaSuccess;
    size_t T = method == 0 ? HS_T : method == 1 ? BL_T : FAST_T, tiles = (n + T - 1) / T;
    float *sums = tiles > 1 ? tmp : NULL;
    cudaError_t e;
    if (method == 2) {
        if (tiles > 1) {
            tile_reduce_fast<<<(unsigned)tiles, FAST_THREADS>>>(x, sums, n);
            if ((e = cudaGetLastError()) != cudaSuccess) return e;
            /* scan the tile sums in place, then every tile from its offset */
            if ((e = scan_rec(2, sums, sums, tiles, tmp + round64(tiles))) != cudaSuccess) return e;
        }
        tile_scan_fast<<<(unsigned)tiles, FAST_THREADS>>>(x, y, sums, n);
        return cudaGetLastError();
    }
    if (method == 0) tile_scan_hs<<<(unsigned)tiles, HS_T>>>(x, y, sums, n);
    else tile_scan_blelloch<<<(unsigned)tiles, BL_T / 2>>>(x, y, sums, n);
    if ((e = cudaGetLastError()) != cudaSuccess || tiles == 1) return e;
    if ((e = scan_rec(method, sums, sums, tiles, tmp + round64(tiles))) != cudaSuccess) return e;
    add_offsets<<<(unsigned)(tiles - 1), 256>>>(y, sums, n, (unsigned)T);
    return cudaGetLastError();
}

cudaError_t scan_hs(const float *x, float *y, size_t n, void *tmp) { return scan_rec(0, x, y, n, (float *)tmp); }
cudaError_t scan_blelloch(const float *x, float *y, size_t n, void *tmp) { return scan_rec(1, x, y, n, (float *)tmp); }
cudaError_t scan_fast(const float *x, float *y, size_t n, void *tmp) { return scan_rec(2, x, y, n, (float *)tmp); }
