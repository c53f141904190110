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
    /* TODO: room for your partial sums of dweight and dbias (two per column per
     * chunk of rows), from rows and cols only. */
    (void)rows, (void)cols, (void)elem_bytes;
    return 0;
}

/* TODO: your kernels: dx (one block a row, two block sums), the column sums
 * of dweight and dbias in two deterministic stages, and a launcher templated
 * on the element type. README, "The kernels". */

cudaError_t ln_bwd_f32(const float *x, const float *dy, const float *weight, const float *mean, const float *rstd,
                       float *dx, float *dweight, float *dbias, void *workspace, int rows, int cols)
{
    /* TODO: call your launcher for float (the same template as ln_bwd_f64). */
    (void)x, (void)dy, (void)weight, (void)mean, (void)rstd, (void)dx, (void)dweight, (void)dbias;
    (void)workspace, (void)rows, (void)cols;
    return cudaSuccess;
}

cudaError_t ln_bwd_f64(const double *x, const double *dy, const double *weight, const double *mean,
                       const double *rstd, double *dx, double *dweight, double *dbias, void *workspace, int rows,
                       int cols)
{
    /* TODO: call your launcher for double. */
    (void)x, (void)dy, (void)weight, (void)mean, (void)rstd, (void)dx, (void)dweight, (void)dbias;
    (void)workspace, (void)rows, (void)cols;
    return cudaSuccess;
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
