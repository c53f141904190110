/* softmax.cu — week 34, exercise 1: the row softmax of masked scores.
 *
 * One block of 256 threads per row (a grid-stride loop over rows). Thread t
 * owns the row's columns t, t + 256, t + 512, ...; for rows of up to 4096
 * columns it keeps them in registers (PER of them, a template parameter), so
 * the row is read from DRAM once and written once: the least a softmax can
 * move, 8 bytes per score, as a copy does. Longer rows are read three times
 * (max, sum, write); the block's 1 to 16 KB row is then mostly in L1 on the
 * second and third reads.
 *
 * Three steps per row, each a block-wide reduction:
 *   m = max_j x_j          NaN never wins a comparison (b > a is false);
 *   s = sum_j e_j,         e_j = exp(x_j - m), exactly 0 for a masked -inf
 *                          (computing exp(-inf - m) would give 0 too, but
 *                          exp(-inf - (-inf)) is exp(NaN) in a fully masked row);
 *   p_j = e_j / s          s >= 1 whenever one entry is finite (the max gives
 *                          e = 1); s == 0 means every entry is masked, and
 *                          the row is written as zeros; a NaN x makes e, s and
 *                          so the whole row NaN.
 * Each thread reads and writes only its own columns, so P == S is safe. */
#include <math.h>
#include "softmax.h"

//@solution
#define SM_THREADS 256
#define SM_WARPS (SM_THREADS / 32)

/* The larger of a and b, where a is never NaN and a NaN b never wins. */
static __device__ __forceinline__ float max_keep(float a, float b) { return b > a ? b : a; }

/* The weight of score x under row maximum m. */
static __device__ __forceinline__ float weight(float x, float m) { return x == -INFINITY ? 0.0f : expf(x - m); }

/* Block-wide max (MAX = 1) or sum (MAX = 0); every thread returns the same
 * value: the butterfly leaves every lane of a warp with the same bits (a + b
 * == b + a), and every thread folds the warps' results in the same order. */
template <int MAX>
static __device__ float block_reduce(float v, float *sh)
{
    for (int o = 16; o; o >>= 1) {
        float w = __shfl_xor_sync(0xffffffffu, v, o);
        v = MAX ? max_keep(v, w) : v + w;
    }
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = v;
    __syncthreads();
    float r = sh[0];
    for (int w = 1; w < SM_WARPS; w++) r = MAX ? max_keep(r, sh[w]) : r + sh[w];
    __syncthreads(); /* sh is written again by the next reduction */
    return r;
}

/* PER > 0: each thread keeps its PER columns in registers (L <= PER * 256).
 * PER == 0: any L, the row read three times. */
template <int PER>
static __global__ void __launch_bounds__(SM_THREADS) softmax_rows(const float *S, float *P, size_t rows, int L)
{
    __shared__ float sh[SM_WARPS];
    for (size_t r = blockIdx.x; r < rows; r += gridDim.x) { /* the same trips for the whole block */
        const float *x = S + r * (size_t)L;
        float *y = P + r * (size_t)L;
        float v[PER > 0 ? PER : 1];
        float m = -INFINITY;
        if constexpr (PER > 0) {
#pragma unroll
            for (int k = 0; k < PER; k++) {
                int j = threadIdx.x + k * SM_THREADS;
                v[k] = j < L ? x[j] : -INFINITY; /* past the row: masked, weight 0 */
                m = max_keep(m, v[k]);
            }
        } else {
            for (int j = threadIdx.x; j < L; j += SM_THREADS) m = max_keep(m, x[j]);
        }
        m = block_reduce<1>(m, sh);
        float s = 0.0f;
        if constexpr (PER > 0) {
#pragma unroll
            for (int k = 0; k < PER; k++) {
                v[k] = weight(v[k], m);
                s += v[k];
            }
        } else {
            for (int j = threadIdx.x; j < L; j += SM_THREADS) s += weight(x[j], m);
        }
        s = block_reduce<0>(s, sh);
        const float inv = s == 0.0f ? 0.0f : 1.0f / s; /* all masked: zeros; NaN stays NaN */
        if constexpr (PER > 0) {
#pragma unroll
            for (int k = 0; k < PER; k++) {
                int j = threadIdx.x + k * SM_THREADS;
                if (j < L) y[j] = v[k] * inv;
            }
        } else {
            for (int j = threadIdx.x; j < L; j += SM_THREADS) y[j] = weight(x[j], m) * inv;
        }
    }
}
//@starter
//| /* TODO: a kernel for the row softmax. Suggested shape: one block of 256
//|  * threads per row (grid-stride over rows, size_t offsets), thread t taking
//|  * columns t, t + 256, ...; a block-wide max (shuffles, then one value per
//|  * warp in shared memory), then a block-wide sum of exp(x - max), then
//|  * write exp(x - max) / sum. The rules in softmax.h: a -inf gets weight
//|  * exactly 0 (test for it: exp(-inf - (-inf)) is NaN); a row whose sum is
//|  * 0 is all masked and becomes zeros; a NaN must spread to its row (so the
//|  * max must skip it, and the sum must not). */
//@end

cudaError_t softmax_scores(const float *S, float *P, size_t rows, int L)
{
    //@solution
    if (L < 0) return cudaErrorInvalidValue;
    if (rows == 0 || L == 0) return cudaSuccess;
    unsigned blocks = (unsigned)(rows < (1u << 20) ? rows : (1u << 20));
    if (L <= 256) softmax_rows<1><<<blocks, SM_THREADS>>>(S, P, rows, L);
    else if (L <= 512) softmax_rows<2><<<blocks, SM_THREADS>>>(S, P, rows, L);
    else if (L <= 1024) softmax_rows<4><<<blocks, SM_THREADS>>>(S, P, rows, L);
    else if (L <= 2048) softmax_rows<8><<<blocks, SM_THREADS>>>(S, P, rows, L);
    else if (L <= 4096) softmax_rows<16><<<blocks, SM_THREADS>>>(S, P, rows, L);
    else softmax_rows<0><<<blocks, SM_THREADS>>>(S, P, rows, L);
    return cudaGetLastError();
    //@starter
    //| /* TODO: refuse L < 0, launch nothing for an empty input, launch your
    //|  * kernel and return cudaGetLastError(). */
    //| (void)S, (void)P, (void)rows, (void)L;
    //| return cudaSuccess;
    //@end
}
