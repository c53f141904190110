/* ln_fwd.cu — week 41, exercise 1: the LayerNorm forward kernel that the
 * autograd Function of layernorm.py calls (ln_fwd.h has the contract), and
 * its torch binding (at the end, under WB_TORCH_EXT: given).
 *
 * The same design as week 31's kernel, which you may bring over: one block
 * a row, the row held in registers between the reduction and the writes, so
 * DRAM sees x once and y once (8 bytes an element, a copy's bytes). Each
 * thread keeps LNF_V groups of 4 consecutive floats, group
 * g = threadIdx.x + k * blockDim.x, so a warp's float4 loads are contiguous.
 * With the row in registers the exact two-pass statistics cost no extra
 * memory traffic: a block sum of x gives the mean, a block sum of the squared
 * deviations the variance (deviations before squares: no cancellation at
 * 1e4 + noise). Rows longer than 4 * LNF_V * 1024 = 16384 take a sweep
 * kernel that reads the row from global memory once a pass. */
#include <math.h>
#include <stdint.h>
#include "ln_fwd.h"

//@solution
#define LNF_V 4            /* float4 groups a thread holds */
#define LNF_MAX_THREADS 1024
#define LNF_SWEEP_THREADS 512
#define LNF_FULL 0xffffffffu

/* The block's sum of v, the same bits in every thread. sh: 32 floats; every
 * thread calls it; blockDim.x is a multiple of 32. The first barrier keeps
 * the previous call's readers of sh safe. */
static __device__ float lnf_block_sum(float v, float *sh)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(LNF_FULL, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    __syncthreads();
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    float s = 0.f;
    for (int i = 0; i < warps; i++) s += sh[i];
    return s;
}

static __device__ __forceinline__ float lane_of(const float4 &v, int j)
{
    return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w;
}

/* Elements 4g .. 4g+3 of row r, zeros past its end. VEC: one 16-byte load. */
template <bool VEC>
static __device__ __forceinline__ float4 lnf_load(const float *__restrict__ r, int g, int cols)
{
    if constexpr (VEC) {
        return 4 * g < cols ? __ldg(reinterpret_cast<const float4 *>(r) + g) : make_float4(0.f, 0.f, 0.f, 0.f);
    } else {
        float e[4];
#pragma unroll
        for (int j = 0; j < 4; j++) e[j] = 4 * g + j < cols ? __ldg(r + 4 * g + j) : 0.f;
        return make_float4(e[0], e[1], e[2], e[3]);
    }
}

template <bool VEC>
static __global__ void __launch_bounds__(LNF_MAX_THREADS)
    lnf_regs(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ b,
             float *__restrict__ y, float *__restrict__ mean_out, float *__restrict__ rstd_out, int rows, int cols,
             float eps)
{
    __shared__ float sh[64];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float *xr = x + (size_t)row * cols;
        float *yr = y + (size_t)row * cols;
        float4 v[LNF_V];
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < LNF_V; k++) {
            v[k] = lnf_load<VEC>(xr, threadIdx.x + k * blockDim.x, cols);
            s += (v[k].x + v[k].y) + (v[k].z + v[k].w); /* the zeros past the end add nothing */
        }
        const float mean = lnf_block_sum(s, sh) / (float)cols;
        float q = 0.f;
#pragma unroll
        for (int k = 0; k < LNF_V; k++) {
            const int g = threadIdx.x + k * blockDim.x;
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const float d = 4 * g + j < cols ? lane_of(v[k], j) - mean : 0.f; /* (0 - mean)^2 is not 0 */
                q = fmaf(d, d, q);
            }
        }
        const float var = lnf_block_sum(q, sh + 32) / (float)cols;
        const float rstd = 1.0f / sqrtf(var + eps);
        if (threadIdx.x == 0) mean_out[row] = mean, rstd_out[row] = rstd;
#pragma unroll
        for (int k = 0; k < LNF_V; k++) {
            const int g = threadIdx.x + k * blockDim.x;
            if (4 * g >= cols) continue;
            if (VEC) {
                const float4 wg = __ldg(reinterpret_cast<const float4 *>(w) + g);
                const float4 bg = __ldg(reinterpret_cast<const float4 *>(b) + g);
                float4 o;
                o.x = fmaf((v[k].x - mean) * rstd, wg.x, bg.x);
                o.y = fmaf((v[k].y - mean) * rstd, wg.y, bg.y);
                o.z = fmaf((v[k].z - mean) * rstd, wg.z, bg.z);
                o.w = fmaf((v[k].w - mean) * rstd, wg.w, bg.w);
                reinterpret_cast<float4 *>(yr)[g] = o;
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int c = 4 * g + j;
                    if (c < cols) yr[c] = fmaf((lane_of(v[k], j) - mean) * rstd, __ldg(w + c), __ldg(b + c));
                }
            }
        }
    }
}

/* Rows past the registers: three sweeps of the row (the later two mostly from L2). */
static __global__ void __launch_bounds__(LNF_SWEEP_THREADS)
    lnf_sweep(const float *__restrict__ x, const float *__restrict__ w, const float *__restrict__ b,
              float *__restrict__ y, float *__restrict__ mean_out, float *__restrict__ rstd_out, int rows, int cols,
              float eps)
{
    __shared__ float sh[64];
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const float *xr = x + (size_t)row * cols;
        float *yr = y + (size_t)row * cols;
        float s = 0.f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) s += xr[c];
        const float mean = lnf_block_sum(s, sh) / (float)cols;
        float q = 0.f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {
            const float d = xr[c] - mean;
            q = fmaf(d, d, q);
        }
        const float rstd = 1.0f / sqrtf(lnf_block_sum(q, sh + 32) / (float)cols + eps);
        if (threadIdx.x == 0) mean_out[row] = mean, rstd_out[row] = rstd;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = fmaf((xr[c] - mean) * rstd, w[c], b[c]);
    }
}
//@starter
//| /* TODO: your kernel(s) and their helpers: a block sum every thread gets
//|  * (warp butterfly, one value a warp through shared memory), a row held in
//|  * registers (float4 groups when aligned), and a kernel for rows too long
//|  * for the registers. Week 31's layernorm.cu is the model. */
//@end

cudaError_t ln_fwd(const float *x, const float *weight, const float *bias, float *y, float *mean, float *rstd,
                   int rows, int cols, float eps)
{
    //@solution
    if (rows < 0 || !(eps >= 0.f)) return cudaErrorInvalidValue;
    if (rows == 0) return cudaSuccess;
    if (cols <= 0) return cudaErrorInvalidValue;
    const int groups = (cols + 3) / 4;
    if (groups <= LNF_V * LNF_MAX_THREADS) {
        const int threads = ((groups + LNF_V - 1) / LNF_V + 31) / 32 * 32;
        const bool vec = cols % 4 == 0 && ((uintptr_t)x | (uintptr_t)weight | (uintptr_t)bias | (uintptr_t)y) % 16 == 0;
        if (vec) lnf_regs<true><<<rows, threads>>>(x, weight, bias, y, mean, rstd, rows, cols, eps);
        else lnf_regs<false><<<rows, threads>>>(x, weight, bias, y, mean, rstd, rows, cols, eps);
    } else {
        lnf_sweep<<<rows, LNF_SWEEP_THREADS>>>(x, weight, bias, y, mean, rstd, rows, cols, eps);
    }
    return cudaGetLastError();
    //@starter
    //| /* TODO: check the arguments (ln_fwd.h: rows == 0 is a no-op; rows < 0,
    //|  * cols <= 0 or eps < 0 are cudaErrorInvalidValue), then launch one block
    //|  * a row: mean, var (two passes over the registers, or Welford), rstd,
    //|  * y = (x - mean) * rstd * weight + bias; thread 0 writes mean[row] and
    //|  * rstd[row]. README, "The kernel". */
    //| (void)x, (void)weight, (void)bias, (void)y, (void)mean, (void)rstd, (void)rows, (void)cols, (void)eps;
    //| return cudaSuccess;
    //@end
}

#ifdef WB_TORCH_EXT
/* The torch binding (given; weeks 39 and 40 teach it): forward(x, weight,
 * bias, eps) -> (y, mean, rstd) for a 2-D contiguous FP32 CUDA x of
 * (rows, cols) and weight, bias of (cols,). The Function in layernorm.py
 * flattens any x to 2-D before it calls this. */
#include <torch/extension.h>
#include <c10/cuda/CUDAGuard.h>

static std::vector<torch::Tensor> forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps)
{
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "ln_fwd: x, weight and bias must be CUDA tensors");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                    bias.scalar_type() == torch::kFloat32,
                "ln_fwd: x, weight and bias must be float32");
    TORCH_CHECK(x.dim() == 2, "ln_fwd: x must be 2-D (rows, cols), got ", std::to_string(x.dim()), " dimensions");
    TORCH_CHECK(x.is_contiguous() && weight.is_contiguous() && bias.is_contiguous(),
                "ln_fwd: x, weight and bias must be contiguous");
    const int64_t rows = x.size(0), cols = x.size(1);
    TORCH_CHECK(weight.dim() == 1 && weight.size(0) == cols && bias.dim() == 1 && bias.size(0) == cols,
                "ln_fwd: weight and bias must be (", std::to_string(cols), ",)");
    TORCH_CHECK(rows <= INT32_MAX && cols <= INT32_MAX && rows * cols < ((int64_t)1 << 40), "ln_fwd: too large");
    const c10::cuda::CUDAGuard guard(x.device());
    auto y = torch::empty_like(x);
    auto mean = torch::empty({rows}, x.options());
    auto rstd = torch::empty({rows}, x.options());
    if (rows > 0 && cols > 0) {
        const cudaError_t e = ln_fwd(x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(),
                                     y.data_ptr<float>(), mean.data_ptr<float>(), rstd.data_ptr<float>(), (int)rows,
                                     (int)cols, (float)eps);
        TORCH_CHECK(e == cudaSuccess, "ln_fwd: ", cudaGetErrorString(e));
    } else if (rows > 0) { /* cols == 0: torch's native_layer_norm gives mean 0 and rstd NaN */
        mean.zero_();
        rstd.fill_(NAN);
    }
    return {y, mean, rstd};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("forward", &forward, "LayerNorm forward over the last dim: (y, mean, rstd)");
}
#endif
