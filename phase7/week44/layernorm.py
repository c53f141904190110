"""Week 44, exercise 2: LayerNorm forward in Triton.

layernorm(x, weight, bias, eps, out) writes, for each row r of an (M, N)
FP32 CUDA tensor x (rows may be strided: x.stride(1) == 1, any x.stride(0)),

    mean = sum_j x[r, j] / N
    var  = sum_j (x[r, j] - mean)^2 / N          (population variance)
    out[r, j] = (x[r, j] - mean) / sqrt(var + eps) * weight[j] + bias[j]

into a contiguous out, as torch.nn.functional.layer_norm(x, (N,), weight,
bias, eps) does. Everything is FP32, and the variance is computed from the
deviations (two passes over registers), never as E[x^2] - mean^2 (week 31
showed why: rows of 1e4 + noise).

One program per row. Up to MAX_BLOCK columns the whole row is one block in
registers: read once, reduced twice, written once (the week-31 CUDA
kernel's plan, in a dozen lines). Longer rows are walked in chunks of
CHUNK: one sweep for the mean, one for the variance, one for the output;
the second and third read the row again (from L2, mostly). The launcher
(BLOCK, num_warps, which path) is given; your part is the kernel body.
"""

import triton
import triton.language as tl

MAX_BLOCK = 16384  # the longest row held in registers (16 warps: 32 floats a thread)
CHUNK = 4096       # the block of the chunked path


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, stride_x, stride_out, n_cols, eps,
                     BLOCK: tl.constexpr, ONE_BLOCK: tl.constexpr):
    # TODO: one program per row (tl.program_id(0), as int64, times stride_x). When ONE_BLOCK
    # is true the row fits in BLOCK: load it masked (other=0.0), mean = tl.sum(x, axis=0) /
    # n_cols, deviations d = x - mean with the padding set back to 0 (tl.where), var from
    # tl.sum(d * d), rstd = 1 / tl.sqrt(var + eps), store d * rstd * weight + bias. Otherwise
    # walk the row in chunks of BLOCK: one loop for the mean, one for the variance, one for
    # the output. README, "LayerNorm in Triton".
    pass


def launch_config(n_cols):
    """BLOCK, ONE_BLOCK and num_warps for a row of n_cols."""
    if n_cols > MAX_BLOCK:
        return CHUNK, False, 8
    block = max(triton.next_power_of_2(n_cols), 32)
    num_warps = 1 if block <= 256 else 2 if block <= 1024 else 4 if block <= 2048 else 8 if block <= 8192 else 16
    return block, True, num_warps


def layernorm(x, weight, bias, eps, out):
    """out = layer_norm(x, (N,), weight, bias, eps): x (M, N) FP32 with unit column stride, out contiguous."""
    if x.dim() != 2 or out.shape != x.shape:
        raise ValueError("layernorm: x and out must be (M, N) tensors of one shape")
    n_rows, n_cols = x.shape
    if weight.shape != (n_cols,) or bias.shape != (n_cols,):
        raise ValueError("layernorm: weight and bias must have N = %d elements" % n_cols)
    if x.stride(1) != 1 or not out.is_contiguous() or not weight.is_contiguous() or not bias.is_contiguous():
        raise ValueError("layernorm: x's rows, out, weight and bias must be contiguous")
    if n_rows == 0 or n_cols == 0:
        return out
    block, one_block, num_warps = launch_config(n_cols)
    layernorm_kernel[(n_rows,)](x, weight, bias, out, x.stride(0), out.stride(0), n_cols, eps,
                                BLOCK=block, ONE_BLOCK=one_block, num_warps=num_warps)
    return out
