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

static __host__ __device__ __forceinline__ unsigned tail_mask(unsigned valid)
{
    /* TODO: bits 0 .. valid-1 set, for valid = 0 .. 32. Careful: 1u << 32 is
     * undefined behaviour in C and in CUDA (the x86 and GPU shifters give
     * different answers), so 32 needs its own case. */
    (void)valid;
    return 0;
}

unsigned wr_tail_mask(unsigned valid) { return tail_mask(valid); }

/* TODO: one thread per element, one warp per group of 32 (blocks of THREADS
 * threads, so warp w of the grid is group w). Each lane loads its element;
 * lanes past n return at once. Reduce the warp with __shfl_down_sync and the
 * mask tail_mask(valid), valid = how many of the group's 32 elements exist;
 * combine a shuffled value only when it came from a valid lane. Lane 0
 * writes out[group]. op is WR_SUM, WR_MAX or WR_MIN (max/min keep NaN). */
static __global__ void warp_reduce_kernel(int op, const float *x, size_t n, float *out)
{
    (void)op, (void)x, (void)n, (void)out;
}

/* ---- given: the launcher ---- */
cudaError_t wr_warp_reduce(int op, const float *x, size_t n, float *out)
{
    if (op != WR_SUM && op != WR_MAX && op != WR_MIN) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    warp_reduce_kernel<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(op, x, n, out);
    return cudaGetLastError();
}
