"""Week 42, exercise 2: the backward of the LayerNorm autograd Function.

    y = layer_norm(x, weight, bias, eps)     # x (..., N) float32 or float64 CUDA, weight and bias (N,)

The forward and setup_context are given (week 41's new-style Function, with
this week's extension, which takes float64 too so that
torch.autograd.gradcheck can run). Your part is LayerNormFn.backward: the
gradients of x, weight and bias from the saved tensors, computed by your
kernels in ln_bwd.cu (ext().backward), only those autograd asks for
(ctx.needs_input_grad), and marked @once_differentiable: the kernels are not
differentiable themselves, so a second derivative through them must be an
error, never a silent zero.
"""

import torch
from torch.autograd.function import once_differentiable

import wb_ext

_EXT = None


def ext():
    """The extension built from ln_bwd.cu in this folder (once per process)."""
    global _EXT
    if _EXT is None:
        _EXT = wb_ext.load("wb_ln_bwd42", ["ln_bwd.cu"])
    return _EXT


def check_args(x, weight, bias):
    if not (x.is_cuda and weight.is_cuda and bias.is_cuda):
        raise ValueError("layer_norm: x, weight and bias must be CUDA tensors")
    if x.dtype not in (torch.float32, torch.float64) or weight.dtype != x.dtype or bias.dtype != x.dtype:
        raise ValueError("layer_norm: x, weight and bias must all be float32 or all float64")
    if x.dim() < 1 or weight.shape != (x.shape[-1],) or bias.shape != (x.shape[-1],):
        raise ValueError("layer_norm: weight and bias must be (N,) for x of shape (..., N)")


class LayerNormFn(torch.autograd.Function):
    """Week 41's new-style Function (given: forward and setup_context), with
    this week's kernels. Outputs y, mean and rstd; mean and rstd are marked
    non-differentiable."""

    @staticmethod
    def forward(x, weight, bias, eps):
        # Given (week 41's answer, with this week's forward kernel)
        check_args(x, weight, bias)
        n = x.shape[-1]
        x2 = x.reshape(-1, n).contiguous()
        y, mean, rstd = ext().forward(x2, weight.contiguous(), bias.contiguous(), eps)
        return y.view(x.shape), mean, rstd

    @staticmethod
    def setup_context(ctx, inputs, output):
        # Given (week 41's answer)
        x, weight, _bias, _eps = inputs
        _y, mean, rstd = output
        ctx.save_for_backward(x, weight, mean, rstd)
        ctx.mark_non_differentiable(mean, rstd)

    @staticmethod
    #@solution
    @once_differentiable
    #@starter
    #| # TODO (Task 3): decorate backward with @once_differentiable (imported above)
    #@end
    def backward(ctx, dy, _dmean, _drstd):
        #@solution
        x, weight, mean, rstd = ctx.saved_tensors
        need_dx, need_dw, need_db = ctx.needs_input_grad[:3]
        n = x.shape[-1]
        x2 = x.reshape(-1, n).contiguous()
        # dy may come in any layout (a transposed or expanded gradient): the kernels want (rows, N) contiguous
        dy2 = dy.reshape(x2.shape).contiguous()
        dx = dweight = dbias = None
        if need_dx:
            # the kernels give all three at once (the fused path gets the column sums for free)
            dx, dweight, dbias = ext().backward(dy2, x2, weight.contiguous(), mean, rstd)
            dx = dx.view(x.shape)
        elif need_dw or need_db:
            # x is frozen (an input batch, a layer kept fixed): no dx kernel, only the column sums
            if need_dw:
                dweight = (dy2 * ((x2 - mean[:, None]) * rstd[:, None])).sum(dim=0)
            if need_db:
                dbias = dy2.sum(dim=0)
        return dx, dweight if need_dw else None, dbias if need_db else None, None
        #@starter
        #| # TODO (Task 2): x, weight, mean, rstd = ctx.saved_tensors; the flat x2 = x.reshape(-1, N)
        #| # .contiguous() and dy2 = dy.reshape(x2.shape).contiguous() (autograd may hand you any
        #| # layout). Where x needs a gradient (ctx.needs_input_grad[0]): dx, dweight, dbias =
        #| # ext().backward(dy2, x2, weight, mean, rstd), dx in x's shape. Where it does not, skip the
        #| # kernel: dweight and dbias are two column sums (torch ops). Return None for every input that
        #| # needs no gradient, and for eps. README, "The Function's backward".
        #| raise NotImplementedError("LayerNormFn.backward is not written yet (week 42, layernorm.py)")
        #@end


def layer_norm(x, weight, bias, eps=1e-5):
    """LayerNorm of x over its last dimension, with autograd through your kernels."""
    return LayerNormFn.apply(x, weight, bias, eps)[0]
