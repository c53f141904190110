/* cellgrid.h — week 19: particles in a uniform grid, for collision detection.
 *
 * The box [0, gx*cell) x [0, gy*cell) x [0, gz*cell) is cut into cubes of
 * edge `cell`. Particle i (pos[4i .. 4i+2] = x, y, z; pos[4i+3] is not read;
 * the array 16-byte aligned) lies in cell
 *
 *     ix = (int)(x / cell), iy = (int)(y / cell), iz = (int)(z / cell),
 *     each clamped to [0, g-1];   c = (iz * gy + iy) * gx + ix
 *
 * (x / cell with IEEE division, as CUDA's `/` on floats is by default).
 * Two particles i != j "collide" when |x_i - x_j|^2 < radius^2 (strictly;
 * computed in float). With radius <= cell, a colliding pair is in the same
 * or neighbouring cells (27 cells to look at), so counting them costs about
 * n x (particles in 27 cells), not n^2.
 *
 * n >= 0; ncells = gx*gy*gz >= 1; every pointer a device pointer; the calls
 * launch on the default stream without waiting and return the first error. */
#ifndef CELLGRID_H
#define CELLGRID_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    float cell;       /* cell edge, > 0 */
    int   gx, gy, gz; /* cells along x, y, z, each >= 1 */
} cg_grid;

/* Bytes of device scratch cg_build needs for n particles and ncells cells
 * (a host function; the caller allocates them and passes them in). */
size_t cg_workspace_bytes(int n, int ncells);

/* Sort the particles by cell:
 *   cell_of[i]     the cell of particle i (n values);
 *   sorted[k]      particle ids in cell order: cell_of[sorted[k]] never
 *                  decreases with k (order inside a cell is free) (n values);
 *   cell_start[c], cell_end[c]: the particles of cell c are
 *                  sorted[cell_start[c] .. cell_end[c]-1]; an empty cell has
 *                  cell_start[c] == cell_end[c] (any value) (ncells values each).
 * work: work_bytes >= cg_workspace_bytes(n, ncells) bytes of scratch. */
cudaError_t cg_build(const float *pos, int n, cg_grid g, unsigned *cell_of, unsigned *sorted, unsigned *cell_start,
                     unsigned *cell_end, void *work, size_t work_bytes);

/* count[i] = how many particles j != i collide with particle i (a pair is
 * counted once at each end: the sum over i is twice the number of pairs),
 * using cg_build's sorted, cell_start and cell_end. 0 < radius <= g.cell. */
cudaError_t cg_count_pairs(const float *pos, int n, cg_grid g, float radius, const unsigned *sorted,
                           const unsigned *cell_start, const unsigned *cell_end, unsigned *count);

#ifdef __cplusplus
}
#endif
#endif
