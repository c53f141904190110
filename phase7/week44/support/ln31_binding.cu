/* ln31_binding.cu — week 44: week 31's CUDA LayerNorm (layernorm.h) called from torch.
 *
 * Nothing here is an exercise: test_week44.py builds this file together with
 * a week-31 layernorm.cu (the reference where the workbook has one, your own
 * phase6/week31/layernorm.cu in a student copy) through phase7/common/wb_ext,
 * with phase6/week31 on the include path, so that w44.ln-table can put week
 * 31's Welford kernel beside the Triton one and torch's.
 *
 *   ext.welford(x, gamma, beta, eps, y, mean, rstd)   all FP32 CUDA tensors, contiguous
 *
 * It only checks the tensors and calls layernorm_welford, which launches on
 * the default stream (the one torch uses unless told otherwise) and returns
 * the launch's error. The whole file is inside WB_TORCH_EXT (wb_ext defines
 * it): compiled any other way it is empty. */
#ifdef WB_TORCH_EXT
#include <torch/extension.h>

#include "layernorm.h"

static void check_f32(const torch::Tensor &t, const char *name)
{
    TORCH_CHECK(t.is_cuda() && t.scalar_type() == torch::kFloat32 && t.is_contiguous(), name,
                " must be a contiguous FP32 CUDA tensor");
}

static void welford(torch::Tensor x, torch::Tensor gamma, torch::Tensor beta, double eps, torch::Tensor y,
                    torch::Tensor mean, torch::Tensor rstd)
{
    check_f32(x, "x"), check_f32(gamma, "gamma"), check_f32(beta, "beta");
    check_f32(y, "y"), check_f32(mean, "mean"), check_f32(rstd, "rstd");
    TORCH_CHECK(x.dim() == 2 && y.sizes() == x.sizes(), "x and y must be (rows, cols) of one shape");
    const int64_t rows = x.size(0), cols = x.size(1);
    TORCH_CHECK(rows < INT32_MAX && cols < INT32_MAX, "week 31's API takes int rows and cols");
    TORCH_CHECK(gamma.numel() == cols && beta.numel() == cols, "gamma and beta must have cols elements");
    TORCH_CHECK(mean.numel() == rows && rstd.numel() == rows, "mean and rstd must have rows elements");
    cudaError_t e = layernorm_welford(x.data_ptr<float>(), gamma.data_ptr<float>(), beta.data_ptr<float>(),
                                      y.data_ptr<float>(), mean.data_ptr<float>(), rstd.data_ptr<float>(),
                                      (int)rows, (int)cols, (float)eps);
    TORCH_CHECK(e == cudaSuccess, "layernorm_welford: ", cudaGetErrorString(e));
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("welford", &welford, "week 31's Welford LayerNorm forward (layernorm.h)");
}
#endif
