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

/* TODO: three kernels. naive and tiled: blocks of TILE x ROWS threads, each
 * covering a TILE x TILE tile of in: grid (ceil(cols / TILE), ceil(rows / TILE)).
 * naive: write out directly; tiled: through __shared__ float tile[TILE][TILE].
 * padded: tile[PTILE][PTILE + 1], blocks of 32 x PROWS threads, each thread
 * covering PTILE / 32 columns and PTILE / PROWS rows of the tile (start with
 * the tiled kernel at TILE; the bigger tile is the last step, README).
 * Guard every access at the matrix edges. */
static cudaError_t launch(int which, const float *in, float *out, int rows, int cols)
{
    (void)which, (void)in, (void)out, (void)rows, (void)cols;
    return cudaSuccess;
}

cudaError_t transpose_naive(const float *in, float *out, int rows, int cols) { return launch(0, in, out, rows, cols); }
cudaError_t transpose_tiled(const float *in, float *out, int rows, int cols) { return launch(1, in, out, rows, cols); }
cudaError_t transpose_padded(const float *in, float *out, int rows, int cols) { return launch(2, in, out, rows, cols); }
