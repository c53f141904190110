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

//@solution
static __constant__ float c_sw[2 * SEP_MAX_R + 1];

static __device__ __forceinline__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static __global__ void rows_kernel(const float *__restrict__ in, float *__restrict__ out, int w, int h, int r)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const float *row = in + (size_t)y * w;
    float acc = 0.0f;
    for (int k = -r; k <= r; k++) acc = fmaf(c_sw[k + r], row[clampi(x + k, 0, w - 1)], acc);
    out[(size_t)y * w + x] = acc;
}

static __global__ void cols_kernel(const float *__restrict__ in, float *__restrict__ out, int w, int h, int r)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.0f;
    for (int k = -r; k <= r; k++) acc = fmaf(c_sw[k + r], in[(size_t)clampi(y + k, 0, h - 1) * w + x], acc);
    out[(size_t)y * w + x] = acc;
}

static cudaError_t launch(int cols, const float *in, float *out, int w, int h)
{
    dim3 block(32, 8), grid((unsigned)((w + 31) / 32), (unsigned)((h + 7) / 8));
    if (grid.y > 65535) return cudaErrorInvalidValue;
    if (cols) cols_kernel<<<grid, block>>>(in, out, w, h, g_r);
    else rows_kernel<<<grid, block>>>(in, out, w, h, g_r);
    return cudaGetLastError();
}
//@starter
//| /* TODO: a __constant__ array of 2 * SEP_MAX_R + 1 weights, a row kernel and
//|  * a column kernel (one thread per output pixel, coordinates clamped into
//|  * the image), and a launcher for each. */
//| static cudaError_t launch(int cols, const float *in, float *out, int w, int h)
//| {
//|     (void)cols, (void)in, (void)out, (void)w, (void)h;
//|     return cudaSuccess;
//| }
//@end

cudaError_t sep_set_weights(const float *h_w, int radius)
{
    if (radius < 0 || radius > SEP_MAX_R || !h_w) return cudaErrorInvalidValue;
    //@solution
    cudaError_t e = cudaMemcpyToSymbol(c_sw, h_w, (size_t)(2 * radius + 1) * sizeof(float));
    if (e != cudaSuccess) return e;
    //@starter
    //| /* TODO: cudaMemcpyToSymbol the 2 * radius + 1 weights into constant memory. */
    //@end
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
