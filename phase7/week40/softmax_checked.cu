/* softmax_checked.cu — week 40: the softmax op, hardened.
 *
 * The kernel is week 39's (given). Yours (README, Tasks 1 to 3): the C
 * API's refusals; a binding that checks device, dtype, shape and
 * contiguity with TORCH_CHECK (a Python RuntimeError naming the problem),
 * holds a device guard (x's GPU, whatever the current device is) and
 * launches on torch's current stream; and the op's registration with
 * torch's dispatcher, a CPU and a CUDA kernel. The starter's binding works
 * on the happy path and nowhere else: that is the one most people write
 * first. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>

#include "softmax_checked.h"

namespace {

constexpr int NT = 256; /* threads a block, a block a row */

template <typename T> __device__ float ld(T v);
template <> __device__ inline float ld<float>(float v) { return v; }
template <> __device__ inline float ld<__half>(__half v) { return __half2float(v); }
template <> __device__ inline float ld<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T> __device__ T st(float v);
template <> __device__ inline float st<float>(float v) { return v; }
template <> __device__ inline __half st<__half>(float v) { return __float2half_rn(v); }
template <> __device__ inline __nv_bfloat16 st<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

/* The online (max, sum) pair of week 39: +Inf poisons the sum (a NaN row, as
 * in torch), -Inf adds nothing. */
__device__ inline void fold(float &m, float &s, float v)
{
    if (v > m) {
        s = (v == INFINITY) ? NAN : s * expf(m - v) + 1.0f;
        m = v;
    } else if (v != -INFINITY) {
        s += expf(v - m);
    }
}

__device__ inline void join(float &m, float &s, float mo, float so)
{
    const float M = fmaxf(m, mo);
    s = (m == M ? s : s * expf(m - M)) + (mo == M ? so : so * expf(mo - M));
    m = M;
}

template <typename T>
__global__ void __launch_bounds__(NT) smc_kernel(const T *x, T *y, long long cols)
{
    __shared__ float wm[NT / 32], ws[NT / 32];
    const long long base = (long long)blockIdx.x * cols;
    float m = -INFINITY, s = 0.0f;
    for (long long j = threadIdx.x; j < cols; j += NT) fold(m, s, ld<T>(x[base + j]));
    for (int o = 16; o; o >>= 1) join(m, s, __shfl_xor_sync(~0u, m, o), __shfl_xor_sync(~0u, s, o));
    if (threadIdx.x % 32 == 0) wm[threadIdx.x / 32] = m, ws[threadIdx.x / 32] = s;
    __syncthreads(); /* every read of the row is done before any write: y may be x */
    m = wm[0], s = ws[0];
    for (int w = 1; w < NT / 32; w++) join(m, s, wm[w], ws[w]);
    const float r = 1.0f / s;
    for (long long j = threadIdx.x; j < cols; j += NT) y[base + j] = st<T>(expf(ld<T>(x[base + j]) - m) * r);
}

/* One launch, no questions asked: the C API and the binding ask them first. */
template <typename T> cudaError_t smc_run(const void *x, void *y, long long rows, long long cols, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    smc_kernel<T><<<(unsigned)rows, NT, 0, stream>>>(static_cast<const T *>(x), static_cast<T *>(y), cols);
    return cudaGetLastError();
}

cudaError_t smc_by_dtype(const void *x, void *y, long long rows, long long cols, smc_dtype dtype,
                         cudaStream_t stream)
{
    if (dtype == SMC_F16) return smc_run<__half>(x, y, rows, cols, stream);
    if (dtype == SMC_BF16) return smc_run<__nv_bfloat16>(x, y, rows, cols, stream);
    return smc_run<float>(x, y, rows, cols, stream);
}

} // namespace

extern "C" cudaError_t softmax_checked(const void *x, void *y, long long rows, long long cols, smc_dtype dtype,
                                       cudaStream_t stream)
{
    /* TODO (Task 1): return cudaErrorInvalidValue, launching nothing, for negative rows or
     * cols, rows past 2^31 - 1, a dtype that is not one of the three, and a NULL x or y
     * when there is something to compute (softmax_checked.h, "Contract"). */
    return smc_by_dtype(x, y, rows, cols, dtype, stream);
}

#ifdef WB_TORCH_EXT
/* ---------------------------------------------------------------- the PyTorch binding
 * Two forms side by side. The pybind function softmax(x) (Task 2) does its
 * hygiene by hand: it is the only code between Python and the kernel, so it
 * must refuse a CPU tensor itself. The op registered with torch's dispatcher
 * (Task 3) has a kernel for each device: the dispatcher routes a CPU tensor
 * to the CPU kernel and a CUDA tensor to the CUDA kernel, so the device check
 * is the dispatcher's; dtype, shape and contiguity stay each kernel's, and
 * the fake kernel (checked_op.py) refuses the same inputs while torch.compile
 * traces. The namespace is WB40_NS: the extension's name for the JIT build
 * (torch.ops.wb_softmax40_jit.softmax), wb_softmax40 for the package
 * (setup.py defines it). */
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#ifndef WB40_NS
#define WB40_NS TORCH_EXTENSION_NAME
#endif
/* TORCH_LIBRARY pastes its namespace into names (##), which takes the word as
 * written: these expand WB40_NS first, then hand it over. */
#define WB40_LIBRARY(ns, m) TORCH_LIBRARY(ns, m)
#define WB40_LIBRARY_IMPL(ns, key, m) TORCH_LIBRARY_IMPL(ns, key, m)

/* What every kernel of the op refuses, whatever its device: a dtype the kernel
 * has no instantiation for, a shape that is not (rows, cols), a layout that is
 * not packed rows. Each message names the op, what it needs and what it got. */
static void softmax_checked_args(const at::Tensor &x)
{
    /* TODO (Task 2): TORCH_CHECK the dtype (float32, float16, bfloat16), the shape (2-D) and
     * contiguity, in that order, each message naming the problem. */
    (void)x;
}

at::Tensor softmax_checked_forward(const at::Tensor &x)
{
    /* TODO (Task 2): TORCH_CHECK the device first (x.is_cuda()), then softmax_checked_args(x);
     * a device guard (at::cuda::OptionalCUDAGuard on device_of(x)); and the launch on torch's
     * current stream. What is here works for a contiguous 2-D CUDA tensor on the current device
     * and the default stream, and nowhere else. */
    at::Tensor y = at::empty_like(x);
    const smc_dtype code = x.scalar_type() == at::kHalf ? SMC_F16
                           : x.scalar_type() == at::kBFloat16 ? SMC_BF16 : SMC_F32;
    cudaError_t err = smc_by_dtype(x.data_ptr(), y.data_ptr(), x.size(0), x.size(1), code, 0);
    TORCH_CHECK(err == cudaSuccess, cudaGetErrorString(err));
    return y;
}

/* The op's CUDA kernel: the dispatcher sends only CUDA tensors here, and the
 * pybind function's checks, guard and stream are what it needs. */
at::Tensor softmax_checked_cuda(const at::Tensor &x)
{
    return softmax_checked_forward(x);
}

/* The op's CPU kernel (given): the same refusals, then the row softmax in
 * float on the host. */
template <typename S> static void smc_cpu_rows(const at::Tensor &x, at::Tensor &y)
{
    const S *a = x.data_ptr<S>();
    S *b = y.data_ptr<S>();
    const int64_t rows = x.size(0), cols = x.size(1);
    for (int64_t r = 0; r < rows; r++) {
        const S *xr = a + r * cols;
        S *yr = b + r * cols;
        float m = -INFINITY, s = 0.0f;
        for (int64_t c = 0; c < cols; c++) m = fmaxf(m, static_cast<float>(xr[c]));
        for (int64_t c = 0; c < cols; c++) s += expf(static_cast<float>(xr[c]) - m);
        for (int64_t c = 0; c < cols; c++) yr[c] = static_cast<S>(expf(static_cast<float>(xr[c]) - m) / s);
    }
}

at::Tensor softmax_checked_cpu(const at::Tensor &x)
{
    softmax_checked_args(x);
    at::Tensor y = at::empty_like(x);
    if (x.numel() == 0) return y;
    const auto dt = x.scalar_type();
    if (dt == at::kHalf) smc_cpu_rows<at::Half>(x, y);
    else if (dt == at::kBFloat16) smc_cpu_rows<at::BFloat16>(x, y);
    else if (dt == at::kFloat) smc_cpu_rows<float>(x, y);
    else TORCH_CHECK(false, "softmax_checked: no CPU kernel for ", dt);
    return y;
}

/* TODO (Task 3): WB40_LIBRARY(WB40_NS, m) { m.def("softmax(Tensor x) -> Tensor"); }, then
 * WB40_LIBRARY_IMPL(WB40_NS, CPU, m) with m.impl("softmax", &softmax_checked_cpu) and
 * WB40_LIBRARY_IMPL(WB40_NS, CUDA, m) with &softmax_checked_cuda. */

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("softmax", &softmax_checked_forward,
          "row softmax of a 2-D contiguous CUDA tensor (FP32, FP16, BF16): the pybind form");
}
#endif /* WB_TORCH_EXT */
