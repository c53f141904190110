/* ew.cu — week 05, exercise 1: element-wise kernels and the three ways to
 * index threads.
 *
 * ew_scale_relu: a 1D grid-stride loop. The grid is sized to the machine (a few
 * blocks per SM), not to n, and each thread walks the array with a stride of
 * the whole grid, so any n works with one launch and the loop body stays the
 * same for n = 1 and n = 2^32. With 16-byte aligned pointers each step moves
 * a float4; the scalar loop does the tail and misaligned arrays.
 * ew_add2d: a 2D grid, x across columns (contiguous, coalesced), y across rows.
 * ew_tensor3_relu: a 3D grid over a strided input view, writing contiguous
 * output: x to the innermost dimension so the stores coalesce. */
#include <stdint.h>
#include "ew.h"

//@solution
static __device__ __forceinline__ float relu_scaled(float v, float alpha)
{
    v *= alpha;
    return v < 0.f ? 0.f : v; /* NaN compares false: it passes through */
}

static __global__ void scale_relu_scalar(const float *__restrict__ x, float *__restrict__ y, size_t n, float alpha)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = relu_scaled(x[i], alpha);
}

static __global__ void scale_relu_vec4(const float4 *__restrict__ x, float4 *__restrict__ y, size_t n4, float alpha)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = x[i];
        y[i] = make_float4(relu_scaled(v.x, alpha), relu_scaled(v.y, alpha), relu_scaled(v.z, alpha),
                           relu_scaled(v.w, alpha));
    }
}

/* A few resident blocks per SM: enough loads in flight to saturate memory. */
static unsigned grid_for(size_t work, int threads)
{
    static int sms = 0;
    if (!sms) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0) sms = 80;
    }
    size_t b = (work + threads - 1) / threads, cap = (size_t)sms * 8;
    return (unsigned)(b < cap ? b : cap);
}
//@starter
//| /* TODO: a grid-stride kernel: i from blockIdx.x * blockDim.x + threadIdx.x,
//|  * step gridDim.x * blockDim.x, y[i] = relu(alpha * x[i]) with NaN kept. */
//@end

cudaError_t ew_scale_relu(const float *x, float *y, size_t n, float alpha)
{
    //@solution
    if (n == 0) return cudaSuccess;
    const int threads = 256;
    size_t done = 0;
    if (((((uintptr_t)x) | ((uintptr_t)y)) & 15) == 0 && n >= 4) {
        size_t n4 = n / 4;
        scale_relu_vec4<<<grid_for(n4, threads), threads>>>((const float4 *)x, (float4 *)y, n4, alpha);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        done = n4 * 4;
    }
    if (done < n) scale_relu_scalar<<<grid_for(n - done, threads), threads>>>(x + done, y + done, n - done, alpha);
    return cudaGetLastError();
    //@starter
    //| /* TODO: launch your kernel (nothing when n == 0) and return cudaGetLastError(). */
    //| (void)x, (void)y, (void)n, (void)alpha;
    //| return cudaSuccess;
    //@end
}

//@solution
static __global__ void add2d_kernel(const float *__restrict__ a, size_t lda, const float *__restrict__ b, size_t ldb,
                                    float *__restrict__ c, size_t ldc, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += gridDim.y * blockDim.y)
        if (col < cols) c[row * ldc + col] = a[row * lda + col] + b[row * ldb + col];
}
//@starter
//| /* TODO: a 2D kernel: col from the x coordinates, row from y; guard both. */
//@end

cudaError_t ew_add2d(const float *a, size_t lda, const float *b, size_t ldb, float *c, size_t ldc, int rows, int cols)
{
    //@solution
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    dim3 block(32, 8);
    unsigned gy = (unsigned)((rows + 7) / 8);
    dim3 grid((unsigned)((cols + 31) / 32), gy < 65535 ? gy : 65535);
    add2d_kernel<<<grid, block>>>(a, lda, b, ldb, c, ldc, rows, cols);
    return cudaGetLastError();
    //@starter
    //| /* TODO: dim3 block(32, 8); a grid covering cols x rows; launch; return the error. */
    //| (void)a, (void)lda, (void)b, (void)ldb, (void)c, (void)ldc, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}

//@solution
static __global__ void tensor3_kernel(const float *__restrict__ x, long long s0, long long s1, long long s2,
                                      float *__restrict__ y, int n0, int n1, int n2, float alpha)
{
    for (int i = blockIdx.z; i < n0; i += gridDim.z)
        for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < n1; j += gridDim.y * blockDim.y)
            for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n2; k += gridDim.x * blockDim.x)
                y[((size_t)i * n1 + j) * n2 + k] = relu_scaled(x[i * s0 + j * s1 + k * s2], alpha);
}
//@starter
//| /* TODO: a 3D kernel: k (innermost, contiguous in y) from x, j from y, i from
//|  * blockIdx.z; loop each one past the grid's reach. */
//@end

cudaError_t ew_tensor3_relu(const float *x, const long long st[3], float *y, const int shape[3], float alpha)
{
    //@solution
    if (shape[0] <= 0 || shape[1] <= 0 || shape[2] <= 0) return cudaSuccess;
    dim3 block(32, 8);
    unsigned gx = (unsigned)((shape[2] + 31) / 32), gy = (unsigned)((shape[1] + 7) / 8), gz = (unsigned)shape[0];
    dim3 grid(gx < 65535 ? gx : 65535, gy < 65535 ? gy : 65535, gz < 65535 ? gz : 65535);
    tensor3_kernel<<<grid, block>>>(x, st[0], st[1], st[2], y, shape[0], shape[1], shape[2], alpha);
    return cudaGetLastError();
    //@starter
    //| /* TODO: dim3 block(32, 8); grid (ceil(shape[2]/32), ceil(shape[1]/8), shape[0]),
    //|  * each capped at 65535; nothing to do when any shape entry is 0. */
    //| (void)x, (void)st, (void)y, (void)shape, (void)alpha;
    //| return cudaSuccess;
    //@end
}
