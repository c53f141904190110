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

/* TODO: the kernels of a counting sort by cell, and the pair count.
 * A cell's index along one axis: (int)(x / cell), clamped to [0, g-1].
 * Build: counters per cell (zeroed with cudaMemsetAsync), atomicAdd gives
 * each particle its rank in its cell; an exclusive scan of the counters
 * gives cell_start (cub::DeviceScan::ExclusiveSum is included above);
 * sorted[cell_start[c] + rank] = i; cell_end = cell_start + counter.
 * Count: one thread per sorted slot; loop over the 27 neighbour cells
 * clipped to the grid and over each one's [cell_start, cell_end). */

size_t cg_workspace_bytes(int n, int ncells)
{
    /* TODO: the scratch your cg_build needs (counters, ranks, the scan's
     * temporary storage: ask CUB with a null pointer first). */
    (void)n, (void)ncells;
    return 0;
}

cudaError_t cg_build(const float *pos, int n, cg_grid g, unsigned *cell_of, unsigned *sorted, unsigned *cell_start,
                     unsigned *cell_end, void *work, size_t work_bytes)
{
    /* TODO: zero the counters, then the cell/rank kernel, the scan, the
     * scatter and cell_end; return the first error. Carve counters, ranks
     * and the scan's storage out of work (keep each piece 256-byte aligned). */
    (void)pos, (void)n, (void)g, (void)cell_of, (void)sorted, (void)cell_start, (void)cell_end;
    (void)work, (void)work_bytes;
    return cudaSuccess;
}

cudaError_t cg_count_pairs(const float *pos, int n, cg_grid g, float radius, const unsigned *sorted,
                           const unsigned *cell_start, const unsigned *cell_end, unsigned *count)
{
    /* TODO: one thread per sorted slot; compare squared distances with
     * radius * radius. Nothing to launch for n == 0. */
    (void)pos, (void)n, (void)g, (void)radius, (void)sorted, (void)cell_start, (void)cell_end, (void)count;
    return cudaSuccess;
}
