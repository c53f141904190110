"""Week 44, exercise 1: a tiled BF16 matmul in Triton, tuned by @triton.autotune.

matmul(a, b, out) writes out = a @ b for a (M, K) and b (K, N) BF16 CUDA
tensors with any strides (a transposed view is fine), into an (M, N) BF16
out, as torch.matmul does: the products are summed in FP32 and the sum is
rounded to BF16 once, at the store.

One program computes one BLOCK_M x BLOCK_N tile of out. It walks K in steps
of BLOCK_K: loads a BLOCK_M x BLOCK_K tile of a and a BLOCK_K x BLOCK_N tile
of b, and accumulates their tl.dot into an FP32 accumulator that stays in
registers. Edges (M, N or K not a multiple of the block) are masked: a
masked load gives 0, which adds nothing to the sum.

Which program gets which tile matters for the L2: programs that run at the
same time should share tiles of a and b. The grouped order (GROUP_M rows of
tiles walked column by column) does that; README, "Grouped ordering".

The launcher and the autotune decorator are given; your parts are the
kernel body and the list of configs (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M,
num_warps, num_stages) that autotune chooses from.
"""

import os

import triton
import triton.language as tl

#@solution
# Configs, measured by autotune on the first call of each (M, N, K). At
# 4096^3 on the H100 (README, "What to tune"), the 128 x 256 tiles with 8
# warps won: 0.93-0.97 of cuBLAS for 128 x 256 x 64 with 4 stages and for
# 128 x 256 x 32 with 5, where 128 x 128 x 64 reached 0.79. A wide tile does
# the most arithmetic per byte it loads; the smaller ones are for problems
# that would leave SMs idle.
CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 32, "GROUP_M": 8}, num_warps=8, num_stages=5),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=4),
    triton.Config({"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=4),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8}, num_warps=4, num_stages=3),
]
#@starter
#| # TODO: more configs. autotune times each one on the first call of every (M, N, K) and
#| # keeps the fastest; this one alone will not reach the target. Try 128 x 256 and 256 x 128
#| # tiles with BLOCK_K = 64, num_warps = 8, num_stages = 3 or 4 (README, "What to tune").
#| # Keep the list short (8 at most): every config is compiled and timed.
#| CONFIGS = [
#|     triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8}, num_warps=4, num_stages=3),
#| ]
#@end

SMALL = 1 << 27  # M * N * K below this (512^3): not worth timing every config
INTERPRET = os.environ.get("TRITON_INTERPRET", "") == "1"


def prune_configs(configs, named_args, **kwargs):
    """autotune's early pruning: a small problem runs the config with the
    smallest tile without timing the others (timing costs more than the
    difference), and so does the interpreter, which cannot time anything."""
    m, n, k = named_args["M"], named_args["N"], named_args["K"]
    if m * n * k >= SMALL and not INTERPRET:
        return configs
    return [min(configs, key=lambda c: (c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"], c.kwargs["BLOCK_K"]))]


def no_timing(fn, quantiles=None, **kwargs):
    """autotune's timer under TRITON_INTERPRET=1: no GPU to time on, and one config is left."""
    return [0.0, 0.0, 0.0]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"], prune_configs_by={"early_config_prune": prune_configs},
                 do_bench=no_timing if INTERPRET else None)
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    #@solution
    # Grouped order: GROUP_M rows of tiles are walked column by column, so the
    # programs in flight together reuse the same few tiles of a and of b from L2.
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    first_m = (pid // in_group) * GROUP_M
    group_m = min(tiles_m - first_m, GROUP_M)  # the last group may be shorter
    pid_m = first_m + (pid % in_group) % group_m
    pid_n = (pid % in_group) // group_m

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    # Rows of a and columns of b past the edge are wrapped back inside (% M,
    # % N) instead of masked: they compute sums that the masked store drops,
    # and the loads need no M or N mask (README, "Masks").
    ra = rm % M
    rb = rn % N
    a_ptrs = a_ptr + ra[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rb[None, :] * stride_bn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_left = K - k0  # past the end of K the loads give 0: nothing added
        a = tl.load(a_ptrs, mask=rk[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))
    #@starter
    #| # TODO: the tile of out this program computes. Grouped order first (README, "Grouped
    #| # ordering"): from pid = tl.program_id(0) and the numbers of tiles tl.cdiv(M, BLOCK_M)
    #| # and tl.cdiv(N, BLOCK_N), find pid_m and pid_n. Then rm, rn, rk (tl.arange), the
    #| # pointers of the first a tile (rm[:, None] * stride_am + rk[None, :] * stride_ak) and
    #| # b tile, an FP32 accumulator tl.zeros((BLOCK_M, BLOCK_N), tl.float32), and a loop over
    #| # K in steps of BLOCK_K: masked loads (other=0.0), acc = tl.dot(a, b, acc), advance
    #| # the pointers. Store acc converted to out's type, masked to M x N.
    #| pass
    #@end


def matmul(a, b, out):
    """out = a @ b: a (M, K), b (K, N), out (M, N), all BF16 on one device, any strides."""
    if a.dim() != 2 or b.dim() != 2 or out.dim() != 2:
        raise ValueError("matmul: a, b and out must be 2-D")
    M, K = a.shape
    if b.shape[0] != K or tuple(out.shape) != (M, b.shape[1]):
        raise ValueError("matmul: shapes %s @ %s -> %s do not match" % (tuple(a.shape), tuple(b.shape),
                                                                        tuple(out.shape)))
    N = b.shape[1]
    if M == 0 or N == 0:
        return out

    def grid(meta):
        return (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)

    matmul_kernel[grid](a, b, out, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        out.stride(0), out.stride(1))
    return out
