/* cubblock.cu — week 14, exercise 3: CUB's block and warp collectives with
 * your own operators.
 *
 * cub::BlockReduce and cub::WarpReduce are templates you instantiate inside
 * your kernel: shared TempStorage, then Reduce(value, op). The operator can
 * be anything associative; CUB combines partial results in a tree whose
 * shape it chooses, so the operator must give the same answer in any
 * grouping (and here, in any order).
 *
 * cubblock_row_argmax: one block of 256 threads per row. Each thread folds its
 * columns (j = tid, tid + 256, ...) into one (column, value) pair, then the
 * block reduces the pairs with an arg-max operator that is a total order:
 * NaN first, then the larger value, then the smaller column.
 * cubblock_row_amax: one warp per row, eight rows per block; each lane folds its
 * columns into one max-abs, then cub::WarpReduce finishes with shuffles.
 * Lane 0 writes. No block barrier is involved, so a warp past the last row
 * simply returns. */
#include <limits.h>
#include <cub/cub.cuh>
#include "cubblock.h"

//@solution
namespace {

constexpr int ARGMAX_THREADS = 256;
constexpr int AMAX_WARPS = 8;

typedef cub::KeyValuePair<int, float> Pair; /* key: the column, value: the element */

struct ArgMaxNaN {
    __device__ __forceinline__ Pair operator()(const Pair &a, const Pair &b) const
    {
        bool an = a.value != a.value, bn = b.value != b.value;
        if (an != bn) return an ? a : b;                                  /* a NaN beats any number */
        if (!an && a.value != b.value) return a.value > b.value ? a : b; /* the larger value */
        return a.key < b.key ? a : b;                                     /* a tie: the first column */
    }
};

struct MaxAbs {
    __device__ __forceinline__ float operator()(float a, float b) const
    {
        float fa = fabsf(a), fb = fabsf(b);
        return (fa > fb || fa != fa) ? fa : fb; /* NaN in either wins */
    }
};

__global__ void __launch_bounds__(ARGMAX_THREADS) row_argmax_kernel(const float *__restrict__ x, int cols,
                                                                    int *__restrict__ idx)
{
    typedef cub::BlockReduce<Pair, ARGMAX_THREADS> BR;
    __shared__ typename BR::TempStorage tmp;
    const float *row = x + (size_t)blockIdx.x * cols;
    ArgMaxNaN op;
    Pair best(INT_MAX, -INFINITY); /* loses to any real element, -Inf included (smaller column) */
    for (int j = threadIdx.x; j < cols; j += ARGMAX_THREADS) best = op(best, Pair(j, row[j]));
    Pair r = BR(tmp).Reduce(best, op);
    if (threadIdx.x == 0) idx[blockIdx.x] = r.key;
}

__global__ void __launch_bounds__(AMAX_WARPS * 32) row_amax_kernel(const float *__restrict__ x, int rows,
                                                                   int cols, float *__restrict__ amax)
{
    typedef cub::WarpReduce<float> WR;
    __shared__ typename WR::TempStorage tmp[AMAX_WARPS];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    long long r = (long long)blockIdx.x * AMAX_WARPS + warp;
    if (r >= rows) return; /* the whole warp: r is the same in all its lanes */
    const float *row = x + (size_t)r * cols;
    MaxAbs op;
    float m = 0.0f; /* |anything| >= 0 */
    for (int j = lane; j < cols; j += 32) m = op(m, row[j]);
    float all = WR(tmp[warp]).Reduce(m, op);
    if (lane == 0) amax[r] = all;
}

} // namespace
//@starter
//| /* TODO: two kernels and their operators.
//|  * row_argmax_kernel: one block of 256 threads per row; each thread folds
//|  *   columns tid, tid + 256, ... into a cub::KeyValuePair<int, float>
//|  *   (column, value), then cub::BlockReduce<..., 256> reduces the pairs
//|  *   with your arg-max operator (NaN, then larger value, then smaller
//|  *   column); thread 0 writes the column.
//|  * row_amax_kernel: one warp per row, 8 warps per block; each lane folds
//|  *   its columns with a max-abs operator (NaN wins), cub::WarpReduce<float>
//|  *   finishes; lane 0 writes. */
//@end

cudaError_t cubblock_row_argmax(const float *x, int rows, int cols, int *idx)
{
    //@solution
    if (rows < 0 || cols < 1) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    row_argmax_kernel<<<rows, ARGMAX_THREADS>>>(x, cols, idx);
    return cudaGetLastError();
    //@starter
    //| /* TODO: check the shape (rows < 0 or cols < 1: cudaErrorInvalidValue),
    //|  * launch one block per row, return the launch's error. */
    //| (void)x, (void)rows, (void)cols, (void)idx;
    //| return cudaErrorNotSupported;
    //@end
}

cudaError_t cubblock_row_amax(const float *x, int rows, int cols, float *amax)
{
    //@solution
    if (rows < 0 || cols < 1) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    unsigned blocks = (unsigned)(((long long)rows + AMAX_WARPS - 1) / AMAX_WARPS); /* no int overflow near INT_MAX */
    row_amax_kernel<<<blocks, AMAX_WARPS * 32>>>(x, rows, cols, amax);
    return cudaGetLastError();
    //@starter
    //| /* TODO: check the shape, launch ceil(rows / 8) blocks of 8 warps, return
    //|  * the launch's error. */
    //| (void)x, (void)rows, (void)cols, (void)amax;
    //| return cudaErrorNotSupported;
    //@end
}
