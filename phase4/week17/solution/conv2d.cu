/* conv2d.cu — week 17, exercise 2: 2D convolution, naive then tiled.
 *
 * v1 naive: one thread per output pixel reads its K x K window straight
 *    from global memory, and the K x K weights from global memory too. Each
 *    input pixel is read by K * K threads; the L1 cache catches some of it.
 * v2 tiled: a block of 32 x 8 threads owns a 32 x 32 output tile. It first
 *    copies the tile plus an r-pixel halo on every side ((32 + 2r)^2 floats,
 *    the border clamped as it is loaded) into shared memory with coalesced
 *    reads, waits (__syncthreads), then every thread computes 4 outputs from
 *    shared memory. The weights live in __constant__ memory: all lanes of a
 *    warp read the same weight at the same time, which the constant cache
 *    broadcasts in one go. A template on r makes the loops fully unrolled,
 *    so each weight becomes an operand of its FMA. */
#include "conv2d.h"

#define TILE 32    /* output tile: TILE x TILE pixels */
#define BLOCK_Y 8  /* threads per block: TILE x BLOCK_Y, each TILE / BLOCK_Y outputs */

static int g_k = 0; /* the k of the weights in constant memory; 0: none yet */

static int bad_k(int k) { return k < 1 || k > CONV_MAX_K || k % 2 == 0; }

//@solution
static __constant__ float c_w[CONV_MAX_K * CONV_MAX_K];

static __device__ __forceinline__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static __global__ void conv_naive_kernel(const float *__restrict__ in, float *__restrict__ out, int w, int h,
                                         const float *__restrict__ wt, int k)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int r = k / 2;
    float acc = 0.0f;
    for (int i = 0; i < k; i++) {
        const float *row = in + (size_t)clampi(y + i - r, 0, h - 1) * w;
        for (int j = 0; j < k; j++) acc = fmaf(wt[i * k + j], row[clampi(x + j - r, 0, w - 1)], acc);
    }
    out[(size_t)y * w + x] = acc;
}

template <int R>
static __global__ void conv_tiled_kernel(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    constexpr int K = 2 * R + 1, SW = TILE + 2 * R, SH = TILE + 2 * R;
    __shared__ float s[SH][SW];
    int x0 = blockIdx.x * TILE - R, y0 = blockIdx.y * TILE - R;
    for (int i = threadIdx.y * TILE + threadIdx.x; i < SH * SW; i += TILE * BLOCK_Y) {
        int ly = i / SW, lx = i - ly * SW;
        s[ly][lx] = in[(size_t)clampi(y0 + ly, 0, h - 1) * w + clampi(x0 + lx, 0, w - 1)];
    }
    __syncthreads();
    int x = blockIdx.x * TILE + threadIdx.x;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_Y) {
        int ly = threadIdx.y + j, y = blockIdx.y * TILE + ly;
        if (x < w && y < h) {
            float acc = 0.0f;
#pragma unroll
            for (int a = 0; a < K; a++)
#pragma unroll
                for (int b = 0; b < K; b++) acc = fmaf(c_w[a * K + b], s[ly + a][threadIdx.x + b], acc);
            out[(size_t)y * w + x] = acc;
        }
    }
}

template <int R>
static cudaError_t launch_tiled(const float *in, float *out, int w, int h)
{
    dim3 block(TILE, BLOCK_Y), grid((unsigned)((w + TILE - 1) / TILE), (unsigned)((h + TILE - 1) / TILE));
    conv_tiled_kernel<R><<<grid, block>>>(in, out, w, h);
    return cudaGetLastError();
}
//@starter
//| /* TODO: the two kernels, and a __constant__ array of CONV_MAX_K * CONV_MAX_K
//|  * floats for the weights. Clamp every coordinate into the image before you
//|  * read (conv2d.h). For the tiled kernel: blocks of TILE x BLOCK_Y threads,
//|  * each block an output tile of TILE x TILE pixels, its input (TILE + 2r)^2
//|  * pixels staged in __shared__ memory first. */
//@end

cudaError_t conv2d_naive(const float *in, float *out, int width, int height, const float *d_weights, int k)
{
    if (bad_k(k) || !d_weights) return cudaErrorInvalidValue;
    if (width <= 0 || height <= 0) return cudaSuccess;
    //@solution
    dim3 block(32, 8), grid((unsigned)((width + 31) / 32), (unsigned)((height + 7) / 8));
    if (grid.y > 65535) return cudaErrorInvalidValue;
    conv_naive_kernel<<<grid, block>>>(in, out, width, height, d_weights, k);
    return cudaGetLastError();
    //@starter
    //| /* TODO: one thread per output pixel; launch enough 2D blocks to cover the
    //|  * image, then return cudaGetLastError(). */
    //| (void)in, (void)out;
    //| return cudaSuccess;
    //@end
}

cudaError_t conv2d_set_weights(const float *h_weights, int k)
{
    if (bad_k(k) || !h_weights) return cudaErrorInvalidValue;
    //@solution
    cudaError_t e = cudaMemcpyToSymbol(c_w, h_weights, (size_t)k * k * sizeof(float));
    if (e != cudaSuccess) return e;
    //@starter
    //| /* TODO: cudaMemcpyToSymbol the k * k weights into your __constant__ array. */
    //@end
    g_k = k;
    return cudaSuccess;
}

cudaError_t conv2d_tiled(const float *in, float *out, int width, int height)
{
    if (g_k == 0) return cudaErrorInvalidValue;
    if (width <= 0 || height <= 0) return cudaSuccess;
    //@solution
    if ((height + TILE - 1) / TILE > 65535) return cudaErrorInvalidValue;
    switch (g_k / 2) {
    case 0: return launch_tiled<0>(in, out, width, height);
    case 1: return launch_tiled<1>(in, out, width, height);
    case 2: return launch_tiled<2>(in, out, width, height);
    case 3: return launch_tiled<3>(in, out, width, height);
    case 4: return launch_tiled<4>(in, out, width, height);
    case 5: return launch_tiled<5>(in, out, width, height);
    case 6: return launch_tiled<6>(in, out, width, height);
    default: return launch_tiled<7>(in, out, width, height);
    }
    //@starter
    //| /* TODO: launch the tiled kernel for the k that conv2d_set_weights kept
    //|  * (g_k). A template on r = g_k / 2 lets the compiler unroll the taps. */
    //| (void)in, (void)out;
    //| return cudaSuccess;
    //@end
}
