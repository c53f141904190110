"""Week 44, exercise 3: a fused attention forward in Triton (FlashAttention's design).

attention(q, k, v, out, causal=False, sm_scale=None) writes

    out = softmax(q @ k^T * sm_scale (+ a causal mask)) @ v

for q of (B, H, S_q, D) and k, v of (B, H, S_k, D), FP16 or BF16 on the GPU,
any strides (a (B, S, H, D) tensor seen through .transpose(1, 2) is fine),
into an out of the same shape as q. sm_scale defaults to 1 / sqrt(D), as
torch's scaled_dot_product_attention's does. causal (S_q == S_k) lets query
row i see keys 0 .. i only, as scaled_dot_product_attention(is_causal=True).

The S_q x S_k score matrix never exists in memory. One program owns BLOCK_M
query rows of one (batch, head): it loads its q tile once and streams K and
V through in tiles of BLOCK_N keys, keeping for each row a running maximum
m, a running sum l of exp(score - m) and an FP32 accumulator of the output.
When a tile raises a row's maximum, what was summed so far is rescaled by
exp(m_old - m_new) (the online softmax); the division by l happens once, at
the end. The dots take the FP16/BF16 tiles on the tensor cores and sum in
FP32; p is rounded to the input type before p @ v, as every fused kernel
does. README, "Fused attention".

The launcher and the autotune configs are given; your part is the kernel
body. D (HEAD_DIM) is a power of two from 16 to 256; the week tests 64 and
128. Under TRITON_INTERPRET=1 (on the CPU) FP32 is accepted too: numpy has
no BF16.
"""

import math
import os

import triton
import triton.language as tl

INTERPRET = os.environ.get("TRITON_INTERPRET", "") == "1"
LOG2E = 1.4426950408889634  # exp(x) = exp2(x * log2(e)): the scale takes the factor, the kernel uses exp2

# The configs autotune chooses from: BLOCK_M query rows a program, BLOCK_N keys
# a tile. BLOCK_N divides BLOCK_M in every one (the causal split below needs
# it). Shared memory holds num_stages tiles of K and of V: (2 x BLOCK_N x D x
# 2 bytes) each, 64 KiB for BLOCK_N 128 at D 128, so 128 x 128 fits 2 or 3
# stages of the H100's 227 KiB; a config that does not fit fails to compile
# and autotune skips it.
CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=4, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128}, num_warps=8, num_stages=2),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 32}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_warps=4, num_stages=3),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 32}, num_warps=4, num_stages=3),
]

SMALL = 1 << 24  # B * H * S_q * S_k below this: one config, not worth timing them all


def prune_configs(configs, named_args, **kwargs):
    """autotune's early pruning: a small problem (and the interpreter, which
    cannot time anything) runs the smallest tile without timing the others."""
    work = named_args["BH"] * named_args["S_q"] * named_args["S_k"]
    if work >= SMALL and not INTERPRET:
        return configs
    return [min(configs, key=lambda c: (c.kwargs["BLOCK_M"] * c.kwargs["BLOCK_N"], c.num_stages))]


def no_timing(fn, quantiles=None, **kwargs):
    """autotune's timer under TRITON_INTERPRET=1: no GPU to time on, and one config is left."""
    return [0.0, 0.0, 0.0]


#@solution
@triton.jit
def _tiles(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_kn, stride_vn, rows, lo, hi, S_k, qk_scale,
           BLOCK_N: tl.constexpr, MASKED: tl.constexpr, CAUSAL: tl.constexpr):
    """The keys lo .. hi of one program, BLOCK_N at a time. k_ptrs (D x BLOCK_N,
    k seen transposed) and v_ptrs (BLOCK_N x D) point at key 0's tile. MASKED
    tiles may reach past S_k or past the diagonal: they load with a mask and
    set the scores of the keys a row may not see to -inf. The others need
    neither: every key in them is one every row of the program sees."""
    offs_n = tl.arange(0, BLOCK_N)
    k_ptrs += lo * stride_kn
    v_ptrs += lo * stride_vn
    for start_n in range(lo, hi, BLOCK_N):
        cols = start_n + offs_n
        if MASKED:
            k = tl.load(k_ptrs, mask=cols[None, :] < S_k, other=0.0)
        else:
            k = tl.load(k_ptrs)
        qk = tl.dot(q, k)  # BLOCK_M x BLOCK_N scores, FP32
        if MASKED:
            keep = cols[None, :] < S_k
            if CAUSAL:
                keep = (rows[:, None] >= cols[None, :]) & keep  # key at or before the query
            qk = tl.where(keep, qk * qk_scale, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            qk = qk - m_new[:, None]
        else:
            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_new[:, None]
        p = tl.math.exp2(qk)
        # what was summed under the old maximum, rescaled to the new one
        # (exp2(-inf) = 0 on the first tile, where m_i is still -inf)
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        if MASKED:
            v = tl.load(v_ptrs, mask=cols[:, None] < S_k, other=0.0)
        else:
            v = tl.load(v_ptrs)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
        k_ptrs += BLOCK_N * stride_kn
        v_ptrs += BLOCK_N * stride_vn
    return acc, l_i, m_i


#@end
@triton.autotune(configs=CONFIGS, key=["S_q", "S_k", "HEAD_DIM", "CAUSAL"],
                 prune_configs_by={"early_config_prune": prune_configs},
                 do_bench=no_timing if INTERPRET else None)
@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, qk_scale,
                     stride_qb, stride_qh, stride_qm, stride_qd,
                     stride_kb, stride_kh, stride_kn, stride_kd,
                     stride_vb, stride_vh, stride_vn, stride_vd,
                     stride_ob, stride_oh, stride_om, stride_od,
                     H, BH, S_q, S_k,
                     HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Grid (cdiv(S_q, BLOCK_M), B * H): program (i, bh) writes query rows
    i * BLOCK_M .. + BLOCK_M of batch bh // H, head bh % H. qk_scale is
    sm_scale * log2(e)."""
    #@solution
    # Causal: the last row blocks have the most keys to walk; start them first
    # (the blocks of one head stay neighbours, so they share K and V in L2).
    pid_m = tl.program_id(0)
    if CAUSAL:
        pid_m = tl.num_programs(0) - 1 - pid_m
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)

    q_ptrs = q_ptr + b * stride_qb + h * stride_qh + rows[:, None] * stride_qm + offs_d[None, :] * stride_qd
    k_ptrs = k_ptr + b * stride_kb + h * stride_kh + offs_n[None, :] * stride_kn + offs_d[:, None] * stride_kd
    v_ptrs = v_ptr + b * stride_vb + h * stride_vh + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd
    # rows past S_q load 0: their scores are 0, finite, and the store drops them
    q = tl.load(q_ptrs, mask=rows[:, None] < S_q, other=0.0)

    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)

    # Two passes over the keys: the tiles every row sees whole, without a mask,
    # then the rest with one. Causal: keys below the block's first row
    # (first_row is a multiple of BLOCK_N: BLOCK_N divides BLOCK_M), then the
    # diagonal tiles. Not causal: every whole tile, then the ragged last one.
    # Each row sees at least one key in the first tile it walks, so its
    # maximum is finite from then on (no -inf - -inf = NaN).
    first_row = pid_m * BLOCK_M
    if CAUSAL:
        full = first_row
        hi = tl.minimum(first_row + BLOCK_M, S_k)
    else:
        full = (S_k // BLOCK_N) * BLOCK_N
        hi = S_k
    acc, l_i, m_i = _tiles(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_kn, stride_vn, rows, 0, full, S_k, qk_scale,
                           BLOCK_N, False, CAUSAL)
    acc, l_i, m_i = _tiles(acc, l_i, m_i, q, k_ptrs, v_ptrs, stride_kn, stride_vn, rows, full, hi, S_k, qk_scale,
                           BLOCK_N, True, CAUSAL)

    out = acc / l_i[:, None]  # the softmax's division, once a row
    o_ptrs = o_ptr + b * stride_ob + h * stride_oh + rows[:, None] * stride_om + offs_d[None, :] * stride_od
    tl.store(o_ptrs, out.to(o_ptr.dtype.element_ty), mask=rows[:, None] < S_q)
    #@starter
    #| # TODO: the output rows of this program (README, "Fused attention"). From
    #| # pid_m = tl.program_id(0) and bh = tl.program_id(1) (batch bh // H, head bh % H,
    #| # as int64 before they multiply a stride): the rows pid_m * BLOCK_M + tl.arange(0,
    #| # BLOCK_M), the q tile (masked to rows < S_q, other=0.0), a running max m (-inf), a
    #| # running sum l (0) and an FP32 accumulator (BLOCK_M x HEAD_DIM). Walk the keys
    #| # BLOCK_N at a time: scores = tl.dot(q, k^T tile) * qk_scale, -inf where the key is
    #| # past S_k or (CAUSAL) past the row; the new max; p = tl.math.exp2(scores - new max);
    #| # rescale l and the accumulator by exp2(old max - new max); acc = tl.dot(p.to(v's
    #| # type), v tile, acc). Causal: stop at the block's last row. Store acc / l, masked
    #| # to rows < S_q.
    #| pass
    #@end


def attention(q, k, v, out, causal=False, sm_scale=None):
    """out = softmax(q @ k^T * sm_scale (+ causal mask)) @ v; q, out (B, H, S_q, D), k, v (B, H, S_k, D)."""
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4 or out.dim() != 4:
        raise ValueError("attention: q, k, v and out must be 4-D (B, H, S, D)")
    B, H, S_q, D = q.shape
    S_k = k.shape[2]
    if tuple(k.shape) != (B, H, S_k, D) or tuple(v.shape) != (B, H, S_k, D) or tuple(out.shape) != tuple(q.shape):
        raise ValueError("attention: shapes q %s, k %s, v %s, out %s do not match" % (
            tuple(q.shape), tuple(k.shape), tuple(v.shape), tuple(out.shape)))
    if D not in (16, 32, 64, 128, 256):
        raise ValueError("attention: head size %d is not a power of two from 16 to 256" % D)
    dtypes = ("float16", "bfloat16") + (("float32",) if INTERPRET else ())
    names = {str(t.dtype).split(".")[-1] for t in (q, k, v, out)}
    if len(names) != 1 or next(iter(names)) not in dtypes:
        raise ValueError("attention: q, k, v and out must share one dtype of %s, not %s" % (dtypes, sorted(names)))
    if causal and S_q != S_k:
        raise ValueError("attention: causal needs S_q == S_k (%d, %d)" % (S_q, S_k))
    if S_k == 0:
        raise ValueError("attention: no keys (S_k = 0): the softmax of nothing is undefined")
    if B * H * S_q == 0:
        return out
    scale = 1.0 / math.sqrt(D) if sm_scale is None else float(sm_scale)

    def grid(meta):
        return (triton.cdiv(S_q, meta["BLOCK_M"]), B * H)

    attention_kernel[grid](q, k, v, out, scale * LOG2E, *q.stride(), *k.stride(), *v.stride(), *out.stride(),
                           H, B * H, S_q, S_k, HEAD_DIM=D, CAUSAL=bool(causal))
    return out
