"""Week 43, exercise 3: row softmax in Triton.

softmax(x, out) writes out[r, :] = softmax(x[r, :]) for an (M, N) FP32 CUDA
tensor x whose rows may be strided (x.stride(1) == 1, any x.stride(0)), into
a contiguous out. One program per row, the whole row in registers: BLOCK is
the power of two at or above N, and the row is read from memory once and
written once. The launcher (BLOCK, num_warps, the grid) is given; your part
is the kernel body.
"""

import triton
import triton.language as tl

MAX_COLS = 32768  # a row this long still fits in one program's registers


@triton.jit
def softmax_kernel(x_ptr, out_ptr, stride_x, stride_out, n_cols, BLOCK: tl.constexpr):
    # TODO: this program's row is tl.program_id(0) (make it int64 before multiplying by the
    # stride). Load the row's n_cols values (cols = tl.arange(0, BLOCK), mask cols < n_cols,
    # other=-float("inf")), subtract the row max (tl.max(x, axis=0)), tl.exp, divide by the sum
    # (tl.sum(e, axis=0)) and store, masked. README, "Softmax: a row per program".
    pass


def launch_config(n_cols):
    """BLOCK (a power of two >= n_cols) and num_warps for a row of n_cols."""
    block = max(triton.next_power_of_2(n_cols), 32)
    num_warps = 4 if block <= 2048 else 8 if block <= 8192 else 16
    return block, num_warps


def softmax(x, out):
    """out = softmax(x, dim=1): x (M, N) FP32 CUDA with unit column stride, out (M, N) contiguous."""
    if x.dim() != 2 or out.shape != x.shape:
        raise ValueError("softmax: x and out must be (M, N) tensors of one shape")
    if x.stride(1) != 1 or not out.is_contiguous():
        raise ValueError("softmax: x's rows must be contiguous (stride(1) == 1) and out contiguous")
    n_rows, n_cols = x.shape
    if n_cols > MAX_COLS:
        raise ValueError("softmax: rows of more than %d elements do not fit one program's registers" % MAX_COLS)
    if n_rows == 0 or n_cols == 0:
        return out
    block, num_warps = launch_config(n_cols)
    softmax_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, BLOCK=block, num_warps=num_warps)
    return out
