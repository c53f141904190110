/* separable.cu — week 17, exercise 3: a separable filter, rows then columns.
 *
 * Each pass is one thread per output pixel with the 2r + 1 weights in
 * __constant__ memory (every lane reads the same weight at once: a
 * broadcast). The row pass reads 2r + 1 neighbours along its row: the warp's
 * loads overlap and the L1 cache serves the repeats. The column pass reads
 * down a column, but the 32 lanes of a warp read 32 neighbouring columns of
 * the same row at each tap: every load is coalesced. Two passes move 16
 * bytes a pixel (read and write a float, twice); a direct 2D filter moves 8
 * but does (2r + 1)^2 FMAs instead of 2(2r + 1). */
#include "separable.h"

static int g_r = -1; /* the radius of the weights in constant memory; -1: none yet */

/* TODO: a __constant__ array of 2 * SEP_MAX_R + 1 weights, a row kernel and
 * a column kernel (one thread per output pixel, coordinates clamped into
 * the image), and a launcher for each. */
static cudaError_t launch(int cols, const float *in, float *out, int w, int h)
{
    (void)cols, (void)in, (void)out, (void)w, (void)h;
    return cudaSuccess;
}

cudaError_t sep_set_weights(const float *h_w, int radius)
{
    if (radius < 0 || radius > SEP_MAX_R || !h_w) return cudaErrorInvalidValue;
    /* TODO: cudaMemcpyToSymbol the 2 * radius + 1 weights into constant memory. */
    g_r = radius;
    return cudaSuccess;
}

cudaError_t sep_rows(const float *in, float *out, int width, int height)
{
    if (g_r < 0) return cudaErrorInvalidValue;
    if (width <= 0 || height <= 0) return cudaSuccess;
    return launch(0, in, out, width, height);
}

cudaError_t sep_cols(const float *in, float *out, int width, int height)
{
    if (g_r < 0) return cudaErrorInvalidValue;
    if (width <= 0 || height <= 0) return cudaSuccess;
    return launch(1, in, out, width, height);
}
