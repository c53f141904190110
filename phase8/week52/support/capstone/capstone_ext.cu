/* capstone_ext.cu — week 52's capstone: the torch binding of your kernels of
 * weeks 38 (FlashAttention-2 forward), 59 (its backward), 41 (LayerNorm
 * forward) and 42 (LayerNorm backward). Built by wb_ext (capstone_ranks.py)
 * with cap_*.cu, one file a week's kernel, into the module wb_cap52; the
 * ops torch.ops.wb52.* of capstone.py call these functions on CUDA tensors.
 *
 * The checks here are the C APIs' contracts (the headers of those weeks);
 * the op's CUDA kernel in capstone.py hands contiguous tensors. Each call
 * runs on the current torch stream's device; the C APIs launch on the
 * default stream, which torch's current stream is unless you change it. */
#include <torch/extension.h>
#include <c10/cuda/CUDAGuard.h>

#include "flash_attn.h"
#include "flash_bwd.h"
#include "ln_fwd.h"
#include "ln_bwd.h"

static void need(const torch::Tensor &t, const char *what, const char *name, torch::ScalarType type)
{
    TORCH_CHECK(t.is_cuda(), what, ": ", name, " must be a CUDA tensor");
    TORCH_CHECK(t.scalar_type() == type, what, ": ", name, " has the wrong dtype (", t.scalar_type(), ")");
    TORCH_CHECK(t.is_contiguous(), what, ": ", name, " must be contiguous");
}

static const uint16_t *bits(const torch::Tensor &t) { return reinterpret_cast<const uint16_t *>(t.data_ptr()); }
static uint16_t *bits_out(torch::Tensor &t) { return reinterpret_cast<uint16_t *>(t.data_ptr()); }

static std::vector<torch::Tensor> attn_fwd(torch::Tensor q, torch::Tensor k, torch::Tensor v, double scale)
{
    const char *w = "wb52::attn_fwd (week 38's flash_attn_fwd)";
    need(q, w, "q", torch::kBFloat16), need(k, w, "k", torch::kBFloat16), need(v, w, "v", torch::kBFloat16);
    TORCH_CHECK(q.dim() == 4 && q.sizes() == k.sizes() && q.sizes() == v.sizes(), w, ": q, k, v must be (B, H, S, D) of one shape");
    const int64_t B = q.size(0), H = q.size(1), S = q.size(2), D = q.size(3);
    TORCH_CHECK(D == 64 || D == 128, w, ": D must be 64 or 128");
    const c10::cuda::CUDAGuard guard(q.device());
    auto o = torch::empty_like(q);
    auto lse = torch::empty({B, H, S}, q.options().dtype(torch::kFloat32));
    if (B * H * S > 0) {
        const cudaError_t e = flash_attn_fwd(bits(q), bits(k), bits(v), bits_out(o), lse.data_ptr<float>(), (int)B,
                                             (int)H, (int)S, (int)D, 1, (float)scale);
        TORCH_CHECK(e == cudaSuccess, w, ": ", cudaGetErrorString(e));
    }
    return {o, lse};
}

static std::vector<torch::Tensor> attn_bwd(torch::Tensor dout, torch::Tensor q, torch::Tensor k, torch::Tensor v,
                                           torch::Tensor out, torch::Tensor lse, double scale)
{
    const char *w = "wb52::attn_bwd (week 59's flash_bwd)";
    need(dout, w, "dout", torch::kBFloat16), need(q, w, "q", torch::kBFloat16), need(k, w, "k", torch::kBFloat16);
    need(v, w, "v", torch::kBFloat16), need(out, w, "out", torch::kBFloat16), need(lse, w, "lse", torch::kFloat32);
    TORCH_CHECK(q.dim() == 4 && q.sizes() == k.sizes() && q.sizes() == v.sizes() && q.sizes() == out.sizes() &&
                    q.sizes() == dout.sizes(),
                w, ": q, k, v, out, dout must be (B, H, S, D) of one shape");
    const int64_t B = q.size(0), H = q.size(1), S = q.size(2), D = q.size(3);
    TORCH_CHECK(lse.numel() == B * H * S, w, ": lse must be (B, H, S)");
    const c10::cuda::CUDAGuard guard(q.device());
    auto dq = torch::empty_like(q), dk = torch::empty_like(k), dv = torch::empty_like(v);
    if (B * H * S > 0) {
        const size_t wsb = flash_bwd_workspace_bytes((int)B, (int)H, (int)S, (int)D);
        auto ws = torch::empty({(int64_t)wsb + 16}, q.options().dtype(torch::kUInt8));
        const cudaError_t e = flash_bwd(bits(q), bits(k), bits(v), bits(out), bits(dout), lse.data_ptr<float>(),
                                        bits_out(dq), bits_out(dk), bits_out(dv), ws.data_ptr(), (int)B, (int)H,
                                        (int)S, (int)D, 1, (float)scale);
        TORCH_CHECK(e == cudaSuccess, w, ": ", cudaGetErrorString(e));
    }
    return {dq, dk, dv};
}

static std::vector<torch::Tensor> ln_fwd_op(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps)
{
    const char *w = "wb52::ln_fwd (week 41's ln_fwd)";
    need(x, w, "x", torch::kFloat32), need(weight, w, "weight", torch::kFloat32), need(bias, w, "bias", torch::kFloat32);
    TORCH_CHECK(x.dim() == 2, w, ": x must be (rows, N)");
    const int64_t rows = x.size(0), cols = x.size(1);
    TORCH_CHECK(weight.numel() == cols && bias.numel() == cols, w, ": weight and bias must be (N,)");
    const c10::cuda::CUDAGuard guard(x.device());
    auto y = torch::empty_like(x);
    auto mean = torch::empty({rows}, x.options()), rstd = torch::empty({rows}, x.options());
    if (rows > 0) {
        const cudaError_t e = ln_fwd(x.data_ptr<float>(), weight.data_ptr<float>(), bias.data_ptr<float>(),
                                     y.data_ptr<float>(), mean.data_ptr<float>(), rstd.data_ptr<float>(), (int)rows,
                                     (int)cols, (float)eps);
        TORCH_CHECK(e == cudaSuccess, w, ": ", cudaGetErrorString(e));
    }
    return {y, mean, rstd};
}

static std::vector<torch::Tensor> ln_bwd_op(torch::Tensor dy, torch::Tensor x, torch::Tensor weight,
                                            torch::Tensor mean, torch::Tensor rstd)
{
    const char *w = "wb52::ln_bwd (week 42's ln_bwd_f32)";
    need(dy, w, "dy", torch::kFloat32), need(x, w, "x", torch::kFloat32), need(weight, w, "weight", torch::kFloat32);
    need(mean, w, "mean", torch::kFloat32), need(rstd, w, "rstd", torch::kFloat32);
    TORCH_CHECK(x.dim() == 2 && dy.sizes() == x.sizes(), w, ": dy and x must be (rows, N) of one shape");
    const int64_t rows = x.size(0), cols = x.size(1);
    TORCH_CHECK(weight.numel() == cols && mean.numel() == rows && rstd.numel() == rows,
                w, ": weight must be (N,), mean and rstd (rows,)");
    const c10::cuda::CUDAGuard guard(x.device());
    auto dx = torch::empty_like(x), dw = torch::empty_like(weight), db = torch::empty_like(weight);
    const size_t wsb = ln_bwd_workspace_bytes((int)rows, (int)cols, sizeof(float));
    auto ws = torch::empty({(int64_t)wsb + 256}, x.options().dtype(torch::kUInt8));
    const cudaError_t e = ln_bwd_f32(x.data_ptr<float>(), dy.data_ptr<float>(), weight.data_ptr<float>(),
                                     mean.data_ptr<float>(), rstd.data_ptr<float>(), dx.data_ptr<float>(),
                                     dw.data_ptr<float>(), db.data_ptr<float>(), wsb ? ws.data_ptr() : nullptr,
                                     (int)rows, (int)cols);
    TORCH_CHECK(e == cudaSuccess, w, ": ", cudaGetErrorString(e));
    return {dx, dw, db};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("attn_fwd", &attn_fwd, "causal FlashAttention-2 forward (week 38): (out, lse)");
    m.def("attn_bwd", &attn_bwd, "causal FlashAttention-2 backward (week 59): (dq, dk, dv)");
    m.def("ln_fwd", &ln_fwd_op, "LayerNorm forward (week 41): (y, mean, rstd)");
    m.def("ln_bwd", &ln_bwd_op, "LayerNorm backward (week 42): (dx, dweight, dbias)");
}
