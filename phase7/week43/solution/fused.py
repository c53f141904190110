"""Week 43, exercise 2: bias + SiLU, fused.

bias_silu(x, bias, out) writes out = silu(x + bias) for a row-major (M, N)
FP32 CUDA tensor x and a bias of N elements (one per column), where
silu(v) = v * sigmoid(v). torch runs it as two kernels (x + bias writes a
temporary, silu reads it back); one Triton kernel reads x once and writes
out once. The launcher is given; your part is the kernel body.
"""

import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def bias_silu_kernel(x_ptr, bias_ptr, out_ptr, numel, n_cols, BLOCK: tl.constexpr):
    #@solution
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(bias_ptr + offs % n_cols, mask=mask)
    v = (x + b).to(tl.float32)
    tl.store(out_ptr + offs, v * tl.sigmoid(v), mask=mask)
    #@starter
    #| # TODO: as in add: offsets of this program's block and a mask offs < numel. The bias of
    #| # flat element i is bias[i % n_cols]. v = x + bias; store v * tl.sigmoid(v), masked.
    #| # README, "Fusion".
    #| pass
    #@end


def bias_silu(x, bias, out):
    """out = silu(x + bias): x and out (M, N) contiguous FP32 CUDA, bias (N,)."""
    if x.dim() != 2 or out.shape != x.shape or bias.shape != (x.shape[1],):
        raise ValueError("bias_silu: x and out must be (M, N) and bias (N,)")
    if not (x.is_contiguous() and bias.is_contiguous() and out.is_contiguous()):
        raise ValueError("bias_silu: x, bias and out must be contiguous")
    numel = x.numel()
    if numel == 0:
        return out
    grid = (triton.cdiv(numel, BLOCK),)
    bias_silu_kernel[grid](x, bias, out, numel, x.shape[1], BLOCK=BLOCK)
    return out
