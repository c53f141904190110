/* stencil.h — week 19: one sweep of a 3-D 7-point Jacobi (heat) stencil,
 * written three ways.
 *
 * The grid is nx * ny * nz floats, x fastest: cell (x, y, z) is element
 * (z * ny + y) * nx + x. One sweep writes, for every interior cell
 * (0 < x < nx-1, 0 < y < ny-1, 0 < z < nz-1),
 *
 *     out = c0 * in[c] + c1 * (in[c-1] + in[c+1] + in[c-nx] + in[c+nx]
 *                              + in[c-nx*ny] + in[c+nx*ny])
 *
 * and copies every boundary cell (any cell on one of the six faces)
 * unchanged: out = in there (Dirichlet: the boundary holds its values from
 * sweep to sweep). A grid with an edge of 1 or 2 cells is all boundary. With
 * c0 = 1 - 6a and c1 = a (0 < a <= 1/6) a sweep is one explicit step of the
 * heat equation. in and out are device pointers to different buffers (no
 * overlap: many sweeps ping-pong between two); only out[0 .. nx*ny*nz - 1]
 * is written; any alignment of a float. nx, ny, nz >= 0 (any of them 0:
 * nothing to do); a negative size, or ny > STENCIL_MAX_NY, gives
 * cudaErrorInvalidValue. Each function launches on the default stream
 * without waiting and returns the launch's error (cudaSuccess if none). */
#ifndef STENCIL_H
#define STENCIL_H

#include <cuda_runtime_api.h>

/* Flops and bytes of one interior cell's update: 6 additions, 2 multiplies
 * (or 1 multiply and 1 FMA); one float read and one float written. */
#define STENCIL_FLOPS_PER_CELL 8
#define STENCIL_BYTES_PER_CELL 8
/* The grid's y extent is covered by gridDim.y blocks of 8 rows. */
#define STENCIL_MAX_NY (65535 * 8)

#ifdef __cplusplus
extern "C" {
#endif

/* (a) One thread a cell; all seven values read from global memory. */
cudaError_t stencil_naive(const float *in, float *out, int nx, int ny, int nz, float c0, float c1);
/* (b) One thread a cell; a block stages its 2-D x-y tile of the plane, with
 * a one-cell halo loaded by the tile's edge threads, in shared memory; the
 * z - 1 and z + 1 values from global memory. */
cudaError_t stencil_tiled(const float *in, float *out, int nx, int ny, int nz, float c0, float c1);
/* (c) Register streaming along z (thread coarsening): a block owns an x-y
 * tile and a run of planes; each thread walks z keeping in[z-1], in[z] and
 * in[z+1] of its column in registers, and the block keeps the current
 * plane (with its halo) in shared memory. */
cudaError_t stencil_stream(const float *in, float *out, int nx, int ny, int nz, float c0, float c1);

#ifdef __cplusplus
}
#endif
#endif
