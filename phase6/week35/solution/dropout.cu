/* dropout.cu — week 35, exercise 2: bias + dropout + residual in one kernel.
 *
 * After an attention or MLP projection a transformer block computes
 *     y = residual + dropout(x + bias, p)
 * Op by op that is three passes over DRAM (bias add, dropout, residual add)
 * and two temporaries; fused, x and the residual are read once, y and the
 * mask written once: 13 bytes an element (4 + 4 read, 4 + 1 written) and
 * a few flops, so the kernel is memory-bound and its yardstick is a copy.
 *
 * The random numbers come from Philox4x32-10 through the curand device API
 * (header only: curand_kernel.h, nothing to link). Philox is counter-based:
 * curand_init(seed, subsequence, offset) sets a counter and a key, and the
 * four uniforms of curand_uniform4 are one block of ten rounds. Each thread
 * takes the group of four elements g = i / 4 and asks for subsequence g, so
 * the mask of element i is a function of (seed, offset, i): the same for any
 * grid, any alignment, any shape, and the CPU (philox.cu) can check it.
 * Nothing is carried from one group to the next, so the compiler keeps the
 * state in registers and drops every block nobody reads (curand_init
 * computes one after each of its two skips, curand_uniform4 one for a next
 * call that never comes): one Philox block a group in the SASS.
 *
 * Two kernels: a float4 one when cols % 4 == 0 and the pointers allow 16-byte
 * loads (4-byte mask stores), walking rows with blockIdx.y so the bias column
 * comes without a division; and a scalar one for everything else, walking
 * the same groups of four over the flattened array. Both draw the same
 * numbers for the same element. */
#include <stdint.h>
#include <curand_kernel.h>
#include "dropout.h"

#define DR_THREADS 256

//@solution
/* The four uniforms of group g: one Philox block. */
static __device__ __forceinline__ float4 group_uniforms(unsigned long long seed, unsigned long long offset, size_t g)
{
    curandStatePhilox4_32_10_t st;
    curand_init(seed, (unsigned long long)g, 4ull * offset, &st);
    return curand_uniform4(&st);
}

/* One element: a select, so a dropped NaN or Inf never reaches y. */
static __device__ __forceinline__ float drop_one(float xv, float bv, float rv, float u, float p, float scale,
                                                 unsigned char *keep)
{
    const bool k = u > p;
    *keep = k;
    return k ? fmaf(xv + bv, scale, rv) : rv;
}

/* cols % 4 == 0; x, bias, r, y 16-byte aligned, mask 4-byte aligned. Group g
 * of row `row` is float4 number g of the flattened arrays and float4 number c
 * of bias. */
static __global__ void __launch_bounds__(DR_THREADS)
dropout_vec4(const float *__restrict__ x, const float *__restrict__ bias, const float *__restrict__ r,
             float *__restrict__ y, uint8_t *__restrict__ mask, int rows, int cols, float p, float scale,
             unsigned long long seed, unsigned long long offset)
{
    const int width = cols / 4;
    const int step = gridDim.x * DR_THREADS;
    for (size_t row = blockIdx.y; row < (size_t)rows; row += gridDim.y) {
        for (int c = blockIdx.x * DR_THREADS + threadIdx.x; c < width; c += step) {
            const size_t g = row * (size_t)width + (size_t)c;
            const float4 xv = reinterpret_cast<const float4 *>(x)[g];
            const float4 rv = reinterpret_cast<const float4 *>(r)[g];
            const float4 bv = reinterpret_cast<const float4 *>(bias)[c];
            const float4 u = group_uniforms(seed, offset, g);
            uchar4 m;
            float4 o;
            o.x = drop_one(xv.x, bv.x, rv.x, u.x, p, scale, &m.x);
            o.y = drop_one(xv.y, bv.y, rv.y, u.y, p, scale, &m.y);
            o.z = drop_one(xv.z, bv.z, rv.z, u.z, p, scale, &m.z);
            o.w = drop_one(xv.w, bv.w, rv.w, u.w, p, scale, &m.w);
            reinterpret_cast<float4 *>(y)[g] = o;
            reinterpret_cast<uchar4 *>(mask)[g] = m;
        }
    }
}

/* Any shape and alignment: group g is elements 4g .. 4g+3 of the flattened
 * arrays (fewer in the last group); the column of the first comes from one
 * division, the next ones by counting. */
static __global__ void __launch_bounds__(DR_THREADS)
dropout_scalar(const float *__restrict__ x, const float *__restrict__ bias, const float *__restrict__ r,
               float *__restrict__ y, uint8_t *__restrict__ mask, size_t n, int cols, float p, float scale,
               unsigned long long seed, unsigned long long offset)
{
    const size_t groups = (n + 3) / 4, step = (size_t)gridDim.x * DR_THREADS;
    for (size_t g = (size_t)blockIdx.x * DR_THREADS + threadIdx.x; g < groups; g += step) {
        const float4 u = group_uniforms(seed, offset, g);
        const float uk[4] = { u.x, u.y, u.z, u.w };
        size_t i = 4 * g;
        int col = (int)(i % (size_t)cols);
#pragma unroll
        for (int k = 0; k < 4; k++, i++) {
            if (i < n) {
                unsigned char keep;
                y[i] = drop_one(x[i], bias[col], r[i], uk[k], p, scale, &keep);
                mask[i] = keep;
            }
            if (++col == cols) col = 0;
        }
    }
}

static unsigned grid_for(size_t work)
{
    size_t b = (work + DR_THREADS - 1) / DR_THREADS;
    return (unsigned)(b < 65535u * 32u ? b : 65535u * 32u); /* the grid-stride loops cover the rest */
}
//@starter
//| /* TODO: the fused kernel. Each thread takes a group of four elements,
//|  * g = i / 4 of the flattened array, and draws its four uniforms with one
//|  * Philox block:
//|  *     curandStatePhilox4_32_10_t st;
//|  *     curand_init(seed, g, 4 * offset, &st);     // subsequence g: the same for any launch
//|  *     float4 u = curand_uniform4(&st);           // u.x is element 4g, u.y 4g + 1, ...
//|  * keep = u > p; y = keep ? r + (x + bias[col]) * scale : r (a select);
//|  * mask = keep. Use size_t for element and group indices. For speed: float4
//|  * loads of x and r and a uchar4 store of the mask when cols % 4 == 0 and the
//|  * pointers are aligned (rows on blockIdx.y, so the column needs no
//|  * division), and a scalar kernel over the same groups for the rest. */
//@end

cudaError_t dropout_bias_residual(const float *x, const float *bias, const float *residual, float *y,
                                  uint8_t *mask, int rows, int cols, float p, unsigned long long seed,
                                  unsigned long long offset)
{
    //@solution
    if (!(p >= 0.0f && p <= 1.0f)) return cudaErrorInvalidValue; /* NaN fails both tests */
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    const float scale = p < 1.0f ? 1.0f / (1.0f - p) : 0.0f; /* p == 1 keeps nothing: scale unused */
    const size_t n_elems = (size_t)rows * (size_t)cols;
    const int vec = cols % 4 == 0 &&
                    (((uintptr_t)x | (uintptr_t)bias | (uintptr_t)residual | (uintptr_t)y) & 15) == 0 &&
                    ((uintptr_t)mask & 3) == 0;
    if (vec) {
        const dim3 grid(grid_for((size_t)cols / 4), (unsigned)(rows < 65535 ? rows : 65535));
        dropout_vec4<<<grid, DR_THREADS>>>(x, bias, residual, y, mask, rows, cols, p, scale, seed, offset);
    } else {
        const unsigned blocks = grid_for((n_elems + 3) / 4);
        dropout_scalar<<<blocks, DR_THREADS>>>(x, bias, residual, y, mask, n_elems, cols, p, scale, seed, offset);
    }
    return cudaGetLastError();
    //@starter
    //| /* TODO: cudaErrorInvalidValue unless 0 <= p <= 1 (NaN included); nothing
    //|  * to do for rows or cols <= 0; scale = 1.0f / (1.0f - p) once, on the host
    //|  * (p == 1 keeps nothing); choose the kernel, launch, and return
    //|  * cudaGetLastError(). */
    //| (void)x, (void)bias, (void)residual, (void)y, (void)mask, (void)rows, (void)cols, (void)p, (void)seed;
    //| (void)offset;
    //| return cudaSuccess;
    //@end
}
