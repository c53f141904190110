"""Week 45: the blocks whose compiled code you predict, and how the kernels are counted.

Given code, not an exercise: test_week45.py compiles these blocks exactly as
written here, with the Inductor settings of `pinned()`, and counts what the
generated code launches with `kernels()`. Read it; change nothing.

Run it to see the answer after you have written your prediction in predict.py
(the README says why in that order):

    python3 phase7/week45/blocks.py                 # every block: its kernels
    TORCH_LOGS=output_code python3 phase7/week45/blocks.py mlp_block   # and the code itself
"""

import re
import sys

import torch
import torch.nn.functional as F

# ---------------------------------------------------------------- the blocks

def mlp_block(x, w1, b1, w2, b2, gamma, beta):
    """A transformer MLP with its residual and the LayerNorm after it:
    linear -> GELU -> linear -> + x -> LayerNorm over the last dimension."""
    h = F.gelu(F.linear(x, w1, b1))
    y = F.linear(h, w2, b2)
    return F.layer_norm(x + y, (x.shape[-1],), gamma, beta, 1e-5)


def attn_scores(q, k, bias):
    """Attention probabilities: q k^T, scaled by 1/sqrt(head_dim), plus an
    additive bias (a mask), softmax over the keys."""
    s = (q @ k.transpose(-1, -2)) * (q.shape[-1] ** -0.5) + bias
    return torch.softmax(s, dim=-1)


def center_softmax(x):
    """Subtract each row's mean, softmax the row, scale by 2: three passes
    over a row in eager PyTorch (mean, max, sum) and several kernels."""
    x = x - x.mean(dim=-1, keepdim=True)
    return torch.softmax(x, dim=-1) * 2.0


BLOCKS = {"mlp_block": mlp_block, "attn_scores": attn_scores, "center_softmax": center_softmax}


def example_inputs(name, dev, gen=None):
    """The fixed shapes each block is compiled at (FP32): small, so a cold compile stays short."""
    def r(*shape):
        return torch.randn(*shape, generator=gen, device=dev)
    if name == "mlp_block":    # 64 tokens, model width 256, hidden 1024
        d, hid = 256, 1024
        return (r(64, d), r(hid, d) * d ** -0.5, r(hid), r(d, hid) * hid ** -0.5, r(d), 1 + 0.1 * r(d), 0.1 * r(d))
    if name == "attn_scores":  # batch 2, 4 heads, 32 queries and keys, head_dim 16
        return (r(2, 4, 32, 16), r(2, 4, 32, 16), r(32, 32))
    if name == "center_softmax":
        return (r(64, 1000),)
    raise KeyError(name)


# ---------------------------------------------------------------- counting

def pinned():
    """The Inductor settings the counts are taken under (the defaults, pinned,
    so a changed default elsewhere cannot change the answer): no autotuning of
    GEMMs (they stay cuBLAS calls), no coordinate-descent tuning, kernels named
    after the aten ops they contain, no CUDA graphs, no FX-graph cache (the code
    is generated every time, so it can be captured)."""
    import torch._inductor.config as icfg
    return icfg.patch({
        "max_autotune": False,
        "max_autotune_gemm": False,
        "max_autotune_pointwise": False,
        "coordinate_descent_tuning": False,
        "triton.cudagraphs": False,
        "triton.descriptive_names": "original_aten",
        "kernel_name_max_ops": 10,
        "freezing": False,
        "fx_graph_cache": False,
    })


_TRITON_DEF = re.compile(r"^def (triton_(poi|red|per|tem)_\w+)\(", re.M)
_CPP_DEF = re.compile(r"(cpp_fused_\w+)")
_EXTERN = re.compile(r"extern_kernels\.(\w+)\(")


def op_group(kernel_name):
    """The aten ops a generated kernel's name lists, as Inductor writes them:
    triton_per_fused_add_addmm_native_layer_norm_1 -> 'add_addmm_native_layer_norm'
    (the op names, sorted, joined by '_')."""
    m = re.match(r"^(?:triton_(?:poi|red|per|tem)|cpp)_fused_(.*)_\d+$", kernel_name)
    return m.group(1) if m else kernel_name


def kernels(fn, args):
    """Compile fn with Inductor (a fresh Dynamo state, the pinned settings),
    run it once on args, and return what its generated code contains:
    {"triton": [kernel names], "extern": [extern kernel calls, e.g. 'mm'],
     "cpp": [C++ kernel names] (on the CPU), "out": fn's output, "code": the source}."""
    import torch._dynamo
    from torch._inductor.utils import run_and_get_code
    torch._dynamo.reset()
    with pinned():
        compiled = torch.compile(fn, backend="inductor", fullgraph=True, dynamic=False)
        out, codes = run_and_get_code(compiled, *args)
    src = "\n".join(codes)
    triton = [m.group(1) for m in _TRITON_DEF.finditer(src)]
    cpp = sorted(set(_CPP_DEF.findall(src)))
    return {"triton": triton, "extern": _EXTERN.findall(src), "cpp": cpp, "out": out, "code": src}


def describe(found):
    """One line: the counts and the kernels' names."""
    return "%d Triton kernel(s) %s, %d extern call(s) %s" % (
        len(found["triton"]), found["triton"], len(found["extern"]), found["extern"])


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    names = sys.argv[1:] or list(BLOCKS)
    for name in names:
        got = kernels(BLOCKS[name], example_inputs(name, dev))
        line = describe(got)
        if dev == "cpu":
            line += "; on the CPU: %d C++ kernel(s) %s (not what the checkpoints count)" % (len(got["cpp"]), got["cpp"])
        print("%s: %s" % (name, line))
