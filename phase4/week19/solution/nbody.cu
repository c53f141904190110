/* nbody.cu — week 19, exercise 1: all-pairs gravity, naive then tiled.
 *
 * One interaction (body i feels body j) is
 *     d = x_j - x_i                      3 FADD
 *     s2 = d.d + eps2                    3 FFMA
 *     inv = rsqrtf(s2)                   1 MUFU.RSQ (approximate, 2 ulp)
 *     w = m_j * inv * inv * inv          3 FMUL
 *     a += d * w                         3 FFMA
 * 12 instructions on the FP32 pipe and one on the special-function unit;
 * the customary count is 20 flops (GPU Gems 3, ch. 31: the rsqrt counted as
 * a square root and a division). Every body j is used by all n threads, so
 * the data is tiny (16 bytes per body) and the work is n^2: compute-bound.
 *
 * naive: each thread reads body j from global memory (all lanes of a warp
 *    read the same address: one broadcast through L1).
 * tiled: a block of NB_TILE threads loads NB_TILE bodies into shared memory
 *    (one float4 per thread, coalesced), syncs, and every thread runs over
 *    the tile from shared memory (again a broadcast: one LDS.128 per
 *    interaction per warp), syncs, next tile. The inner loop is unrolled so
 *    the loop counter and branch take few issue slots. The last tile is
 *    padded with massless bodies (their term is exactly 0), and threads past
 *    n still load and sync but write nothing. */
#include "nbody.h"

#define NB_TILE 256

//@solution
/* rsqrtf() compiles to MUFU.RSQ plus a test and two multiplies that rescale
 * denormal inputs (nvcc without -ftz=true keeps denormals). s2 >= eps2 > 0 is
 * never denormal here, so ask for the flush-to-zero form directly: one
 * instruction. */
static __device__ __forceinline__ float rsqrt_ftz(float x)
{
    float y;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

static __device__ __forceinline__ void interact(float4 bi, float4 bj, float eps2, float &ax, float &ay, float &az)
{
    float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
    float s2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
    float inv = rsqrt_ftz(s2);
    float w = bj.w * inv * inv * inv;
    ax = fmaf(dx, w, ax);
    ay = fmaf(dy, w, ay);
    az = fmaf(dz, w, az);
}

static __global__ void nbody_naive_kernel(const float4 *__restrict__ pos, float *__restrict__ acc, int n, float eps2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 bi = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; j++) interact(bi, pos[j], eps2, ax, ay, az);
    acc[3 * (size_t)i + 0] = ax;
    acc[3 * (size_t)i + 1] = ay;
    acc[3 * (size_t)i + 2] = az;
}

static __global__ void __launch_bounds__(NB_TILE)
nbody_tiled_kernel(const float4 *__restrict__ pos, float *__restrict__ acc, int n, float eps2)
{
    __shared__ float4 tile[NB_TILE];
    int i = blockIdx.x * NB_TILE + threadIdx.x;
    float4 bi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int base = 0; base < n; base += NB_TILE) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f); /* m = 0: adds nothing */
        __syncthreads();
#pragma unroll 16
        for (int k = 0; k < NB_TILE; k++) interact(bi, tile[k], eps2, ax, ay, az);
        __syncthreads(); /* everyone is done with the tile before it is overwritten */
    }
    if (i < n) {
        acc[3 * (size_t)i + 0] = ax;
        acc[3 * (size_t)i + 1] = ay;
        acc[3 * (size_t)i + 2] = az;
    }
}
//@starter
//| /* TODO: a __device__ function for one interaction (the header's formula:
//|  * d = x_j - x_i, s2 = d.d + eps2, inv = rsqrtf(s2), w = m_j inv^3, a += w d),
//|  * then two kernels:
//|  *  - naive: thread i = blockIdx.x * blockDim.x + threadIdx.x loops over all
//|  *    j reading pos[j] (cast pos to const float4 *), and writes its 3 floats;
//|  *  - tiled: __shared__ float4 tile[NB_TILE]; each thread loads one body of
//|  *    the tile (a massless one past n), __syncthreads(), everyone loops over
//|  *    the tile, __syncthreads() again before the next load. Threads with
//|  *    i >= n take part in loading and syncing but write nothing.
//| * README.md, "What one interaction costs", says what the loop should compile to. */
//@end

cudaError_t nbody_accel_naive(const float *pos, float *acc, int n, float eps2)
{
    //@solution
    if (n <= 0) return n < 0 ? cudaErrorInvalidValue : cudaSuccess;
    nbody_naive_kernel<<<(n + 255) / 256, 256>>>((const float4 *)pos, acc, n, eps2);
    return cudaGetLastError();
    //@starter
    //| /* TODO: nothing to launch for n == 0; otherwise ceil(n / 256) blocks of
    //|  * 256 threads, then return cudaGetLastError(). */
    //| (void)pos, (void)acc, (void)n, (void)eps2;
    //| return cudaSuccess;
    //@end
}

cudaError_t nbody_accel_tiled(const float *pos, float *acc, int n, float eps2)
{
    //@solution
    if (n <= 0) return n < 0 ? cudaErrorInvalidValue : cudaSuccess;
    nbody_tiled_kernel<<<(n + NB_TILE - 1) / NB_TILE, NB_TILE>>>((const float4 *)pos, acc, n, eps2);
    return cudaGetLastError();
    //@starter
    //| /* TODO: ceil(n / NB_TILE) blocks of exactly NB_TILE threads (the kernel's
    //|  * tile loop assumes blockDim.x == NB_TILE); nothing for n == 0. */
    //| (void)pos, (void)acc, (void)n, (void)eps2;
    //| return cudaSuccess;
    //@end
}
