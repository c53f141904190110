/* yard_cub_rowsum.cu — week 13, given: row sums by CUB, the yardstick of
 * w13.shfl-cub. Two ways CUB offers: its block primitives in a kernel of
 * one block a row (how CUB's documentation writes a per-row reduction), and
 * the device-wide segmented reduction. The benchmark times both on the same
 * data and takes the faster as the yardstick. */
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include "yard_cub_rowsum.h"

#define YC_THREADS 256
#define YC_ITEMS 4
#define YC_TILE (YC_THREADS * YC_ITEMS)

static __global__ void __launch_bounds__(YC_THREADS) yard_cub_rowsum_kernel(const float *__restrict__ x, size_t cols,
                                                                            float *__restrict__ out)
{
    using Load = cub::BlockLoad<float, YC_THREADS, YC_ITEMS, cub::BLOCK_LOAD_VECTORIZE>;
    using Reduce = cub::BlockReduce<float, YC_THREADS>;
    __shared__ typename Reduce::TempStorage tmp;
    const size_t base = (size_t)blockIdx.x * cols; /* this block's row */
    float acc = 0.0f, v[YC_ITEMS];
    size_t c = 0;
    for (; c + YC_TILE <= cols; c += YC_TILE) {
        Load().Load(x + base + c, v); /* vectorised where x + base + c is 16-byte aligned */
#pragma unroll
        for (int i = 0; i < YC_ITEMS; i++) acc += v[i];
    }
    if (c < cols) {
        Load().Load(x + base + c, v, (int)(cols - c), 0.0f);
#pragma unroll
        for (int i = 0; i < YC_ITEMS; i++) acc += v[i];
    }
    acc = Reduce(tmp).Sum(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

extern "C" cudaError_t yard_cub_rowsum_block(const float *x, size_t rows, size_t cols, float *out)
{
    if (rows >= ((size_t)1 << 31)) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    yard_cub_rowsum_kernel<<<(unsigned)rows, YC_THREADS>>>(x, cols, out);
    return cudaGetLastError();
}

/* Row r starts at r * cols. */
struct row_start {
    long long cols;
    __host__ __device__ long long operator()(long long r) const { return r * cols; }
};

static auto row_starts(size_t cols)
{
    return thrust::make_transform_iterator(thrust::make_counting_iterator<long long>(0), row_start{ (long long)cols });
}

extern "C" size_t yard_cub_rowsum_seg_bytes(size_t rows, size_t cols)
{
    size_t b = 0;
    auto begin = row_starts(cols);
    cub::DeviceSegmentedReduce::Sum(nullptr, b, (const float *)nullptr, (float *)nullptr, (long long)rows, begin, begin + 1);
    return b;
}

extern "C" cudaError_t yard_cub_rowsum_seg(void *tmp, size_t tmp_bytes, const float *x, size_t rows, size_t cols, float *out)
{
    auto begin = row_starts(cols);
    return cub::DeviceSegmentedReduce::Sum(tmp, tmp_bytes, x, out, (long long)rows, begin, begin + 1);
}
