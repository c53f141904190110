/* fmachain.cu — week 03, exercise 2: FMA chains, to find the FP32 ceiling.
 *
 * An H100 SM has 128 FP32 lanes; each does one fused multiply-add (2 flops)
 * per clock, so the datasheet peak is 2 x 128 x SMs x clock (66.9 TFLOP/s at
 * 132 SMs and 1980 MHz). Reaching it takes two things:
 *   - independent work: an FMA that needs the result of the previous one
 *     waits for it (about 4 cycles), so each thread runs 8 independent
 *     chains and the scheduler always has one ready;
 *   - little else to issue: a scheduler issues one instruction per clock, so
 *     loop counters and branches take FMA slots; unroll the iteration loop
 *     so that they are a few percent of the instructions.
 * Memory barely matters: 8 bytes per element against 2 x iters flops. */
#include "fmachain.h"

//@solution
#define FMA_THREADS 256
#define FMA_CHAINS 8

/* Thread t of block b owns elements b*2048 + t + k*256, k = 0..7: the loads
 * and stores of a warp stay contiguous. */
static __global__ void __launch_bounds__(FMA_THREADS)
fma_kernel(const float *__restrict__ x0, float *__restrict__ y, size_t n, int iters, float a, float b)
{
    size_t base = (size_t)blockIdx.x * (FMA_THREADS * FMA_CHAINS) + threadIdx.x;
    float v[FMA_CHAINS];
#pragma unroll
    for (int k = 0; k < FMA_CHAINS; k++) {
        size_t i = base + (size_t)k * FMA_THREADS;
        v[k] = i < n ? x0[i] : 0.0f;
    }
#pragma unroll 16
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < FMA_CHAINS; k++) v[k] = fmaf(v[k], a, b);
    }
#pragma unroll
    for (int k = 0; k < FMA_CHAINS; k++) {
        size_t i = base + (size_t)k * FMA_THREADS;
        if (i < n) y[i] = v[k];
    }
}
//@starter
//| /* TODO: the kernel. A first version: one element per thread, a loop of
//|  * `iters` fmaf steps. Then give each thread several independent chains. */
//@end

cudaError_t fmachain_run(const float *x0, float *y, size_t n, int iters, float a, float b)
{
    //@solution
    if (n == 0) return cudaSuccess;
    size_t per_block = (size_t)FMA_THREADS * FMA_CHAINS, blocks = (n + per_block - 1) / per_block;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidValue;
    fma_kernel<<<(unsigned)blocks, FMA_THREADS>>>(x0, y, n, iters, a, b);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch enough blocks for n elements (nothing when n == 0) and
    //|  * return cudaGetLastError(). */
    //| (void)x0, (void)y, (void)n, (void)iters, (void)a, (void)b;
    //| return cudaSuccess;
    //@end
}
