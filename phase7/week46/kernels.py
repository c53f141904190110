"""Week 46's given kernels (not an exercise): LayerNorm, row softmax and a
fused attention forward in Triton, the kernels your backend puts into the
graph. The week's tests check them against torch too.

    y = layer_norm(x, (C,), weight, bias, 1e-5)   # F.layer_norm over the last dim
    p = softmax(x, -1)                            # torch.softmax over the last dim
    o = attention(q, k, v, scale)                 # softmax(q @ k^T * scale) @ v

Every launcher takes the same arguments as the torch call it stands for (so
a node of the graph can be pointed at it), handles FP16, BF16 and FP32
(attention: FP16 and BF16), computes in FP32 and returns a new tensor of
the input's dtype. CALLS counts the launches, so a test can tell that a
compiled model really ran these kernels.

None of them has a backward: their outputs are new tensors with no grad_fn,
so a gradient would stop at them without a word. Each launcher refuses
(RuntimeError) a tensor that requires grad while grad mode is on: a model
compiled with the week's backend runs under torch.no_grad() or
torch.inference_mode().
"""

import collections
import os

import torch
import triton
import triton.language as tl


def _interpreter_loop_fix():
    """Triton 3.6's interpreter turns a loop bound into a Python int with
    int(array of one element), which numpy 2.4 refuses ("only 0-dimensional
    arrays can be converted to Python scalars"): attention's `for` over the
    keys then fails under TRITON_INTERPRET=1. Convert with .item() instead."""
    try:
        from triton.runtime import interpreter
    except Exception:
        return
    patch = getattr(interpreter, "_patch_lang_tensor", None)
    if patch is None or getattr(patch, "wb_fixed", False):
        return

    def patched(tensor, scope):
        patch(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))

    patched.wb_fixed = True
    interpreter._patch_lang_tensor = patched


INTERPRETED = os.environ.get("TRITON_INTERPRET", "") == "1"
if INTERPRETED:
    _interpreter_loop_fix()

CALLS = collections.Counter()
MAX_COLS = 16384  # a LayerNorm or softmax row this long still fits one program's registers
ATTN_DTYPES = (torch.float16, torch.bfloat16)


def _no_backward(name, *tensors):
    """Refuse what would lose a gradient: grad mode on and an input that requires grad."""
    if torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors):
        raise RuntimeError("kernels.%s has no backward: an input requires grad, and its gradient would stop here. "
                           "The week's backend is for inference: run the compiled model under torch.no_grad() or "
                           "torch.inference_mode()" % name)


def _row_config(n):
    block = max(triton.next_power_of_2(n), 16)
    return block, 4 if block <= 2048 else 8 if block <= 8192 else 16


# ---------------------------------------------------------------- LayerNorm

@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * n  # this program's row, int64: rows * n passes 2^31
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + start + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n
    centred = tl.where(mask, x - mean, 0.0)  # padding adds nothing to the variance
    rstd = 1.0 / tl.sqrt(tl.sum(centred * centred, axis=0) / n + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + start + cols, (centred * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """F.layer_norm over the last dimension (normalized_shape of one element)."""
    n = input.shape[-1] if input.dim() else 0
    if tuple(normalized_shape) != (n,) or n > MAX_COLS:
        raise ValueError("kernels.layer_norm: normalizes the last dimension only, of at most %d elements "
                         "(normalized_shape %s, input %s)" % (MAX_COLS, tuple(normalized_shape), tuple(input.shape)))
    _no_backward("layer_norm", input, weight, bias)
    CALLS["layer_norm"] += 1
    x = input.contiguous()
    w = weight.contiguous() if weight is not None else torch.ones(n, dtype=x.dtype, device=x.device)
    b = bias.contiguous() if bias is not None else torch.zeros(n, dtype=x.dtype, device=x.device)
    y = torch.empty_like(x)
    rows = x.numel() // n if n else 0
    if rows:
        block, warps = _row_config(n)
        layer_norm_kernel[(rows,)](x, w, b, y, n, eps, BLOCK=block, num_warps=warps)
    return y


# ---------------------------------------------------------------- softmax

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * n  # this program's row, int64: rows * n passes 2^31
    cols = tl.arange(0, BLOCK)
    mask = cols < n
    x = tl.load(x_ptr + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + start + cols, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(input, dim=-1):
    """torch.softmax(input, dim) for dim the last dimension."""
    if input.dim() == 0 or dim not in (-1, input.dim() - 1) or input.shape[-1] > MAX_COLS:
        raise ValueError("kernels.softmax: the last dimension only, of at most %d elements (dim %s, input %s)"
                         % (MAX_COLS, dim, tuple(input.shape)))
    _no_backward("softmax", input)
    CALLS["softmax"] += 1
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.shape[-1]
    rows = x.numel() // n if n else 0
    if rows:
        block, warps = _row_config(n)
        softmax_kernel[(rows,)](x, y, n, BLOCK=block, num_warps=warps)
    return y


# ---------------------------------------------------------------- attention

@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr,
                     sq_b, sq_h, sq_t, sq_d, sk_b, sk_h, sk_t, sk_d, sv_b, sv_h, sv_t, sv_d,
                     n_heads, t_q, t_k, head_d, qk_scale,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, CAUSAL: tl.constexpr,
                     DOT_F32: tl.constexpr):
    """One program: BLOCK_M query rows of one (batch, head). It walks the keys
    BLOCK_N at a time with an online softmax (running max m, running sum l,
    the output rescaled when the max grows), so the t_q x t_k score matrix
    never exists in memory. qk_scale is the softmax scale times log2(e):
    exp2 of the scaled scores is exp of the unscaled ones. DOT_F32 (set
    under TRITON_INTERPRET=1 only) takes the dots in FP32: Triton 3.6's
    interpreter gets a BF16 tl.dot wrong."""
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = (bh // n_heads).to(tl.int64)
    h = (bh % n_heads).to(tl.int64)
    rows = tl.arange(0, BLOCK_M) + pid_m * BLOCK_M  # this program's query rows
    dims = tl.arange(0, BLOCK_D)
    row_ok = rows < t_q
    dim_ok = dims < head_d
    q = tl.load(q_ptr + b * sq_b + h * sq_h + rows[:, None] * sq_t + dims[None, :] * sq_d,
                mask=row_ok[:, None] & dim_ok[None, :], other=0.0)
    if DOT_F32:
        q = q.to(tl.float32)
    m = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    l = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, BLOCK_D), tl.float32)
    end = t_k
    if CAUSAL:
        end = (pid_m + 1) * BLOCK_M  # keys past the last row's are all masked; past t_k, col_ok masks
    for start in range(0, end, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        col_ok = cols < t_k
        kt = tl.load(k_ptr + b * sk_b + h * sk_h + cols[None, :] * sk_t + dims[:, None] * sk_d,
                     mask=col_ok[None, :] & dim_ok[:, None], other=0.0)
        if DOT_F32:
            kt = kt.to(tl.float32)
        s = tl.dot(q, kt) * qk_scale
        keep = col_ok[None, :]
        if CAUSAL:
            keep = keep & (cols[None, :] <= rows[:, None])
        s = tl.where(keep, s, -float("inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m - m_new)
        l = l * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + b * sv_b + h * sv_h + cols[:, None] * sv_t + dims[None, :] * sv_d,
                    mask=col_ok[:, None] & dim_ok[None, :], other=0.0)
        if DOT_F32:
            v = v.to(tl.float32)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m = m_new
    acc = acc / l[:, None]
    base = bh.to(tl.int64) * t_q * head_d
    tl.store(o_ptr + base + rows[:, None] * head_d + dims[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=row_ok[:, None] & dim_ok[None, :])


LOG2E = 1.4426950408889634


def attention(q, k, v, scale, causal=False):
    """softmax(q @ k^T * scale (+ causal mask)) @ v for q (B, H, Tq, D), k and
    v (B, H, Tk, D), FP16 or BF16, any strides; returns a contiguous (B, H, Tq, D)."""
    if not (q.dim() == k.dim() == v.dim() == 4 and q.dtype == k.dtype == v.dtype and q.dtype in ATTN_DTYPES
            and k.shape == v.shape and q.shape[:2] == k.shape[:2] and q.shape[3] == k.shape[3]
            and 0 < q.shape[3] <= 256):
        raise ValueError("kernels.attention: q (B, H, Tq, D), k and v (B, H, Tk, D), FP16 or BF16, D <= 256 "
                         "(q %s %s, k %s, v %s)" % (tuple(q.shape), q.dtype, tuple(k.shape), tuple(v.shape)))
    if causal and q.shape[2] != k.shape[2]:
        raise ValueError("kernels.attention: causal needs Tq == Tk")
    _no_backward("attention", q, k, v)
    CALLS["attention"] += 1
    bsz, heads, t_q, d = q.shape
    t_k = k.shape[2]
    o = torch.empty((bsz, heads, t_q, d), dtype=q.dtype, device=q.device)
    if o.numel() == 0:
        return o
    if t_k == 0:
        return o.fill_(float("nan"))  # softmax of no scores: 0 / 0, as torch gives
    block_d = max(triton.next_power_of_2(d), 16)
    block_m, block_n = (128, 64) if block_d <= 64 else (64, 64) if block_d <= 128 else (64, 32)
    grid = (triton.cdiv(t_q, block_m), bsz * heads)
    attention_kernel[grid](q, k, v, o, *q.stride(), *k.stride(), *v.stride(), heads, t_q, t_k, d,
                           float(scale) * LOG2E, BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_D=block_d,
                           CAUSAL=bool(causal), DOT_F32=INTERPRETED, num_warps=4 if block_d <= 64 else 8, num_stages=3)
    return o
