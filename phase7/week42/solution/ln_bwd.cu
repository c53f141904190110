/* ln_bwd.cu — week 42, exercise 1: the LayerNorm backward kernels (ln_bwd.h
 * has the contract), templated on the element type so that gradcheck runs
 * them in double; the given forward of both types; and the torch binding
 * (at the end, under WB_TORCH_EXT: given).
 *
 * dx is a row reduction (two sums over the row, then an element-wise pass):
 * one block a row, as in the forward. dweight and dbias are sums down the
 * rows, one per column: a column reduction, done in two stages so that it
 * is deterministic. Stage one: a block owns 32 columns and a chunk of rows;
 * its threads walk down the chunk (a warp reads 32 neighbouring floats of a
 * row: coalesced), add in registers, then across threadIdx.y in shared
 * memory, and write one partial a column a chunk into the workspace. Stage
 * two adds each column's partials in chunk order. No atomics: atomicAdd
 * would be correct but its order, and so its rounding, changes run to run. */
#include <math.h>
#include <stdint.h>
#include <type_traits>
#include "ln_bwd.h"

#define LNB_FULL 0xffffffffu
#define LNB_THREADS 256  /* dx: threads a row */
#define LNB_TY 8         /* dweight/dbias stage one: rows in flight a block */
#define LNB_MAX_CHUNKS 512
//@solution
#define LNB_V 4                    /* fused float path: float4 groups a thread holds */
#define LNB_FUSED_MAX_THREADS 512  /* so rows up to 4 * LNB_V * 512 = 8192 floats, in 128 registers */
#define LNB_FUSED_MAX_BLOCKS 1024
//@starter
//@end

/* The block's sum of v, the same bits in every thread (sh: 32 values). */
template <typename T>
static __device__ T lnb_block_sum(T v, T *sh)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(LNB_FULL, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    __syncthreads();
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    T s = 0;
    for (int i = 0; i < warps; i++) s += sh[i];
    return s;
}

/* ---------------------------------------------------------------- the forward (given) */

template <typename T>
static __global__ void __launch_bounds__(LNB_THREADS)
    lnf42(const T *__restrict__ x, const T *__restrict__ w, const T *__restrict__ b, T *__restrict__ y,
          T *__restrict__ mean_out, T *__restrict__ rstd_out, int rows, int cols, T eps)
{
    __shared__ T sh[64];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const T *xr = x + (size_t)row * cols;
        T s = 0;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) s += xr[c];
        const T mean = lnb_block_sum(s, sh) / (T)cols;
        T q = 0;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) q += (xr[c] - mean) * (xr[c] - mean);
        const T rstd = (T)1 / sqrt(lnb_block_sum(q, sh + 32) / (T)cols + eps);
        if (threadIdx.x == 0) mean_out[row] = mean, rstd_out[row] = rstd;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(size_t)row * cols + c] = (xr[c] - mean) * rstd * w[c] + b[c];
    }
}

template <typename T>
static cudaError_t lnf42_launch(const T *x, const T *w, const T *b, T *y, T *mean, T *rstd, int rows, int cols, T eps)
{
    if (rows < 0 || !(eps >= 0)) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    if (cols <= 0) return cudaErrorInvalidValue;
    lnf42<T><<<rows, LNB_THREADS>>>(x, w, b, y, mean, rstd, rows, cols, eps);
    return cudaGetLastError();
}

cudaError_t ln_bwd_fwd_f32(const float *x, const float *weight, const float *bias, float *y, float *mean, float *rstd,
                           int rows, int cols, float eps)
{
    return lnf42_launch<float>(x, weight, bias, y, mean, rstd, rows, cols, eps);
}

cudaError_t ln_bwd_fwd_f64(const double *x, const double *weight, const double *bias, double *y, double *mean,
                           double *rstd, int rows, int cols, double eps)
{
    return lnf42_launch<double>(x, weight, bias, y, mean, rstd, rows, cols, eps);
}

/* ---------------------------------------------------------------- the backward */

/* Partial sums a column: one per chunk of rows, from the shape only. */
static int lnb_chunks(int rows)
{
    int c = (rows + 63) / 64;
    return c < 1 ? 1 : c > LNB_MAX_CHUNKS ? LNB_MAX_CHUNKS : c;
}

size_t ln_bwd_workspace_bytes(int rows, int cols, size_t elem_bytes)
{
    //@solution
    if (rows <= 0 || cols <= 0) return 0;
    /* room for either path: chunk partials, or one partial a block of the fused kernel */
    const size_t parts = (size_t)(rows < LNB_FUSED_MAX_BLOCKS ? rows : LNB_FUSED_MAX_BLOCKS);
    const size_t chunks = (size_t)lnb_chunks(rows);
    return 2 * (parts > chunks ? parts : chunks) * (size_t)cols * elem_bytes;
    //@starter
    //| /* TODO: room for your partial sums of dweight and dbias (two per column per
    //|  * chunk of rows), from rows and cols only. */
    //| (void)rows, (void)cols, (void)elem_bytes;
    //| return 0;
    //@end
}

//@solution
/* dx, one block a row: sums of g and g * xhat, then the element-wise pass
 * (the second read of the row comes mostly from L2). */
template <typename T>
static __global__ void __launch_bounds__(LNB_THREADS)
    lnb_dx(const T *__restrict__ x, const T *__restrict__ dy, const T *__restrict__ w, const T *__restrict__ mean,
           const T *__restrict__ rstd, T *__restrict__ dx, int rows, int cols)
{
    __shared__ T sh[64];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const size_t base = (size_t)row * cols;
        const T m = mean[row], r = rstd[row];
        T sg = 0, sgx = 0;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            const T g = dy[base + c] * w[c], xh = (x[base + c] - m) * r;
            sg += g;
            sgx += g * xh;
        }
        const T a = lnb_block_sum(sg, sh) / (T)cols, bsum = lnb_block_sum(sgx, sh + 32) / (T)cols;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            const T g = dy[base + c] * w[c], xh = (x[base + c] - m) * r;
            dx[base + c] = r * (g - a - xh * bsum);
        }
    }
}

/* The fused float path, for rows that fit in registers (cols % 4 == 0,
 * 16-byte aligned, cols <= 4 * LNB_V * 512). One pass over DRAM: x and dy
 * read once, dx written once. A block walks rows blockIdx.x, + gridDim.x,
 * ...; each thread keeps its LNB_V float4 groups of the row (group
 * g = threadIdx.x + k * blockDim.x, so a warp's loads are contiguous),
 * computes dx from them after one block reduction of the two row sums, and
 * adds dy * xhat and dy into its own column partials, which stay in
 * registers across all the block's rows. At the end each block writes one
 * partial a column; lnb_dwdb_sum adds them in block order (deterministic
 * for a given grid, and the grid depends on the device only). */
static __device__ __forceinline__ float2 lnb_block_sum2(float2 v, float2 *sh)
{
    for (int o = 16; o > 0; o >>= 1) {
        v.x += __shfl_xor_sync(LNB_FULL, v.x, o);
        v.y += __shfl_xor_sync(LNB_FULL, v.y, o);
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    __syncthreads(); /* the previous row's readers of sh are done */
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    float2 s = make_float2(0.f, 0.f);
    for (int i = 0; i < warps; i++) s.x += sh[i].x, s.y += sh[i].y;
    return s;
}

static __global__ void __launch_bounds__(LNB_FUSED_MAX_THREADS)
    lnb_fused(const float *__restrict__ x, const float *__restrict__ dy, const float *__restrict__ w,
              const float *__restrict__ mean, const float *__restrict__ rstd, float *__restrict__ dx,
              float *__restrict__ part, int rows, int cols)
{
    __shared__ float2 sh[32];
    const int groups = cols / 4;
    const float inv_n = 1.0f / (float)cols;
    float4 aw[LNB_V], ab[LNB_V];
#pragma unroll
    for (int k = 0; k < LNB_V; k++) aw[k] = ab[k] = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float4 *xr = reinterpret_cast<const float4 *>(x + (size_t)row * cols);
        const float4 *dr = reinterpret_cast<const float4 *>(dy + (size_t)row * cols);
        const float m = __ldg(mean + row), r = __ldg(rstd + row);
        float4 xv[LNB_V], dv[LNB_V];
        float2 s = make_float2(0.f, 0.f);
#pragma unroll
        for (int k = 0; k < LNB_V; k++) {
            const int g = threadIdx.x + k * blockDim.x;
            const bool in = g < groups;
            xv[k] = in ? __ldcs(xr + g) : make_float4(0.f, 0.f, 0.f, 0.f); /* read once: evict first */
            dv[k] = in ? __ldcs(dr + g) : make_float4(0.f, 0.f, 0.f, 0.f);
            if (in) {
                const float4 wg = __ldg(reinterpret_cast<const float4 *>(w) + g);
                /* xhat of the zeros past the end is not 0, but their dy is: they add nothing */
                xv[k].x = (xv[k].x - m) * r, xv[k].y = (xv[k].y - m) * r;
                xv[k].z = (xv[k].z - m) * r, xv[k].w = (xv[k].w - m) * r;
                const float gx = dv[k].x * wg.x, gy = dv[k].y * wg.y, gz = dv[k].z * wg.z, gw = dv[k].w * wg.w;
                s.x += (gx + gy) + (gz + gw);
                s.y += (gx * xv[k].x + gy * xv[k].y) + (gz * xv[k].z + gw * xv[k].w);
                aw[k].x = fmaf(dv[k].x, xv[k].x, aw[k].x), aw[k].y = fmaf(dv[k].y, xv[k].y, aw[k].y);
                aw[k].z = fmaf(dv[k].z, xv[k].z, aw[k].z), aw[k].w = fmaf(dv[k].w, xv[k].w, aw[k].w);
                ab[k].x += dv[k].x, ab[k].y += dv[k].y, ab[k].z += dv[k].z, ab[k].w += dv[k].w;
            }
        }
        s = lnb_block_sum2(s, sh);
        const float a = s.x * inv_n, b = s.y * inv_n;
        float4 *out = reinterpret_cast<float4 *>(dx + (size_t)row * cols);
#pragma unroll
        for (int k = 0; k < LNB_V; k++) {
            const int g = threadIdx.x + k * blockDim.x;
            if (g >= groups) continue;
            const float4 wg = __ldg(reinterpret_cast<const float4 *>(w) + g);
            float4 o;
            o.x = r * (dv[k].x * wg.x - a - xv[k].x * b);
            o.y = r * (dv[k].y * wg.y - a - xv[k].y * b);
            o.z = r * (dv[k].z * wg.z - a - xv[k].z * b);
            o.w = r * (dv[k].w * wg.w - a - xv[k].w * b);
            __stcs(out + g, o);
        }
    }
    float4 *pw = reinterpret_cast<float4 *>(part + (size_t)blockIdx.x * cols);
    float4 *pb = reinterpret_cast<float4 *>(part + (size_t)(gridDim.x + blockIdx.x) * cols);
#pragma unroll
    for (int k = 0; k < LNB_V; k++) {
        const int g = threadIdx.x + k * blockDim.x;
        if (g < groups) pw[g] = aw[k], pb[g] = ab[k];
    }
}

/* Blocks of the fused kernel that fit on the GPU at once (so no block waits
 * for a second wave), found once a device; the error of the query otherwise. */
static cudaError_t lnb_fused_grid(int threads, int *grid)
{
    static int cached_dev = -1, cached_threads = 0, cached = 0;
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    if (dev != cached_dev || threads != cached_threads) {
        int sms = 0, per_sm = 0;
        if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
            (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lnb_fused, threads, 0)) != cudaSuccess)
            return e;
        cached_dev = dev, cached_threads = threads, cached = sms * (per_sm > 0 ? per_sm : 1);
    }
    *grid = cached;
    return cudaSuccess;
}

/* Stage one: block (32, LNB_TY) owns columns 32 blockIdx.x .. + 31 and chunk
 * blockIdx.y of the rows; writes part[chunk][col] and part[chunks + chunk][col]. */
template <typename T>
static __global__ void __launch_bounds__(32 * LNB_TY)
    lnb_dwdb_part(const T *__restrict__ x, const T *__restrict__ dy, const T *__restrict__ mean,
                  const T *__restrict__ rstd, T *__restrict__ part, int rows, int cols, int chunk_rows)
{
    __shared__ T sw[LNB_TY][33], sb[LNB_TY][33];
    const int col = blockIdx.x * 32 + threadIdx.x, chunks = gridDim.y;
    const int r0 = blockIdx.y * chunk_rows, r1 = min(rows, r0 + chunk_rows);
    T aw = 0, ab = 0;
    if (col < cols)
        for (int r = r0 + threadIdx.y; r < r1; r += LNB_TY) {
            const size_t i = (size_t)r * cols + col;
            const T d = dy[i];
            aw += d * ((x[i] - mean[r]) * rstd[r]);
            ab += d;
        }
    sw[threadIdx.y][threadIdx.x] = aw, sb[threadIdx.y][threadIdx.x] = ab;
    __syncthreads();
    if (threadIdx.y == 0 && col < cols) {
        T tw = 0, tb = 0;
        for (int k = 0; k < LNB_TY; k++) tw += sw[k][threadIdx.x], tb += sb[k][threadIdx.x];
        part[(size_t)blockIdx.y * cols + col] = tw;
        part[(size_t)(chunks + blockIdx.y) * cols + col] = tb;
    }
}

/* Stage two: each column's partials in chunk order. */
template <typename T>
static __global__ void lnb_dwdb_sum(const T *__restrict__ part, T *__restrict__ dw, T *__restrict__ db, int cols,
                                    int chunks)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    T tw = 0, tb = 0;
    for (int k = 0; k < chunks; k++) tw += part[(size_t)k * cols + col], tb += part[(size_t)(chunks + k) * cols + col];
    dw[col] = tw, db[col] = tb;
}

template <typename T>
static __global__ void lnb_zero(T *a, T *b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 0, b[i] = 0;
}

template <typename T>
static cudaError_t lnb_launch(const T *x, const T *dy, const T *w, const T *mean, const T *rstd, T *dx, T *dw, T *db,
                              void *ws, int rows, int cols)
{
    if (rows < 0 || cols < 0) return cudaErrorInvalidValue;
    if (cols == 0) return cudaSuccess;
    if (rows == 0) {
        lnb_zero<T><<<(cols + 255) / 256, 256>>>(dw, db, cols);
        return cudaGetLastError();
    }
    if constexpr (std::is_same<T, float>::value) {
        if (cols % 4 == 0 && cols <= 4 * LNB_V * LNB_FUSED_MAX_THREADS &&
            ((uintptr_t)x | (uintptr_t)dy | (uintptr_t)w | (uintptr_t)dx | (uintptr_t)ws) % 16 == 0) {
            const int threads = ((cols / 4 + LNB_V - 1) / LNB_V + 31) / 32 * 32;
            int grid = 0;
            const cudaError_t e = lnb_fused_grid(threads, &grid);
            if (e != cudaSuccess) return e;
            grid = grid < rows ? grid : rows;
            grid = grid < LNB_FUSED_MAX_BLOCKS ? grid : LNB_FUSED_MAX_BLOCKS;
            lnb_fused<<<grid, threads>>>(x, dy, w, mean, rstd, dx, (float *)ws, rows, cols);
            lnb_dwdb_sum<float><<<(cols + 255) / 256, 256>>>((const float *)ws, dw, db, cols, grid);
            return cudaGetLastError();
        }
    }
    lnb_dx<T><<<rows, LNB_THREADS>>>(x, dy, w, mean, rstd, dx, rows, cols);
    const int chunks = lnb_chunks(rows), chunk_rows = (rows + chunks - 1) / chunks;
    const dim3 grid((cols + 31) / 32, chunks), block(32, LNB_TY);
    lnb_dwdb_part<T><<<grid, block>>>(x, dy, mean, rstd, (T *)ws, rows, cols, chunk_rows);
    lnb_dwdb_sum<T><<<(cols + 255) / 256, 256>>>((const T *)ws, dw, db, cols, chunks);
    return cudaGetLastError();
}
//@starter
//| /* TODO: your kernels: dx (one block a row, two block sums), the column sums
//|  * of dweight and dbias in two deterministic stages, and a launcher templated
//|  * on the element type. README, "The kernels". */
//@end

cudaError_t ln_bwd_f32(const float *x, const float *dy, const float *weight, const float *mean, const float *rstd,
                       float *dx, float *dweight, float *dbias, void *workspace, int rows, int cols)
{
    //@solution
    return lnb_launch<float>(x, dy, weight, mean, rstd, dx, dweight, dbias, workspace, rows, cols);
    //@starter
    //| /* TODO: call your launcher for float (the same template as ln_bwd_f64). */
    //| (void)x, (void)dy, (void)weight, (void)mean, (void)rstd, (void)dx, (void)dweight, (void)dbias;
    //| (void)workspace, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}

cudaError_t ln_bwd_f64(const double *x, const double *dy, const double *weight, const double *mean,
                       const double *rstd, double *dx, double *dweight, double *dbias, void *workspace, int rows,
                       int cols)
{
    //@solution
    return lnb_launch<double>(x, dy, weight, mean, rstd, dx, dweight, dbias, workspace, rows, cols);
    //@starter
    //| /* TODO: call your launcher for double. */
    //| (void)x, (void)dy, (void)weight, (void)mean, (void)rstd, (void)dx, (void)dweight, (void)dbias;
    //| (void)workspace, (void)rows, (void)cols;
    //| return cudaSuccess;
    //@end
}

#ifdef WB_TORCH_EXT
/* The torch binding (given): forward(x, weight, bias, eps) -> (y, mean, rstd)
 * and backward(dy, x, weight, mean, rstd) -> (dx, dweight, dbias) for 2-D
 * contiguous CUDA tensors of float32 or float64 (AT_DISPATCH picks the C
 * function of the tensor's type). */
#include <torch/extension.h>
#include <c10/cuda/CUDAGuard.h>

static void lnb_check(const torch::Tensor &t, const char *name, torch::ScalarType type)
{
    TORCH_CHECK(t.is_cuda(), "ln_bwd: ", name, " must be a CUDA tensor");
    TORCH_CHECK(t.scalar_type() == type, "ln_bwd: ", name, " must have x's dtype");
    TORCH_CHECK(t.is_contiguous(), "ln_bwd: ", name, " must be contiguous");
}

static cudaError_t fwd_typed(const float *x, const float *w, const float *b, float *y, float *m, float *r, int rows,
                             int cols, double eps)
{
    return ln_bwd_fwd_f32(x, w, b, y, m, r, rows, cols, (float)eps);
}
static cudaError_t fwd_typed(const double *x, const double *w, const double *b, double *y, double *m, double *r,
                             int rows, int cols, double eps)
{
    return ln_bwd_fwd_f64(x, w, b, y, m, r, rows, cols, eps);
}
static cudaError_t bwd_typed(const float *x, const float *dy, const float *w, const float *m, const float *r, float *dx,
                             float *dw, float *db, void *ws, int rows, int cols)
{
    return ln_bwd_f32(x, dy, w, m, r, dx, dw, db, ws, rows, cols);
}
static cudaError_t bwd_typed(const double *x, const double *dy, const double *w, const double *m, const double *r,
                             double *dx, double *dw, double *db, void *ws, int rows, int cols)
{
    return ln_bwd_f64(x, dy, w, m, r, dx, dw, db, ws, rows, cols);
}

static std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps)
{
    const auto type = x.scalar_type();
    TORCH_CHECK(x.dim() == 2, "ln_fwd42: x must be 2-D (rows, cols)");
    lnb_check(x, "x", type), lnb_check(weight, "weight", type), lnb_check(bias, "bias", type);
    const int64_t rows = x.size(0), cols = x.size(1);
    TORCH_CHECK(weight.numel() == cols && bias.numel() == cols, "ln_fwd42: weight and bias must be (", std::to_string(cols), ",)");
    TORCH_CHECK(rows <= INT32_MAX && cols <= INT32_MAX, "ln_fwd42: too large");
    const c10::cuda::CUDAGuard guard(x.device());
    auto y = torch::empty_like(x);
    auto mean = torch::empty({rows}, x.options()), rstd = torch::empty({rows}, x.options());
    if (rows > 0 && cols > 0) {
        AT_DISPATCH_FLOATING_TYPES(type, "ln_fwd42", [&] {
            const cudaError_t e = fwd_typed(x.data_ptr<scalar_t>(), weight.data_ptr<scalar_t>(),
                                            bias.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
                                            mean.data_ptr<scalar_t>(), rstd.data_ptr<scalar_t>(), (int)rows, (int)cols,
                                            eps);
            TORCH_CHECK(e == cudaSuccess, "ln_fwd42: ", cudaGetErrorString(e));
        });
    } else if (rows > 0) {
        mean.zero_(), rstd.fill_(NAN);
    }
    return {y, mean, rstd};
}

static std::vector<torch::Tensor> backward(torch::Tensor dy, torch::Tensor x, torch::Tensor weight, torch::Tensor mean,
                                           torch::Tensor rstd)
{
    const auto type = x.scalar_type();
    TORCH_CHECK(x.dim() == 2 && dy.sizes() == x.sizes(), "ln_bwd: dy and x must be 2-D of one shape");
    lnb_check(dy, "dy", type), lnb_check(x, "x", type), lnb_check(weight, "weight", type);
    lnb_check(mean, "mean", type), lnb_check(rstd, "rstd", type);
    const int64_t rows = x.size(0), cols = x.size(1);
    TORCH_CHECK(weight.numel() == cols && mean.numel() == rows && rstd.numel() == rows,
                "ln_bwd: weight must be (cols,), mean and rstd (rows,)");
    TORCH_CHECK(rows <= INT32_MAX && cols <= INT32_MAX, "ln_bwd: too large");
    const c10::cuda::CUDAGuard guard(x.device());
    auto dx = torch::empty_like(x), dw = torch::empty_like(weight), db = torch::empty_like(weight);
    const size_t wsb = ln_bwd_workspace_bytes((int)rows, (int)cols, x.element_size());
    auto ws = torch::empty({(int64_t)wsb}, x.options().dtype(torch::kUInt8));
    AT_DISPATCH_FLOATING_TYPES(type, "ln_bwd", [&] {
        const cudaError_t e = bwd_typed(x.data_ptr<scalar_t>(), dy.data_ptr<scalar_t>(), weight.data_ptr<scalar_t>(),
                                        mean.data_ptr<scalar_t>(), rstd.data_ptr<scalar_t>(), dx.data_ptr<scalar_t>(),
                                        dw.data_ptr<scalar_t>(), db.data_ptr<scalar_t>(), wsb ? ws.data_ptr() : nullptr,
                                        (int)rows, (int)cols);
        TORCH_CHECK(e == cudaSuccess, "ln_bwd: ", cudaGetErrorString(e));
    });
    return {dx, dw, db};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("forward", &forward, "LayerNorm forward over the last dim (float32 or float64): (y, mean, rstd)");
    m.def("backward", &backward, "LayerNorm backward: (dx, dweight, dbias)");
}
#endif
