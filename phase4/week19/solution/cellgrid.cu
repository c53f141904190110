/* cellgrid.cu — week 19, exercise 3: a uniform grid, sorted by cell, for
 * collision detection.
 *
 * Build (a counting sort, three passes over the particles):
 *   1. cell of every particle; atomicAdd on that cell's counter gives the
 *      particle's rank inside its cell (the order of arrival, which is why
 *      the order inside a cell is free);
 *   2. exclusive prefix sum of the counters = where each cell starts
 *      (cub::DeviceScan::ExclusiveSum; week 07's scan would do);
 *   3. sorted[start[c] + rank[i]] = i, and end[c] = start[c] + count[c].
 * Count: one thread per slot k of the sorted order, so that the threads of a
 * warp hold particles of the same or nearby cells and walk the same
 * neighbour cells (little divergence, the same ranges read by all lanes).
 * Each thread looks at the 3 x 3 x 3 cells around its own, clipped to the
 * grid, and counts the particles closer than radius. */
#include <cub/device/device_scan.cuh>
#include "cellgrid.h"

//@solution
static __device__ __forceinline__ int cell_axis(float x, float cell, int g)
{
    int i = (int)(x / cell);
    return i < 0 ? 0 : i >= g ? g - 1 : i;
}

/* Workspace layout: counts[ncells] | rank[n] | CUB scratch, each 256-byte aligned. */
static size_t align256(size_t b) { return (b + 255) & ~(size_t)255; }

static size_t scan_bytes(int ncells)
{
    size_t t = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, t, (const unsigned *)nullptr, (unsigned *)nullptr, ncells);
    return t;
}

static __global__ void cell_rank_kernel(const float4 *__restrict__ pos, int n, cg_grid g, unsigned *__restrict__ cell_of,
                                        unsigned *__restrict__ counts, unsigned *__restrict__ rank)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = pos[i];
    unsigned c = ((unsigned)cell_axis(p.z, g.cell, g.gz) * g.gy + cell_axis(p.y, g.cell, g.gy)) * g.gx +
                 cell_axis(p.x, g.cell, g.gx);
    cell_of[i] = c;
    rank[i] = atomicAdd(&counts[c], 1u);
}

static __global__ void scatter_kernel(const unsigned *__restrict__ cell_of, const unsigned *__restrict__ rank,
                                      const unsigned *__restrict__ start, int n, unsigned *__restrict__ sorted)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sorted[start[cell_of[i]] + rank[i]] = (unsigned)i;
}

static __global__ void cell_end_kernel(const unsigned *__restrict__ start, const unsigned *__restrict__ counts,
                                       int ncells, unsigned *__restrict__ end)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < ncells) end[c] = start[c] + counts[c];
}

static __global__ void count_kernel(const float4 *__restrict__ pos, int n, cg_grid g, float r2,
                                    const unsigned *__restrict__ sorted, const unsigned *__restrict__ start,
                                    const unsigned *__restrict__ end, unsigned *__restrict__ count)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    unsigned i = sorted[k];
    float4 p = pos[i];
    int cx = cell_axis(p.x, g.cell, g.gx), cy = cell_axis(p.y, g.cell, g.gy), cz = cell_axis(p.z, g.cell, g.gz);
    unsigned hits = 0;
    for (int z = max(cz - 1, 0); z <= min(cz + 1, g.gz - 1); z++)
        for (int y = max(cy - 1, 0); y <= min(cy + 1, g.gy - 1); y++)
            for (int x = max(cx - 1, 0); x <= min(cx + 1, g.gx - 1); x++) {
                unsigned c = ((unsigned)z * g.gy + y) * g.gx + x;
                for (unsigned s = start[c], e = end[c]; s < e; s++) {
                    unsigned j = sorted[s];
                    float4 q = pos[j];
                    float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
                    hits += (j != i) & (dx * dx + dy * dy + dz * dz < r2);
                }
            }
    count[i] = hits;
}
//@starter
//| /* TODO: the kernels of a counting sort by cell, and the pair count.
//|  * A cell's index along one axis: (int)(x / cell), clamped to [0, g-1].
//|  * Build: counters per cell (zeroed with cudaMemsetAsync), atomicAdd gives
//|  * each particle its rank in its cell; an exclusive scan of the counters
//|  * gives cell_start (cub::DeviceScan::ExclusiveSum is included above);
//|  * sorted[cell_start[c] + rank] = i; cell_end = cell_start + counter.
//|  * Count: one thread per sorted slot; loop over the 27 neighbour cells
//|  * clipped to the grid and over each one's [cell_start, cell_end). */
//@end

size_t cg_workspace_bytes(int n, int ncells)
{
    //@solution
    if (n < 0 || ncells < 1) return 0;
    return align256((size_t)ncells * 4) + align256((size_t)n * 4) + align256(scan_bytes(ncells));
    //@starter
    //| /* TODO: the scratch your cg_build needs (counters, ranks, the scan's
    //|  * temporary storage: ask CUB with a null pointer first). */
    //| (void)n, (void)ncells;
    //| return 0;
    //@end
}

cudaError_t cg_build(const float *pos, int n, cg_grid g, unsigned *cell_of, unsigned *sorted, unsigned *cell_start,
                     unsigned *cell_end, void *work, size_t work_bytes)
{
    //@solution
    if (n < 0 || g.gx < 1 || g.gy < 1 || g.gz < 1 || !(g.cell > 0)) return cudaErrorInvalidValue;
    long long nc = (long long)g.gx * g.gy * g.gz;
    if (nc > 0x7fffffff) return cudaErrorInvalidValue;
    int ncells = (int)nc;
    if (work_bytes < cg_workspace_bytes(n, ncells)) return cudaErrorInvalidValue;
    unsigned char *w = (unsigned char *)work;
    unsigned *counts = (unsigned *)w;
    unsigned *rank = (unsigned *)(w + align256((size_t)ncells * 4));
    void *tmp = w + align256((size_t)ncells * 4) + align256((size_t)n * 4);
    size_t tmp_bytes = align256(scan_bytes(ncells));
    cudaError_t e;
    if ((e = cudaMemsetAsync(counts, 0, (size_t)ncells * 4)) != cudaSuccess) return e;
    if (n > 0) {
        cell_rank_kernel<<<(n + 255) / 256, 256>>>((const float4 *)pos, n, g, cell_of, counts, rank);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    if ((e = cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, counts, cell_start, ncells)) != cudaSuccess) return e;
    if (n > 0) {
        scatter_kernel<<<(n + 255) / 256, 256>>>(cell_of, rank, cell_start, n, sorted);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    cell_end_kernel<<<(ncells + 255) / 256, 256>>>(cell_start, counts, ncells, cell_end);
    return cudaGetLastError();
    //@starter
    //| /* TODO: zero the counters, then the cell/rank kernel, the scan, the
    //|  * scatter and cell_end; return the first error. Carve counters, ranks
    //|  * and the scan's storage out of work (keep each piece 256-byte aligned). */
    //| (void)pos, (void)n, (void)g, (void)cell_of, (void)sorted, (void)cell_start, (void)cell_end;
    //| (void)work, (void)work_bytes;
    //| return cudaSuccess;
    //@end
}

cudaError_t cg_count_pairs(const float *pos, int n, cg_grid g, float radius, const unsigned *sorted,
                           const unsigned *cell_start, const unsigned *cell_end, unsigned *count)
{
    //@solution
    if (n < 0 || !(radius > 0) || radius > g.cell) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    count_kernel<<<(n + 255) / 256, 256>>>((const float4 *)pos, n, g, radius * radius, sorted, cell_start, cell_end,
                                           count);
    return cudaGetLastError();
    //@starter
    //| /* TODO: one thread per sorted slot; compare squared distances with
    //|  * radius * radius. Nothing to launch for n == 0. */
    //| (void)pos, (void)n, (void)g, (void)radius, (void)sorted, (void)cell_start, (void)cell_end, (void)count;
    //| return cudaSuccess;
    //@end
}
