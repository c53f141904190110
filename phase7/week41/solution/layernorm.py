"""Week 41, exercise 2: LayerNorm as a torch.autograd.Function.

    y = layer_norm(x, weight, bias, eps)     # any x (..., N) FP32 CUDA, weight and bias (N,)

normalises x over its last dimension with the fused kernel of ln_fwd.cu
(built as a torch extension on first use) and records in autograd what the
backward pass needs. LayerNormFn.forward is your part: flatten x to
(rows, N), call the extension, save for backward exactly what the backward
below reads, and give y back in x's shape. The backward is given, written
with torch operations from the saved tensors: week 42 replaces it with
kernels of its own. It is here so that y.backward() works, and so that the
checkpoint w41.saved can show that what you saved is enough.
"""

import torch

import wb_ext

_EXT = None


def ext():
    """The extension built from ln_fwd.cu in this folder (once per process)."""
    global _EXT
    if _EXT is None:
        _EXT = wb_ext.load("wb_ln_fwd41", ["ln_fwd.cu"])
    return _EXT


def check_args(x, weight, bias):
    """A clear error for what the kernel does not take (the binding checks again)."""
    if not (x.is_cuda and weight.is_cuda and bias.is_cuda):
        raise ValueError("layer_norm: x, weight and bias must be CUDA tensors")
    if x.dtype != torch.float32 or weight.dtype != torch.float32 or bias.dtype != torch.float32:
        raise ValueError("layer_norm: x, weight and bias must be float32")
    if x.dim() < 1 or weight.shape != (x.shape[-1],) or bias.shape != (x.shape[-1],):
        raise ValueError("layer_norm: weight and bias must be (N,) for x of shape (..., N), got %s, %s and %s"
                         % (tuple(x.shape), tuple(weight.shape), tuple(bias.shape)))


class LayerNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias, eps):
        #@solution
        check_args(x, weight, bias)
        n = x.shape[-1]
        x2 = x.reshape(-1, n).contiguous()  # a view when x is contiguous: no copy
        y, mean, rstd = ext().forward(x2, weight.contiguous(), bias, eps)
        # x, weight and the two per-row statistics: the backward rebuilds
        # xhat = (x - mean) * rstd from them instead of keeping xhat (M x N)
        ctx.save_for_backward(x2, weight, mean, rstd)
        ctx.x_shape = x.shape
        return y.view(x.shape)
        #@starter
        #| # TODO: check_args(x, weight, bias); flatten x to (rows, N) (x.reshape(-1, N), then
        #| # .contiguous()); y, mean, rstd = ext().forward(x2, weight, bias, eps); save what the
        #| # backward below reads (ctx.save_for_backward(x2, weight, mean, rstd)) and x's shape
        #| # (ctx.x_shape); return y in x's shape. README, "The Function".
        #| raise NotImplementedError("LayerNormFn.forward is not written yet (week 41, layernorm.py)")
        #@end

    @staticmethod
    def backward(ctx, dy):
        # Given: the gradients from the saved tensors, in torch operations (week 42 writes kernels).
        x2, weight, mean, rstd = ctx.saved_tensors
        n = x2.shape[1]
        dy2 = dy.reshape(-1, n)
        xhat = (x2 - mean[:, None]) * rstd[:, None]
        g = dy2 * weight
        dx = rstd[:, None] * (g - g.mean(dim=1, keepdim=True) - xhat * (g * xhat).mean(dim=1, keepdim=True))
        dweight = (dy2 * xhat).sum(dim=0)
        dbias = dy2.sum(dim=0)
        return dx.view(ctx.x_shape), dweight, dbias, None


def layer_norm(x, weight, bias, eps=1e-5):
    """LayerNorm of x over its last dimension, with autograd."""
    return LayerNormFn.apply(x, weight, bias, eps)
