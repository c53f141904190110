/* transpose.cu — week 06, exercise 1: a transpose at the speed of a copy.
 *
 * v1 naive: reads coalesce, writes do not (consecutive threads write `rows`
 *    floats apart): every 4-byte store costs a 32-byte sector.
 * v2 tiled: a block reads a 32x32 tile with coalesced rows into shared
 *    memory, then writes the tile's columns as coalesced rows of out. Reading
 *    a column of tile[32][32] is a 32-way bank conflict (stride 32 floats).
 * v3 padded: tile[64][65]; a column's addresses are 65 floats apart and
 *    land in 32 different banks. 64x64 tiles, blocks of 32x16 threads: each
 *    thread moves 8 elements (README: 0.92 of a copy with 32x32 tiles and
 *    32x8 threads, 0.95 with these). */
#include "transpose.h"

#define TILE 32
#define ROWS 8   /* naive and tiled: threads per block in y; each thread moves TILE / ROWS elements */
#define PTILE 64 /* padded: 64 x 64 tiles */
#define PROWS 16 /* padded: blocks of 32 x 16 threads, (PTILE / 32) x (PTILE / PROWS) = 8 elements a thread */

//@solution
static __global__ void transpose_naive_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    for (int k = 0; k < TILE; k += ROWS) {
        int r = blockIdx.y * TILE + threadIdx.y + k;
        if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    }
}

/* A T x T tile through shared memory, blocks of 32 x R threads: each thread
 * covers T / 32 columns and T / R rows of the tile. */
template <int T, int R, int PAD>
static __global__ void transpose_tile_kernel(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[T][T + PAD];
#pragma unroll
    for (int cx = 0; cx < T; cx += 32) {
        const int c = blockIdx.x * T + cx + threadIdx.x;
#pragma unroll
        for (int k = 0; k < T; k += R) {
            const int r = blockIdx.y * T + threadIdx.y + k;
            if (r < rows && c < cols) tile[threadIdx.y + k][cx + threadIdx.x] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();
    /* out tile (blockIdx.x, blockIdx.y) swapped: out row = input column */
#pragma unroll
    for (int cx = 0; cx < T; cx += 32) {
        const int oc = blockIdx.y * T + cx + threadIdx.x; /* column of out = row of in */
#pragma unroll
        for (int k = 0; k < T; k += R) {
            const int orow = blockIdx.x * T + threadIdx.y + k; /* row of out = column of in */
            if (orow < cols && oc < rows) out[(size_t)orow * rows + oc] = tile[cx + threadIdx.x][threadIdx.y + k];
        }
    }
}

static cudaError_t launch(int which, const float *in, float *out, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    if (which == 2) {
        dim3 block(32, PROWS), grid((unsigned)((cols + PTILE - 1) / PTILE), (unsigned)((rows + PTILE - 1) / PTILE));
        if (grid.y > 65535) return cudaErrorInvalidValue;
        transpose_tile_kernel<PTILE, PROWS, 1><<<grid, block>>>(in, out, rows, cols);
        return cudaGetLastError();
    }
    dim3 block(TILE, ROWS), grid((unsigned)((cols + TILE - 1) / TILE), (unsigned)((rows + TILE - 1) / TILE));
    if (grid.y > 65535) return cudaErrorInvalidValue;
    if (which == 0) transpose_naive_kernel<<<grid, block>>>(in, out, rows, cols);
    else transpose_tile_kernel<TILE, ROWS, 0><<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}
//@starter
//| /* TODO: three kernels. naive and tiled: blocks of TILE x ROWS threads, each
//|  * covering a TILE x TILE tile of in: grid (ceil(cols / TILE), ceil(rows / TILE)).
//|  * naive: write out directly; tiled: through __shared__ float tile[TILE][TILE].
//|  * padded: tile[PTILE][PTILE + 1], blocks of 32 x PROWS threads, each thread
//|  * covering PTILE / 32 columns and PTILE / PROWS rows of the tile (start with
//|  * the tiled kernel at TILE; the bigger tile is the last step, README).
//|  * Guard every access at the matrix edges. */
//| static cudaError_t launch(int which, const float *in, float *out, int rows, int cols)
//| {
//|     (void)which, (void)in, (void)out, (void)rows, (void)cols;
//|     return cudaSuccess;
//| }
//@end

cudaError_t transpose_naive(const float *in, float *out, int rows, int cols) { return launch(0, in, out, rows, cols); }
cudaError_t transpose_tiled(const float *in, float *out, int rows, int cols) { return launch(1, in, out, rows, cols); }
cudaError_t transpose_padded(const float *in, float *out, int rows, int cols) { return launch(2, in, out, rows, cols); }
