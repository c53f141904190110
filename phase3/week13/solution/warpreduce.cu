/* warpreduce.cu — week 13, exercise 1: sum, max and min of a warp by
 * shuffles.
 *
 * A shuffle moves a register from one lane to another, inside the warp, in
 * one instruction: no shared memory, no barrier. __shfl_down_sync(mask, v,
 * off) gives lane l the v of lane l + off; five of them (off = 16, 8, 4, 2,
 * 1) fold 32 values into lane 0.
 *
 * The mask names the lanes that take part, and every lane it names must
 * reach the same call. In the last, partial warp the lanes past n have left
 * the kernel: the mask must hold exactly the valid lanes (wr_tail_mask), and
 * a value shuffled down from a lane outside the mask is undefined, so a lane
 * only combines what comes from a valid lane (lane + off < valid).
 *
 * Max and min must propagate NaN: fmaxf(NaN, 1) is 1, so write the
 * comparison yourself. */
#include "warpreduce.h"

#define THREADS 256

//@solution
static __host__ __device__ __forceinline__ unsigned tail_mask(unsigned valid)
{
    return valid >= 32 ? 0xffffffffu : (1u << valid) - 1u; /* 1u << 32 is undefined */
}
//@starter
//| static __host__ __device__ __forceinline__ unsigned tail_mask(unsigned valid)
//| {
//|     /* TODO: bits 0 .. valid-1 set, for valid = 0 .. 32. Careful: 1u << 32 is
//|      * undefined behaviour in C and in CUDA (the x86 and GPU shifters give
//|      * different answers), so 32 needs its own case. */
//|     (void)valid;
//|     return 0;
//| }
//@end

unsigned wr_tail_mask(unsigned valid) { return tail_mask(valid); }

//@solution
/* NaN-propagating max and min: NaN when either side is NaN. */
static __device__ __forceinline__ float max_nan(float a, float b) { return (a > b || isnan(a)) ? a : b; }
static __device__ __forceinline__ float min_nan(float a, float b) { return (a < b || isnan(a)) ? a : b; }

static __device__ __forceinline__ float combine(int op, float a, float b)
{
    return op == WR_SUM ? a + b : op == WR_MAX ? max_nan(a, b) : min_nan(a, b);
}

/* Lane 0 gets op over the `valid` lowest lanes. Only those lanes call, and
 * mask names exactly them. After the step with offset off, lane l < off
 * holds op over lanes l, l + off, l + 2 off, ... below valid. */
static __device__ __forceinline__ float warp_reduce(int op, float v, unsigned mask, unsigned valid)
{
    unsigned lane = threadIdx.x & 31;
#pragma unroll
    for (unsigned off = 16; off > 0; off >>= 1) {
        float t = __shfl_down_sync(mask, v, off);
        if (lane + off < valid) v = combine(op, v, t);
    }
    return v;
}

static __global__ void warp_reduce_kernel(int op, const float *__restrict__ x, size_t n, float *__restrict__ out)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return; /* these lanes are outside the mask below */
    size_t g = i / 32;   /* blockDim.x is a multiple of 32: group g is one warp */
    size_t left = n - g * 32;
    unsigned valid = left < 32 ? (unsigned)left : 32u;
    float v = warp_reduce(op, x[i], tail_mask(valid), valid);
    if ((threadIdx.x & 31) == 0) out[g] = v;
}
//@starter
//| /* TODO: one thread per element, one warp per group of 32 (blocks of THREADS
//|  * threads, so warp w of the grid is group w). Each lane loads its element;
//|  * lanes past n return at once. Reduce the warp with __shfl_down_sync and the
//|  * mask tail_mask(valid), valid = how many of the group's 32 elements exist;
//|  * combine a shuffled value only when it came from a valid lane. Lane 0
//|  * writes out[group]. op is WR_SUM, WR_MAX or WR_MIN (max/min keep NaN). */
//| static __global__ void warp_reduce_kernel(int op, const float *x, size_t n, float *out)
//| {
//|     (void)op, (void)x, (void)n, (void)out;
//| }
//@end

/* ---- given: the launcher ---- */
cudaError_t wr_warp_reduce(int op, const float *x, size_t n, float *out)
{
    if (op != WR_SUM && op != WR_MAX && op != WR_MIN) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    warp_reduce_kernel<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(op, x, n, out);
    return cudaGetLastError();
}
