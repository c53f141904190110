/* transpose.cu — week 06, exercise 1: a transpose at the speed of a copy.
 *
 * v1 naive: reads coalesce, writes do not (consecutive threads write `rows`
 *    floats apart): every 4-byte store costs a 32-byte sector.
 * v2 tiled: a block reads a 32x32 tile with coalesced rows into shared
 *    memory, then writes the tile's columns as coalesced rows of out. Reading
 *    a column of tile[32][32] is a 32-way bank conflict (stride 32 floats).
 * v3 padded: tile[32][33]; the column's addresses are 33 floats apart and
 *    land in 32 different banks. Blocks of 32x8 threads move 4 elements each. */
#include "transpose.h"

#define TILE 32
#define ROWS 8 /* threads per block in y; each thread moves TILE / ROWS elements */

//@solution
static __global__ void transpose_naive_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int r = blockIdx.y * TILE + threadIdx.y + k;
        if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    }
}

template <int PAD>
static __global__ void transpose_tile_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + PAD];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int k = 0; k < TILE; k += ROWS)
        if (r0 + k < rows && c < cols) tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(r0 + k) * cols + c];
    __syncthreads();
    /* out tile (blockIdx.x, blockIdx.y) swapped: out row = input column */
    int oc = blockIdx.y * TILE + threadIdx.x;  /* column of out = row of in */
    int or0 = blockIdx.x * TILE + threadIdx.y; /* row of out = column of in */
#pragma unroll
    for (int k = 0; k < TILE; k += ROWS)
        if (or0 + k < cols && oc < rows) out[(size_t)(or0 + k) * rows + oc] = tile[threadIdx.x][threadIdx.y + k];
}

static cudaError_t launch(int which, const float *in, float *out, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    dim3 block(TILE, ROWS), grid((unsigned)((cols + TILE - 1) / TILE), (unsigned)((rows + TILE - 1) / TILE));
    if (grid.y > 65535) return cudaErrorInvalidValue;
    if (which == 0) transpose_naive_kernel<<<grid, block>>>(in, out, rows, cols);
    else if (which == 1) transpose_tile_kernel<0><<<grid, block>>>(in, out, rows, cols);
    else transpose_tile_kernel<1><<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}
//@starter
//| /* TODO: three kernels. Blocks of TILE x ROWS threads, each covering a
//|  * TILE x TILE tile of in: grid (ceil(cols / TILE), ceil(rows / TILE)).
//|  * naive: write out directly; tiled: through __shared__ float tile[TILE][TILE];
//|  * padded: tile[TILE][TILE + 1]. Guard every access at the matrix edges. */
//| static cudaError_t launch(int which, const float *in, float *out, int rows, int cols)
//| {
//|     (void)which, (void)in, (void)out, (void)rows, (void)cols;
//|     return cudaSuccess;
//| }
//@end

cudaError_t transpose_naive(const float *in, float *out, int rows, int cols) { return launch(0, in, out, rows, cols); }
cudaError_t transpose_tiled(const float *in, float *out, int rows, int cols) { return launch(1, in, out, rows, cols); }
cudaError_t transpose_padded(const float *in, float *out, int rows, int cols) { return launch(2, in, out, rows, cols); }
