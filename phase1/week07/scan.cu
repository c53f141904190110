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

/* TODO: four kernels (see the comment at the top and the hints).
 * tile_scan_hs: HS_T threads scan HS_T elements; tile_scan_blelloch: BL_T/2
 * threads scan BL_T elements. Both write y for their tile and, when sums is
 * not NULL, the tile's total to sums[blockIdx.x].
 * tile_reduce_fast: FAST_THREADS threads write the sum of their FAST_T
 * elements to sums[blockIdx.x]; tile_scan_fast: scan the tile starting
 * from offs[blockIdx.x - 1] (0 for block 0). */
static __global__ void tile_scan_hs(const float *x, float *y, float *sums, size_t n)
{
    (void)x, (void)y, (void)sums, (void)n;
}
static __global__ void tile_scan_blelloch(const float *x, float *y, float *sums, size_t n)
{
    (void)x, (void)y, (void)sums, (void)n;
}
static __global__ void tile_reduce_fast(const float *x, float *sums, size_t n) { (void)x, (void)sums, (void)n; }
static __global__ void tile_scan_fast(const float *x, float *y, const float *offs, size_t n)
{
    (void)x, (void)y, (void)offs, (void)n;
}

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
