/* fp32.cu — week 18, exercise 2: one MLP layer in FP32 with its bias and
 * ReLU fused, and softmax/argmax.
 *
 * A layer is a GEMM, Y = X W^T, with a skinny shape: a batch of many
 * thousands of rows, but only 64 or 128 columns and a K of 64 or 128. The
 * kernel is a register-tiled GEMM (weeks 22-23 take it further): a block of
 * 256 threads owns a 64 x 64 tile of Y and walks K 32 at a time through shared memory,
 * each thread keeping a 4 x 4 piece of the tile in registers. The fusion is
 * the epilogue: the bias and the ReLU are applied to the accumulator while
 * it is still in a register, so Y is written once and never read back for
 * them. fp32_softmax_argmax gives each row a warp: a max, a sum of exponentials
 * and the first index of the max, all by shuffles. */
#include <math.h>
#include <limits.h>
#include "fp32.h"

//@solution
#define BM 64      /* rows (samples) of Y a block owns */
#define BN 64      /* columns (outputs) of Y a block owns */
#define BK 32      /* K a step */
#define THREADS 256

/* Thread (ty, tx) = (tid / 16, tid % 16) owns rows ty + 16 i and columns
 * tx + 16 j (i, j < 4) of the tile: a warp reads 16 consecutive columns of
 * the W tile (no bank conflict) and two rows of the X tile (broadcasts), and
 * its stores of Y are 16 consecutive floats. Tiles are stored k-major with a
 * pad of one float: the loaders write 32 consecutive k of one row, which
 * the pad spreads over 32 banks. */
template <bool RELU>
static __global__ void __launch_bounds__(THREADS)
    linear_f32_kernel(const float *__restrict__ x, const float *__restrict__ W, const float *__restrict__ b,
                      float *__restrict__ y, int batch, int in, int out)
{
    __shared__ float xs[BK][BM + 1];
    __shared__ float ws[BK][BN + 1];
    int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
    int ty = threadIdx.x / 16, tx = threadIdx.x % 16; /* a warp: 2 tile rows, 16 columns */
    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] = 0.f;

    for (int k0 = 0; k0 < in; k0 += BK) {
        /* BM == BN: element e of both tiles is (row e / BK, k e % BK) */
        for (int e = threadIdx.x; e < BM * BK; e += THREADS) {
            int r = e / BK, k = e % BK, gk = k0 + k;
            int gr = m0 + r, gn = n0 + r;
            xs[k][r] = (gr < batch && gk < in) ? x[(size_t)gr * in + gk] : 0.f;
            ws[k][r] = (gn < out && gk < in) ? W[(size_t)gn * in + gk] : 0.f;
        }
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < BK; k++) {
            float a[4], w[4];
#pragma unroll
            for (int i = 0; i < 4; i++) a[i] = xs[k][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < 4; j++) w[j] = ws[k][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) acc[i][j] = fmaf(a[i], w[j], acc[i][j]);
        }
        __syncthreads();
    }

    /* the fused epilogue: bias and ReLU in registers, one store */
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int r = m0 + ty + 16 * i;
        if (r >= batch) continue;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int c = n0 + tx + 16 * j;
            if (c >= out) continue;
            float v = acc[i][j] + b[c];
            if (RELU) v = v < 0.f ? 0.f : v; /* NaN < 0 is false: NaN stays */
            y[(size_t)r * out + c] = v;
        }
    }
}
//@starter
//| /* TODO: the kernel. Suggested shape: a block of 256 threads computes a
//|  * 64 x 64 tile of y (64 samples x 64 outputs); K advances 32 at a time
//|  * through two shared tiles (x rows and W rows, zeros outside batch, out
//|  * and in); each thread keeps a 4 x 4 piece of the tile in registers. Then
//|  * the fusion: add b[c] and apply the ReLU to the accumulator before the
//|  * single store of y[r][c], guarded by batch and out. A first version may
//|  * be one thread per output (a dot product of length in); make it correct
//|  * first. */
//@end

cudaError_t fp32_linear(const float *x, const float *W, const float *b, float *y, int batch, int in, int out,
                        int relu)
{
    //@solution
    if (batch < 0 || in < 1 || out < 1) return cudaErrorInvalidValue;
    if (batch == 0) return cudaSuccess;
    dim3 grid((unsigned)((batch + (long long)BM - 1) / BM), (unsigned)((out + BN - 1) / BN));
    if (relu) linear_f32_kernel<true><<<grid, THREADS>>>(x, W, b, y, batch, in, out);
    else linear_f32_kernel<false><<<grid, THREADS>>>(x, W, b, y, batch, in, out);
    return cudaGetLastError();
    //@starter
    //| /* TODO: check the sizes (fp32.h), launch nothing for batch == 0, launch
    //|  * enough blocks to cover batch x out, return cudaGetLastError(). */
    //| (void)x, (void)W, (void)b, (void)y, (void)batch, (void)in, (void)out, (void)relu;
    //| return cudaSuccess;
    //@end
}

//@solution
#define ROWS_PER_BLOCK 8 /* a warp a row */

static __global__ void softmax_argmax_kernel(const float *__restrict__ logits, float *__restrict__ probs,
                                             int *__restrict__ pred, int batch, int classes)
{
    int lane = threadIdx.x % 32;
    long long r = (long long)blockIdx.x * ROWS_PER_BLOCK + threadIdx.x / 32;
    if (r >= batch) return; /* the whole warp leaves together */
    const float *row = logits + r * classes;

    /* each lane: its largest value and the first column holding it */
    float best = -INFINITY;
    int at = INT_MAX, nan = 0;
    for (int c = lane; c < classes; c += 32) {
        float v = row[c];
        if (isnan(v)) nan = 1;
        else if (at == INT_MAX || v > best) best = v, at = c;
    }
    for (int off = 16; off > 0; off >>= 1) {
        float ob = __shfl_xor_sync(0xffffffffu, best, off);
        int oa = __shfl_xor_sync(0xffffffffu, at, off);
        if (oa != INT_MAX && (at == INT_MAX || ob > best || (ob == best && oa < at))) best = ob, at = oa;
    }
    if (__any_sync(0xffffffffu, nan)) {
        if (probs)
            for (int c = lane; c < classes; c += 32) probs[r * classes + c] = NAN;
        if (lane == 0) pred[r] = -1;
        return;
    }
    if (lane == 0) pred[r] = at;
    if (!probs) return;
    float sum = 0.f;
    for (int c = lane; c < classes; c += 32) sum += expf(row[c] - best);
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
    for (int c = lane; c < classes; c += 32) probs[r * classes + c] = expf(row[c] - best) / sum;
}
//@end

cudaError_t fp32_softmax_argmax(const float *logits, float *probs, int *pred, int batch, int classes)
{
    //@solution
    if (batch < 0 || classes < 1) return cudaErrorInvalidValue;
    if (batch == 0) return cudaSuccess;
    unsigned blocks = (unsigned)((batch + (long long)ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    softmax_argmax_kernel<<<blocks, 32 * ROWS_PER_BLOCK>>>(logits, probs, pred, batch, classes);
    return cudaGetLastError();
    //@starter
    //| /* TODO: a warp per row. Each lane scans columns lane, lane + 32, ...:
    //|  * its max and the first column holding it; combine the lanes with
    //|  * __shfl_xor_sync (on equal values keep the smaller column). A NaN
    //|  * anywhere in the row (__any_sync) gives NaN probabilities and pred -1.
    //|  * Then sum expf(v - max) over the row the same way, and divide. */
    //| (void)logits, (void)probs, (void)pred, (void)batch, (void)classes;
    //| return cudaSuccess;
    //@end
}
