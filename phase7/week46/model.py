"""Week 46's small transformer (given, not an exercise): the model the
backend is compiled on.

A pre-LN encoder block, attention written out as torch ops (a matmul, a
scale, a softmax, a matmul: no F.scaled_dot_product_attention), so eager
PyTorch materialises the (B, H, T, T) score matrix three times over and a
backend has something to fuse. With sdpa=True the same block calls
F.scaled_dot_product_attention instead (the library's fused attention:
FlashAttention or cuDNN), the yardstick of the speed checkpoint:

    x = x + proj(attention(ln1(x)))
    x = x + fc2(gelu(fc1(ln2(x))))

Model stacks n_layer blocks, a final LayerNorm and, with probs=True, a
softmax over the features (a stand-alone softmax, not part of attention).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d_model, n_head, sdpa=False):
        super().__init__()
        if d_model % n_head:
            raise ValueError("d_model must be a multiple of n_head")
        self.n_head = n_head
        self.sdpa = sdpa
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.fc1 = nn.Linear(d_model, 4 * d_model)
        self.fc2 = nn.Linear(4 * d_model, d_model)

    def forward(self, x):
        b, t, c = x.shape
        hd = c // self.n_head
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.n_head, hd).permute(2, 0, 3, 1, 4)
        if self.sdpa:  # the same attention, fused by the library (its default scale is 1 / sqrt(hd))
            y = F.scaled_dot_product_attention(q, k, v)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
            att = att.softmax(dim=-1)
            y = att @ v
        y = y.transpose(1, 2).reshape(b, t, c)
        x = x + self.proj(y)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Model(nn.Module):
    def __init__(self, n_layer, d_model, n_head, probs=True, sdpa=False):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d_model, n_head, sdpa) for _ in range(n_layer))
        self.ln_f = nn.LayerNorm(d_model)
        self.probs = probs

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        x = self.ln_f(x)
        return torch.softmax(x, dim=-1) if self.probs else x


def flops(n_layer, batch, seq, d_model):
    """Matmul flops of one forward: the linears (12 d^2 a token: qkv 3, proj 1,
    MLP 8, times 2 for multiply-add) and attention (q k^T and p v: 4 T d a token)."""
    tokens = batch * seq
    return n_layer * (2 * tokens * 12 * d_model * d_model + 4 * tokens * seq * d_model)


def make(n_layer, d_model, n_head, dtype, device, seed=0, probs=True, sdpa=False):
    """A Model with weights from torch's default init under `seed`, in `dtype` on `device`, in eval mode
    (the same weights with sdpa=True or not: the attention call creates none)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        m = Model(n_layer, d_model, n_head, probs, sdpa)
    return m.to(device=device, dtype=dtype).eval()
