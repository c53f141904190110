"""Week 52, exercise 2: the capstone, one training step of a transformer block.

    cap.define_ops(ext)                       # torch.ops.wb52.*: your kernels of weeks 38, 59, 41, 42
    model = MiniDDP(cap.Block(cfg).to(dev))   # week 63's wrapper (yours)
    opt = cap.GraphedSGD(model.module.parameters(), lr=0.1, momentum=0.9)
    loss = cap.train_step(model, opt, x, y)   # forward, backward + all-reduce, the optimizer's graph

The block is pre-LN: x -> LayerNorm -> QKV -> causal attention -> output
projection -> + x -> LayerNorm -> up -> GELU -> down -> + x. The residual
stream, the LayerNorms and the weights are FP32; the GEMMs (torch.matmul:
cuBLAS) and the attention run in BF16. Its LayerNorm is your week 41 forward
and week 42 backward, its attention your week 38 FlashAttention-2 forward
(which saves the log-sum-exp) and week 59 backward, each made a torch op
with a schema, a CUDA kernel (the extension support/capstone_ext.cu builds
from those weeks' files) and a CPU kernel (the reference below, for the
rehearsal on the CPU). Given: the ops' schemas and kernels, the block.

Yours (README, "Capstone", Tasks):
  1. the fake kernels and the autograd formulas of the four ops (register),
     so autograd and torch.compile treat them as torch's own;
  2. GraphedSGD: SGD with momentum whose update is captured once in a CUDA
     graph and replayed every step (eager on the CPU);
  3. train_step: one step, wired so the graph can replay it.
"""

import math

import torch
import torch.nn.functional as F

NS = "wb52"
LN_EPS = 1e-5
BF16 = torch.bfloat16

_LIB = None
_EXT = None


# ---------------------------------------------------------------- the ops: schemas and kernels (given)

def _need_ext(what):
    if _EXT is None:
        raise RuntimeError("wb52::%s on a CUDA tensor needs the extension of your kernels "
                           "(define_ops(ext) with support/capstone_ext.cu built)" % what)
    return _EXT


def _attn_fwd_cuda(q, k, v, scale):
    return tuple(_need_ext("attn_fwd").attn_fwd(q.contiguous(), k.contiguous(), v.contiguous(), scale))


def _attn_bwd_cuda(dout, q, k, v, out, lse, scale):
    return tuple(_need_ext("attn_bwd").attn_bwd(dout.contiguous(), q.contiguous(), k.contiguous(), v.contiguous(),
                                                out.contiguous(), lse.contiguous(), scale))


def _ln_fwd_cuda(x, weight, bias, eps):
    return tuple(_need_ext("ln_fwd").ln_fwd(x.contiguous(), weight.contiguous(), bias.contiguous(), eps))


def _ln_bwd_cuda(dy, x, weight, mean, rstd):
    return tuple(_need_ext("ln_bwd").ln_bwd(dy.contiguous(), x.contiguous(), weight.contiguous(),
                                            mean.contiguous(), rstd.contiguous()))


def _causal_scores(q, k, scale):
    """FP32 scores scale q k^T of BF16 q, k, the keys after each query masked to -inf."""
    s = (q.float() @ k.float().transpose(-1, -2)) * scale
    n = q.shape[-2]
    return s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), float("-inf"))


def _attn_fwd_cpu(q, k, v, scale):
    """The reference of week 38's kernel: FP32 scores and sums, P rounded to BF16 for P V, O rounded to BF16."""
    s = _causal_scores(q, k, scale)
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse.unsqueeze(-1))
    o = p.to(q.dtype).float() @ v.float()
    return o.to(q.dtype), lse


def _attn_bwd_cpu(dout, q, k, v, out, lse, scale):
    """The reference of week 59's kernel: P recomputed from lse, FP32 sums, dQ, dK, dV rounded once."""
    p = torch.exp(_causal_scores(q, k, scale) - lse.unsqueeze(-1))
    do = dout.float()
    dv = p.transpose(-1, -2) @ do
    dp = do @ v.float().transpose(-1, -2)
    ds = p * (dp - (do * out.float()).sum(-1, keepdim=True))
    dq = (ds @ k.float()) * scale
    dk = (ds.transpose(-1, -2) @ q.float()) * scale
    return dq.to(q.dtype), dk.to(k.dtype), dv.to(v.dtype)


def _ln_fwd_cpu(x, weight, bias, eps):
    var, mean = torch.var_mean(x, dim=1, correction=0)
    rstd = torch.rsqrt(var + eps)
    return (x - mean[:, None]) * rstd[:, None] * weight + bias, mean, rstd


def _ln_bwd_cpu(dy, x, weight, mean, rstd):
    xhat = (x - mean[:, None]) * rstd[:, None]
    g = dy * weight
    dx = rstd[:, None] * (g - g.mean(1, keepdim=True) - xhat * (g * xhat).mean(1, keepdim=True))
    return dx, (dy * xhat).sum(0), dy.sum(0)


def define_ops(ext=None):
    """torch.ops.wb52.{attn_fwd, attn_bwd, ln_fwd, ln_bwd}: schema, CUDA and
    CPU kernels (once a process), then register() (yours). ext: the module
    support/capstone_ext.cu builds (None on the CPU)."""
    global _LIB, _EXT
    if ext is not None:
        _EXT = ext
    if _LIB is not None:
        return
    lib = torch.library.Library(NS, "DEF")
    # q, k, v: (B, H, S, D) BF16, D 64 or 128; causal; out (B, H, S, D) BF16, lse (B, H, S) FP32
    lib.define("attn_fwd(Tensor q, Tensor k, Tensor v, float scale) -> (Tensor, Tensor)")
    lib.define("attn_bwd(Tensor dout, Tensor q, Tensor k, Tensor v, Tensor out, Tensor lse, float scale)"
               " -> (Tensor, Tensor, Tensor)")
    # x: (rows, N) FP32, weight and bias (N,); y (rows, N), mean and rstd (rows,)
    lib.define("ln_fwd(Tensor x, Tensor weight, Tensor bias, float eps) -> (Tensor, Tensor, Tensor)")
    lib.define("ln_bwd(Tensor dy, Tensor x, Tensor weight, Tensor mean, Tensor rstd) -> (Tensor, Tensor, Tensor)")
    for name, cuda, cpu in (("attn_fwd", _attn_fwd_cuda, _attn_fwd_cpu), ("attn_bwd", _attn_bwd_cuda, _attn_bwd_cpu),
                            ("ln_fwd", _ln_fwd_cuda, _ln_fwd_cpu), ("ln_bwd", _ln_bwd_cuda, _ln_bwd_cpu)):
        lib.impl(name, cuda, "CUDA")
        lib.impl(name, cpu, "CPU")
    _LIB = lib  # the registrations live as long as this object
    register()


# ---------------------------------------------------------------- Task 1: fake kernels and autograd

def attn_fwd_fake(q, k, v, scale):
    """Outputs with the real kernel's metadata: out like q (new, contiguous), lse (B, H, S) FP32."""
    # TODO (Task 1): torch._check q is 4-D, q, k, v of one shape and bf16, D 64 or 128; return
    # q.new_empty(q.shape) and an FP32 (B, H, S) tensor for lse. README, "Capstone", Task 1.
    raise NotImplementedError("attn_fwd_fake is not written yet (week 52, capstone.py)")


def attn_bwd_fake(dout, q, k, v, out, lse, scale):
    # TODO (Task 1): dq, dk, dv: new tensors of q's, k's and v's shapes and dtypes.
    raise NotImplementedError("attn_bwd_fake is not written yet (week 52, capstone.py)")


def ln_fwd_fake(x, weight, bias, eps):
    # TODO (Task 1): torch._check x is 2-D FP32; y like x, mean and rstd (rows,) FP32.
    raise NotImplementedError("ln_fwd_fake is not written yet (week 52, capstone.py)")


def ln_bwd_fake(dy, x, weight, mean, rstd):
    # TODO (Task 1): dx like x, dweight and dbias like weight.
    raise NotImplementedError("ln_bwd_fake is not written yet (week 52, capstone.py)")


def attn_setup_context(ctx, inputs, output):
    # TODO (Task 1): save q, k, v, out and lse (ctx.save_for_backward) and the scale (ctx.scale).
    raise NotImplementedError("attn_setup_context is not written yet (week 52, capstone.py)")


def attn_backward(ctx, dout, _dlse):
    # TODO (Task 1): dq, dk, dv = torch.ops.wb52.attn_bwd(dout, q, k, v, out, lse, scale) from the
    # saved tensors (week 59's kernel: P recomputed from lse); None for the scale.
    raise NotImplementedError("attn_backward is not written yet (week 52, capstone.py)")


def ln_setup_context(ctx, inputs, output):
    # TODO (Task 1): save x, weight, mean and rstd (week 42's backward needs nothing else).
    raise NotImplementedError("ln_setup_context is not written yet (week 52, capstone.py)")


def ln_backward(ctx, dy, _dmean, _drstd):
    # TODO (Task 1): dx, dweight, dbias = torch.ops.wb52.ln_bwd(dy, x, weight, mean, rstd); None for eps.
    raise NotImplementedError("ln_backward is not written yet (week 52, capstone.py)")


def register():
    """Fake kernels and autograd formulas of the four ops (define_ops calls it once)."""
    # TODO (Task 1): torch.library.register_fake("wb52::NAME", fake) for the four ops, and
    # torch.library.register_autograd for attn_fwd and ln_fwd (backward, setup_context=...).
    pass


# ---------------------------------------------------------------- the block (given)

def layer_norm(x, weight, bias, eps=LN_EPS):
    """LayerNorm over the last dim through wb52::ln_fwd (FP32)."""
    n = x.shape[-1]
    y, _mean, _rstd = torch.ops.wb52.ln_fwd(x.reshape(-1, n), weight, bias, eps)
    return y.view(x.shape)


def causal_attention(q, k, v):
    """softmax(q k^T / sqrt(D) + causal mask) v through wb52::attn_fwd; (B, H, S, D) BF16."""
    out, _lse = torch.ops.wb52.attn_fwd(q, k, v, 1.0 / math.sqrt(q.shape[-1]))
    return out


class Block(torch.nn.Module):
    """A pre-LN transformer block on (B, S, d_model) FP32 inputs. Weights FP32
    (the optimizer's master copy), cast to BF16 for the GEMMs and attention."""

    def __init__(self, d_model, n_heads, d_hidden):
        super().__init__()
        nn = torch.nn
        self.n_heads = n_heads
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.up = nn.Linear(d_model, d_hidden)
        self.down = nn.Linear(d_hidden, d_model)

    def forward(self, x):
        b, s, d = x.shape
        h = self.n_heads

        def lin(t, m):  # the GEMM in BF16 (cuBLAS), FP32 weights cast on the way in
            return F.linear(t, m.weight.to(BF16), m.bias.to(BF16))

        a = layer_norm(x, self.ln1.weight, self.ln1.bias).to(BF16)
        q, k, v = lin(a, self.qkv).view(b, s, 3, h, d // h).permute(2, 0, 3, 1, 4).unbind(0)
        a = causal_attention(q, k, v).transpose(1, 2).reshape(b, s, d)
        x = x + lin(a, self.proj).float()
        a = layer_norm(x, self.ln2.weight, self.ln2.bias).to(BF16)
        return x + lin(F.gelu(lin(a, self.up), approximate="tanh"), self.down).float()


def loss_fn(out, y):
    """The step's scalar loss: mean squared error against a target of out's shape."""
    return F.mse_loss(out, y)


# ---------------------------------------------------------------- Task 2: the optimizer in a CUDA graph

class GraphedSGD:
    """SGD with momentum, torch.optim.SGD's update (dampening 0, no weight
    decay, no Nesterov):  buf = momentum * buf + grad;  p -= lr * buf.

    On CUDA the update is captured into one CUDA graph at the first step()
    and replayed at every step() (the first included: capturing runs nothing),
    so a step costs one launch whatever the number of tensors. A graph reads
    and writes fixed addresses: the parameters, their .grad tensors and the
    momentum buffers must be the same tensors at every replay (train_step
    zeroes the gradients in place, never sets them to None). On the CPU the
    same update runs eagerly."""

    def __init__(self, params, lr, momentum):
        self.params = [p for p in params if p.requires_grad]
        self.lr, self.momentum = float(lr), float(momentum)
        self.graph = None
        # TODO (Task 2): give every parameter a zeroed .grad now if it has none (torch.zeros_like), keep
        # the list self.grads, and one momentum buffer of zeros a parameter (self.bufs). README, Task 2.
        self.grads, self.bufs = [], []

    def _update(self):
        """The update on the static tensors: three multi-tensor (foreach) kernels."""
        # TODO (Task 2): buf = momentum * buf + grad, then p -= lr * buf, with torch._foreach_mul_ and
        # torch._foreach_add_ (alpha=-lr) on self.bufs, self.grads, self.params.
        raise NotImplementedError("GraphedSGD._update is not written yet (week 52, capstone.py)")

    @torch.no_grad()
    def step(self):
        # TODO (Task 2): on the CPU, self._update(). On CUDA, the first time: self.graph =
        # torch.cuda.CUDAGraph() and capture self._update() inside torch.cuda.graph(self.graph,
        # capture_error_mode="thread_local"); then (every time, the first included) self.graph.replay().
        raise NotImplementedError("GraphedSGD.step is not written yet (week 52, capstone.py)")


# ---------------------------------------------------------------- Task 3: the step

def train_step(model, opt, x, y):
    """One training step of `model` (a MiniDDP-wrapped Block) on this rank's
    batch x, target y: gradients zeroed in place, forward, loss_fn, backward
    (MiniDDP's hooks all-reduce the buckets while it runs),
    model.finish_grad_sync(), opt.step(). Returns the loss, detached (no
    host synchronisation)."""
    # TODO (Task 3): zero opt.grads in place (torch._foreach_zero_ under no_grad; never p.grad = None),
    # loss = loss_fn(model(x), y), loss.backward(), model.finish_grad_sync(), opt.step(); return
    # loss.detach(). README, Task 3.
    raise NotImplementedError("train_step is not written yet (week 52, capstone.py)")
