/* softmax_ext.cu — week 39: the row softmax as a PyTorch operator.
 *
 * One file, two builds. The Check test (test_week39.c) compiles it as plain
 * CUDA and calls the C API of softmax_ext.h. The three PyTorch builds (JIT
 * with torch.utils.cpp_extension.load, setup.py, CMake against libtorch)
 * compile it with -DWB_TORCH_EXT, which adds the binding at the bottom:
 * torch tensors in, the same kernel launched on torch's current stream.
 *
 * Given: the kernel, a template over the storage type (float, __half,
 * __nv_bfloat16) that accumulates in float. Yours (README, Tasks 1 to 3):
 * the C API's choice of instantiation by dtype, the op's CPU and CUDA
 * kernels, and their registration with torch's dispatcher. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>

#include "softmax_ext.h"

/* Storage type <-> float. Everything between the load and the store is float.
 * (Outside the unnamed namespace, so the starter, which has these before it
 * calls them, compiles without a warning for each.) */
template <typename T> struct softmax_ext_io;
template <> struct softmax_ext_io<float> {
    static __device__ float load(float v) { return v; }
    static __device__ float store(float v) { return v; }
};
template <> struct softmax_ext_io<__half> {
    static __device__ float load(__half v) { return __half2float(v); }
    static __device__ __half store(float v) { return __float2half_rn(v); }
};
template <> struct softmax_ext_io<__nv_bfloat16> {
    static __device__ float load(__nv_bfloat16 v) { return __bfloat162float(v); }
    static __device__ __nv_bfloat16 store(float v) { return __float2bfloat16_rn(v); }
};

namespace {

constexpr int THREADS = 256; /* a block per row, 8 warps */

template <typename T> using io = softmax_ext_io<T>;

/* (m, s): the running max and the sum of exp(x - m). A +Inf makes s NaN (the
 * whole row is NaN in torch: Inf - Inf), a NaN makes s NaN by itself, and a
 * -Inf adds nothing (exp(-Inf - m) = 0; the test keeps exp(-Inf - -Inf) out). */
[[maybe_unused]] __device__ inline void add_one(float &m, float &s, float v)
{
    if (v > m) {
        s = v == INFINITY ? NAN : s * expf(m - v) + 1.0f;
        m = v;
    } else if (v != -INFINITY) {
        s += expf(v - m);
    }
}

[[maybe_unused]] __device__ inline void merge(float &m, float &s, float m2, float s2)
{
    float M = fmaxf(m, m2);
    s = (m == M ? s : s * expf(m - M)) + (m2 == M ? s2 : s2 * expf(m2 - M));
    m = M;
}

/* One block a row: each thread folds its strided share of the row into (m, s),
 * the warps merge with shuffles, the block through shared memory, and a
 * second pass over the row (from L2 for rows up to a few MB) writes y. */
template <typename T>
__global__ void __launch_bounds__(THREADS) softmax_rows(const T *__restrict__ x, T *__restrict__ y, long long cols)
{
    __shared__ float red_m[THREADS / 32], red_s[THREADS / 32];
    const T *xr = x + (long long)blockIdx.x * cols;
    T *yr = y + (long long)blockIdx.x * cols;
    float m = -INFINITY, s = 0.0f;
    for (long long j = threadIdx.x; j < cols; j += THREADS) add_one(m, s, io<T>::load(xr[j]));
    for (int off = 16; off > 0; off >>= 1)
        merge(m, s, __shfl_xor_sync(0xffffffffu, m, off), __shfl_xor_sync(0xffffffffu, s, off));
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) red_m[warp] = m, red_s[warp] = s;
    __syncthreads();
    m = red_m[0], s = red_s[0];
    for (int w = 1; w < THREADS / 32; w++) merge(m, s, red_m[w], red_s[w]);
    const float inv = 1.0f / s;
    for (long long j = threadIdx.x; j < cols; j += THREADS) yr[j] = io<T>::store(expf(io<T>::load(xr[j]) - m) * inv);
}

/* The launch every caller shares: the C API below and the binding. */
template <typename T>
cudaError_t softmax_launch(const T *x, T *y, long long rows, long long cols, cudaStream_t stream)
{
    if (rows < 0 || cols < 0 || rows > 0x7fffffffLL) return cudaErrorInvalidValue;
    if (rows == 0 || cols == 0) return cudaSuccess;
    softmax_rows<T><<<(unsigned)rows, THREADS, 0, stream>>>(x, y, cols);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t softmax_ext(const void *x, void *y, long long rows, long long cols, softmax_dtype dtype,
                                   cudaStream_t stream)
{
    //@solution
    /* The C twin of AT_DISPATCH: one instantiation of the template per storage type. */
    switch (dtype) {
    case SOFTMAX_F32:
        return softmax_launch((const float *)x, (float *)y, rows, cols, stream);
    case SOFTMAX_F16:
        return softmax_launch((const __half *)x, (__half *)y, rows, cols, stream);
    case SOFTMAX_BF16:
        return softmax_launch((const __nv_bfloat16 *)x, (__nv_bfloat16 *)y, rows, cols, stream);
    }
    return cudaErrorInvalidValue;
    //@starter
    //| /* TODO (Task 1): switch on dtype and call softmax_launch with x and y cast to the
    //|  * storage type: float, __half, __nv_bfloat16; any other dtype is cudaErrorInvalidValue. */
    //| (void)x, (void)y, (void)rows, (void)cols, (void)dtype, (void)stream;
    //| return cudaErrorNotYetImplemented;
    //@end
}

#ifdef WB_TORCH_EXT
/* ---------------------------------------------------------------- the PyTorch binding
 * Built by the three PyTorch builds only, in two forms side by side.
 *
 * The dispatcher form (what PyTorch teaches first): the op is declared once
 * with a schema (TORCH_LIBRARY) and given one kernel per device
 * (TORCH_LIBRARY_IMPL for CPU and for CUDA); torch's dispatcher picks the
 * kernel from the input's device, and the op is torch.ops.NS.softmax, which
 * torch.compile, the fake-tensor tracer and opcheck can see (softmax_op.py
 * adds its fake kernel and its autograd formula from Python).
 *
 * The pybind form (the contrast, weeks 39-40 before): with
 * torch.utils.cpp_extension (JIT or setup.py) TORCH_EXTENSION_NAME is defined
 * and the module also holds softmax(x), a plain Python function made by
 * pybind11 that chooses the device itself. The dispatcher never sees it, so
 * torch.compile cannot trace through it (a graph break) and autograd knows no
 * formula for it.
 *
 * The namespace NS is the extension's name where cpp_extension builds it
 * (torch.ops.wb_softmax39.softmax for the JIT build, wb_softmax39_setup for
 * setup.py), wb39 in the CMake build: three builds of this file can then be
 * loaded into one process (the test does) without registering one namespace
 * twice. */
#ifdef TORCH_EXTENSION_NAME
#include <torch/extension.h>
#define WB39_NS TORCH_EXTENSION_NAME
#else
#include <ATen/ATen.h>
#include <torch/library.h>
#define WB39_NS wb39
#endif
#include <ATen/cuda/CUDAContext.h>

/* TORCH_LIBRARY(ns, m) pastes ns into names (##), which takes the word as
 * written: these two expand WB39_NS first, then hand it over. */
#define WB39_LIBRARY(ns, m) TORCH_LIBRARY(ns, m)
#define WB39_LIBRARY_IMPL(ns, key, m) TORCH_LIBRARY_IMPL(ns, key, m)

/* The CUDA type the kernel is instantiated for, from ATen's scalar type:
 * at::Half and __half have the same bits, as have at::BFloat16 and __nv_bfloat16. */
template <typename S> struct cuda_type { using type = S; };
template <> struct cuda_type<at::Half> { using type = __half; };
template <> struct cuda_type<at::BFloat16> { using type = __nv_bfloat16; };

/* The three storage types, as cases of AT_DISPATCH_SWITCH: inside the lambda,
 * scalar_t is float, at::Half or at::BFloat16. Any other dtype is an error
 * naming the op and the dtype ("softmax" not implemented for 'Int'). */
#define WB_SOFTMAX_TYPES(...) \
    AT_DISPATCH_CASE(at::kFloat, __VA_ARGS__) AT_DISPATCH_CASE(at::kHalf, __VA_ARGS__) \
    AT_DISPATCH_CASE(at::kBFloat16, __VA_ARGS__)

//@solution
/* The CPU path, through accessors: a[r][c] indexes with the tensor's own
 * strides, and at::Half or at::BFloat16 convert to float with a cast. */
template <typename S> void softmax_cpu(const at::Tensor &x, at::Tensor &y)
{
    auto a = x.accessor<S, 2>();
    auto b = y.accessor<S, 2>();
    for (int64_t r = 0; r < a.size(0); r++) {
        float m = -INFINITY, s = 0;
        for (int64_t c = 0; c < a.size(1); c++) m = fmaxf(m, static_cast<float>(a[r][c]));
        for (int64_t c = 0; c < a.size(1); c++) s += expf(static_cast<float>(a[r][c]) - m);
        for (int64_t c = 0; c < a.size(1); c++) b[r][c] = static_cast<S>(expf(static_cast<float>(a[r][c]) - m) / s);
    }
}

/* The GPU path: the tensors' raw pointers, as the kernel's storage type. */
template <typename S> cudaError_t softmax_cuda(const at::Tensor &x, at::Tensor &y, cudaStream_t stream)
{
    using T = typename cuda_type<S>::type;
    return softmax_launch(reinterpret_cast<const T *>(x.data_ptr<S>()), reinterpret_cast<T *>(y.data_ptr<S>()),
                          x.size(0), x.size(1), stream);
}
//@end

/* The CPU kernel of the op: the dispatcher calls it for CPU tensors. */
at::Tensor softmax_cpu_op(const at::Tensor &x_in)
{
    //@solution
    TORCH_CHECK(x_in.dim() == 2, "softmax: x must be 2-D (rows, cols), got ", std::to_string(x_in.dim()), "-D");
    const at::Tensor x = x_in.contiguous(); /* week 40 refuses instead of copying */
    at::Tensor y = at::empty_like(x);
    if (x.numel() == 0) return y;
    AT_DISPATCH_SWITCH(x.scalar_type(), "softmax", WB_SOFTMAX_TYPES([&] { softmax_cpu<scalar_t>(x, y); }));
    return y;
    //@starter
    //| /* TODO (Task 2): TORCH_CHECK that x is 2-D, make it contiguous, y = at::empty_like(x),
    //|  * return y at once when x is empty; then x.accessor<scalar_t, 2>() inside
    //|  * AT_DISPATCH_SWITCH(x.scalar_type(), "softmax", WB_SOFTMAX_TYPES([&] { ... })). */
    //| TORCH_CHECK(false, "softmax: the CPU kernel is not written yet (softmax_ext.cu, softmax_cpu_op: README, Task 2)");
    //| return x_in;
    //@end
}

/* The CUDA kernel of the op: the dispatcher calls it for CUDA tensors. */
at::Tensor softmax_cuda_op(const at::Tensor &x_in)
{
    //@solution
    TORCH_CHECK(x_in.dim() == 2, "softmax: x must be 2-D (rows, cols), got ", std::to_string(x_in.dim()), "-D");
    const at::Tensor x = x_in.contiguous();
    at::Tensor y = at::empty_like(x);
    if (x.numel() == 0) return y;
    /* Torch's current stream, not the legacy default one: the op is ordered
     * after whatever produced x on the caller's stream, and before what reads y. */
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    cudaError_t err = cudaSuccess;
    AT_DISPATCH_SWITCH(x.scalar_type(), "softmax",
                       WB_SOFTMAX_TYPES([&] { err = softmax_cuda<scalar_t>(x, y, stream); }));
    TORCH_CHECK(err == cudaSuccess, "softmax: the kernel did not launch: ", cudaGetErrorString(err));
    return y;
    //@starter
    //| /* TODO (Task 2): the same checks and output; then the same switch, with softmax_launch
    //|  * on x.data_ptr<scalar_t>() and y.data_ptr<scalar_t>() reinterpret_cast to
    //|  * cuda_type<scalar_t>::type, on at::cuda::getCurrentCUDAStream(); TORCH_CHECK the
    //|  * launch's error. */
    //| TORCH_CHECK(false, "softmax: the CUDA kernel is not written yet (softmax_ext.cu, softmax_cuda_op: README, Task 2)");
    //| return x_in;
    //@end
}

/* The pybind form's one function for both devices: it chooses by hand what
 * the dispatcher chooses for the registered op. */
at::Tensor softmax_forward(const at::Tensor &x)
{
    return x.is_cuda() ? softmax_cuda_op(x) : softmax_cpu_op(x);
}

//@solution
/* The schema, once for the namespace: one Tensor in, a new Tensor out (no
 * alias, no mutation: opcheck holds the kernels to that). Then one kernel a
 * device: the dispatcher reads the input's device and calls the one that
 * matches; a device with no kernel (meta, say) is the dispatcher's own error. */
WB39_LIBRARY(WB39_NS, m)
{
    m.def("softmax(Tensor x) -> Tensor");
}
WB39_LIBRARY_IMPL(WB39_NS, CPU, m)
{
    m.impl("softmax", &softmax_cpu_op);
}
WB39_LIBRARY_IMPL(WB39_NS, CUDA, m)
{
    m.impl("softmax", &softmax_cuda_op);
}
//@starter
//| /* TODO (Task 3): WB39_LIBRARY(WB39_NS, m) { m.def("softmax(Tensor x) -> Tensor"); } declares the
//|  * op; WB39_LIBRARY_IMPL(WB39_NS, CPU, m) { m.impl("softmax", &softmax_cpu_op); } and the same for
//|  * CUDA with softmax_cuda_op give it a kernel a device. */
//@end

#ifdef TORCH_EXTENSION_NAME
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("softmax", &softmax_forward, "row softmax of a 2-D tensor (FP32, FP16, BF16; CUDA or CPU): the pybind form");
}
#endif
#endif /* WB_TORCH_EXT */
