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

/* TODO: three kernels. Blocks of TILE x ROWS threads, each covering a
 * TILE x TILE tile of in: grid (ceil(cols / TILE), ceil(rows / TILE)).
 * naive: write out directly; tiled: through __shared__ float tile[TILE][TILE];
 * padded: tile[TILE][TILE + 1]. Guard every access at the matrix edges. */
static cudaError_t launch(int which, const float *in, float *out, int rows, int cols)
{
    (void)which, (void)in, (void)out, (void)rows, (void)cols;
    return cudaSuccess;
}

cudaError_t transpose_naive(const float *in, float *out, int rows, int cols) { return launch(0, in, out, rows, cols); }
cudaError_t transpose_tiled(const float *in, float *out, int rows, int cols) { return launch(1, in, out, rows, cols); }
cudaError_t transpose_padded(const float *in, float *out, int rows, int cols) { return launch(2, in, out, rows, cols); }
