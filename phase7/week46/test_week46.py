"""Week 46's checkpoints: a torch.compile backend that runs the week's kernels.

Run by `make phase7/week46 check` (phase7/common/wb_pyrun.py, with the
workbook's pytest plugin phase7/common/wb_pytest.py): never by hand. The
exercise (backend.py) comes from the folder under test through
wb_pytest.exercise; the given kernels.py and model.py come from this
week's folder, loaded here and handed to the backend as the modules
`kernels` and `model`. Where torch or triton cannot be imported, or torch
sees no GPU, every checkpoint is SKIP with the reason.
"""

import collections
import importlib.util
import math
import operator
import os
import sys

import pytest

import wb_bench
import wb_pytest

torch = wb_pytest.need("torch")
triton = wb_pytest.need("triton")
F = torch.nn.functional

HERE = os.path.dirname(os.path.abspath(__file__))


def given(name):
    """kernels.py or model.py from the week folder (given files, not exercises)."""
    if name in sys.modules and getattr(sys.modules[name], "__file__", "") == os.path.join(HERE, name + ".py"):
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # backend.py's `import kernels` finds this one
    spec.loader.exec_module(mod)
    return mod


K = given("kernels")
M = given("model")


def backend():
    return wb_pytest.exercise("backend")


def key(node):
    """What a node does, for counting: (op, target) with functions by name."""
    t = node.target
    if node.op == "call_function":
        t = "kernels." + t.__name__ if getattr(t, "__module__", "") == "kernels" else t
    return node.op, t


class Spy:
    """A backend that calls the learner's, and keeps each graph's node counts before and after."""

    def __init__(self, be):
        self.be, self.graphs = be, []

    def __call__(self, gm, example_inputs):
        before = collections.Counter(key(n) for n in gm.graph.nodes)
        fn = self.be.workbook_backend(gm, example_inputs)
        after = collections.Counter(key(n) for n in gm.graph.nodes)
        self.graphs.append((before, after))
        return fn


def compile_with(fn, be):
    torch._dynamo.reset()
    spy = Spy(be)
    return torch.compile(fn, backend=spy, dynamic=False), spy


def randn(shape, dtype, gen, dev):
    return torch.randn(shape, generator=gen, device=dev, dtype=torch.float32).to(dtype)


# The attention pattern in each of the forms the backend must recognise (README, "Matching attention").
def att_mul(q, k, v):
    return ((q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))).softmax(dim=-1) @ v


def att_div(q, k, v):
    return torch.matmul(torch.softmax(torch.matmul(q, k.transpose(2, 3)) / math.sqrt(q.shape[-1]), dim=-1), v)


def att_left(q, k, v):
    return F.softmax(0.125 * (q @ k.transpose(-1, -2)), dim=3) @ v


def att_noscale(q, k, v):
    return torch.softmax(q @ k.transpose(-2, -1), -1) @ v


SCALES = {att_mul: None, att_div: None, att_left: 0.125, att_noscale: 1.0}


def att_ref(fn, q, k, v):
    s = SCALES[fn] if SCALES[fn] is not None else 1.0 / math.sqrt(q.shape[-1])
    return torch.softmax((q.float() @ k.float().transpose(-2, -1)) * s, dim=-1) @ v.float()


# Patterns the backend must leave as they are (a softmax of them may still become kernels.softmax).
def att_scores_reused(q, k, v):
    s = (q @ k.transpose(-2, -1)) * 0.125
    return s.softmax(dim=-1) @ v, s  # the scores are an output too: fusing would drop them


def softmax_not_last(x):
    return torch.softmax(x, dim=1) * 2.0


# ---------------------------------------------------------------- w46.rewrite

def counts(spy):
    if len(spy.graphs) != 1:
        pytest.fail("dynamo called the backend %d times, not once (a graph break, or a recompile)"
                    % len(spy.graphs), pytrace=False)
    return spy.graphs[0]


REPLACED = {  # what the backend takes away for each thing it replaces
    "layer_norm": [("call_function", F.layer_norm)],
    "softmax": [("call_function", torch.softmax)],
}


def expect_graph(before, after, what, ln=0, attn=0, sm=0, gone=(), kept_extra=()):
    """after = before with `gone` removed and ln/attn/sm kernel calls added: every other node kept."""
    want = collections.Counter(before)
    for k in gone:
        want[k] -= 1
    want = +want
    for name, n in (("kernels.layer_norm", ln), ("kernels.attention", attn), ("kernels.softmax", sm)):
        if n:
            want[("call_function", name)] += n
    got = +collections.Counter(after)
    if got == want:
        return
    diff = []
    for k in sorted(set(got) | set(want), key=str):
        if got[k] != want[k]:
            diff.append("%s %s: %d, want %d" % (k[0], getattr(k[1], "__name__", k[1]), got[k], want[k]))
    pytest.fail("%s: the rewritten graph differs from the expected one: %s" % (what, "; ".join(diff[:6])),
                pytrace=False)


def gone_attention(kind):
    """The nodes one attention pattern of the form `kind` takes out of the graph."""
    sm = {att_mul: ("call_method", "softmax"), att_div: ("call_function", torch.softmax),
          att_left: ("call_function", F.softmax), att_noscale: ("call_function", torch.softmax)}[kind]
    scale = {att_mul: [("call_function", operator.mul)], att_div: [("call_function", operator.truediv)],
             att_left: [("call_function", operator.mul)], att_noscale: []}[kind]
    mm = ("call_function", torch.matmul) if kind is att_div else ("call_function", operator.matmul)
    return [("call_method", "transpose"), mm, mm, sm] + scale


@pytest.mark.checkpoint("w46.rewrite")
def test_rewrite_model(dev, gen):
    """2 layers: 2 LayerNorms and 1 attention each, a final LayerNorm and a softmax over the features."""
    be = backend()
    m = M.make(2, 128, 4, torch.float16, dev, seed=1)
    x = randn((2, 40, 128), torch.float16, gen, dev)
    c, spy = compile_with(m, be)
    with torch.no_grad():  # the weights require grad, and the week's kernels have no backward
        c(x)
    before, after = counts(spy)
    gone = [("call_function", F.layer_norm)] * 5 + [("call_function", torch.softmax)]
    for _ in range(2):
        gone += gone_attention(att_mul)
    expect_graph(before, after, "2-layer model", ln=5, attn=2, sm=1, gone=gone)
    rep = dict(be.REPORT)
    if rep != {"layer_norm": 5, "attention": 2, "softmax": 1}:
        pytest.fail("REPORT says %s, want layer_norm 5, attention 2, softmax 1" % rep, pytrace=False)


@pytest.mark.checkpoint("w46.rewrite")
@pytest.mark.parametrize("form", [att_mul, att_div, att_left, att_noscale], ids=lambda f: f.__name__)
def test_rewrite_attention_forms(form, dev, gen):
    be = backend()
    q, k, v = (randn((1, 2, 17, 32), torch.float16, gen, dev) for _ in range(3))
    c, spy = compile_with(form, be)
    c(q, k, v)
    before, after = counts(spy)
    expect_graph(before, after, "attention written as %s" % form.__name__, attn=1, gone=gone_attention(form))


@pytest.mark.checkpoint("w46.rewrite")
def test_rewrite_leaves_reused_scores(dev, gen):
    """The scores are returned too: no attention, only the softmax becomes kernels.softmax."""
    be = backend()
    q, k, v = (randn((1, 2, 17, 32), torch.float16, gen, dev) for _ in range(3))
    c, spy = compile_with(att_scores_reused, be)
    c(q, k, v)
    before, after = counts(spy)
    expect_graph(before, after, "attention whose scores are also an output", sm=1, gone=[("call_method", "softmax")])


@pytest.mark.checkpoint("w46.rewrite")
def test_rewrite_leaves_fp32_attention(dev, gen):
    """FP32 attention: kernels.attention takes FP16/BF16 only; its softmax still becomes kernels.softmax."""
    be = backend()
    q, k, v = (randn((1, 2, 17, 32), torch.float32, gen, dev) for _ in range(3))
    c, spy = compile_with(att_mul, be)
    c(q, k, v)
    before, after = counts(spy)
    expect_graph(before, after, "FP32 attention", sm=1, gone=[("call_method", "softmax")])


@pytest.mark.checkpoint("w46.rewrite")
def test_rewrite_leaves_other_dims(dev, gen):
    """A softmax over dim 1 of a 3-D tensor and a LayerNorm over two dims: the kernels do neither."""
    be = backend()

    def f(x, w, b):
        return softmax_not_last(x) + F.layer_norm(x, x.shape[-2:], w, b)

    x = randn((3, 5, 7), torch.float16, gen, dev)
    w, b = randn((5, 7), torch.float16, gen, dev), randn((5, 7), torch.float16, gen, dev)
    c, spy = compile_with(f, be)
    c(x, w, b)
    before, after = counts(spy)
    expect_graph(before, after, "softmax over dim 1, LayerNorm over 2 dims")
    # one replaced node must still be seen: a backend that replaces nothing passes the lines above
    c2, spy2 = compile_with(lambda x: torch.softmax(x, dim=-1), be)
    c2(x)
    before, after = counts(spy2)
    expect_graph(before, after, "softmax over the last dim", sm=1, gone=[("call_function", torch.softmax)])


# ---------------------------------------------------------------- w46.correct

def ran_kernels(what, **want):
    got = {k: K.CALLS[k] for k in want}
    if got != want:
        pytest.fail("%s: the compiled model launched %s of the week's kernels, want %s (the backend replaced "
                    "less than it should, or the compiled code is not the rewritten graph)" % (what, got, want),
                    pytrace=False)


MODEL_CASES = [  # n_layer, batch, seq, d_model, heads, dtype, probs
    (2, 1, 1, 64, 2, torch.float16, False),
    (1, 1, 100, 96, 2, torch.float16, False),      # head size 48: not a power of two
    (2, 3, 257, 256, 4, torch.float16, True),      # seq not a multiple of the attention blocks
    (1, 2, 600, 512, 8, torch.bfloat16, False),
    (1, 2, 130, 384, 3, torch.bfloat16, True),     # head size 128
]


@pytest.mark.checkpoint("w46.correct")
@pytest.mark.parametrize("case", MODEL_CASES, ids=lambda c: "L%d-B%d-T%d-C%d-H%d-%s%s" % (
    c[0], c[1], c[2], c[3], c[4], str(c[5]).split(".")[-1], "-probs" if c[6] else ""))
def test_model_matches_eager(case, dev, gen):
    n_layer, bsz, seq, d, heads, dtype, probs = case
    be = backend()
    m = M.make(n_layer, d, heads, dtype, dev, seed=seq, probs=probs)
    c, _ = compile_with(m, be)
    x = randn((bsz, seq, d), dtype, gen, dev)
    with torch.no_grad():
        c(x)  # compiles
        x = randn((bsz, seq, d), dtype, gen, dev)  # fresh inputs for the comparison
        K.CALLS.clear()
        got = c(x)
        want = m(x)
    what = "%d layer(s), x %s %s%s" % (n_layer, tuple(x.shape), str(dtype).split(".")[-1], ", probs" if probs else "")
    ran_kernels(what, layer_norm=2 * n_layer + 1, attention=n_layer, softmax=1 if probs else 0)
    bf = dtype == torch.bfloat16
    atol, rtol = ((1e-5, 3e-2) if not bf else (1e-5, 8e-2)) if probs else ((2e-2, 1e-2) if not bf else (6e-2, 3e-2))
    why = wb_pytest.mismatch(got, want, atol, rtol)
    if why:
        pytest.fail("%s: compiled vs eager: %s" % (what, why), pytrace=False)


@pytest.mark.checkpoint("w46.correct")
@pytest.mark.parametrize("form", [att_mul, att_div, att_left, att_noscale], ids=lambda f: f.__name__)
def test_attention_forms_match(form, dev, gen):
    """Attention alone (no residual to hide an error in): each form, its own scale."""
    be = backend()
    q = randn((2, 3, 77, 64), torch.float16, gen, dev)
    k, v = randn((2, 3, 77, 64), torch.float16, gen, dev), randn((2, 3, 77, 64), torch.float16, gen, dev)
    c, _ = compile_with(form, be)
    K.CALLS.clear()
    got = c(q, k, v)
    ran_kernels(form.__name__, attention=1)
    why = wb_pytest.mismatch(got, att_ref(form, q, k, v), 4e-3, 1e-2)
    if why:
        pytest.fail("%s compiled: %s" % (form.__name__, why), pytrace=False)


# ---------------------------------------------------------------- w46.grad

def refused(call, what):
    """call() must raise the backend's (or the kernels') refusal, having launched no kernel."""
    K.CALLS.clear()
    try:
        call()
    except RuntimeError as e:
        text = str(e)
        if "for inference" not in text and "no backward" not in text:
            pytest.fail("%s: the compiled model raised another RuntimeError than the refusal: %s"
                        % (what, text.strip().splitlines()[0][:300]), pytrace=False)
    else:
        pytest.fail("%s: the compiled model ran, with gradients wanted and no backward to give them: the backend "
                    "must refuse (the given workbook_backend does: restore it)" % what, pytrace=False)
    if sum(K.CALLS.values()):
        pytest.fail("%s: refused only after launching %s of the week's kernels: the backend should refuse before "
                    "anything runs" % (what, dict(K.CALLS)), pytrace=False)


@pytest.mark.checkpoint("w46.grad")
def test_grad_refused(dev, gen):
    """The week's kernels have no backward. With grad on and weights (or an input) that require grad,
    the compiled model is refused with a RuntimeError that says so, before any kernel runs, instead of
    training with gradients lost without a word. Without gradients wanted (torch.no_grad(),
    torch.inference_mode(), frozen weights with grad on) the same model runs the kernels and matches
    eager: the refusal is exact, not a backend that never runs."""
    be = backend()
    m = M.make(1, 64, 2, torch.float16, dev, seed=3)
    x = randn((1, 9, 64), torch.float16, gen, dev)
    c, _ = compile_with(m, be)
    refused(lambda: c(x), "grad on, weights that require grad")
    for label, ctx in (("torch.no_grad()", torch.no_grad), ("torch.inference_mode()", torch.inference_mode)):
        with ctx():
            K.CALLS.clear()
            got = c(x)
            want = m(x)
        ran_kernels("1 layer under %s" % label, layer_norm=3, attention=1, softmax=1)
        why = wb_pytest.mismatch(got, want, 1e-5, 3e-2)
        if why:
            pytest.fail("1 layer under %s, compiled vs eager: %s" % (label, why), pytrace=False)
    m.requires_grad_(False)  # frozen weights, grad mode on: no gradient is wanted, so it runs
    K.CALLS.clear()
    got = c(x)
    ran_kernels("1 layer, frozen weights, grad on", layer_norm=3, attention=1, softmax=1)
    if got.requires_grad:
        pytest.fail("frozen weights and an input that does not require grad gave an output that requires grad",
                    pytrace=False)
    why = wb_pytest.mismatch(got, m(x), 1e-5, 3e-2)
    if why:
        pytest.fail("1 layer, frozen weights, grad on, compiled vs eager: %s" % why, pytrace=False)
    xg = x.clone().requires_grad_()  # the input's gradient is wanted now
    refused(lambda: c(xg), "grad on, frozen weights, an input that requires grad")
    w = torch.ones(8, device=dev, requires_grad=True)
    for call in (lambda: K.layer_norm(torch.randn(4, 8, device=dev), (8,), w, None),
                 lambda: K.softmax(w.reshape(1, 8), -1)):
        with pytest.raises(RuntimeError, match="no backward"):
            call()


# The given kernels must be right, or the checkpoints above mean nothing. They are
# tests of w46.correct, which the starter fails anyway (its backend runs no kernel).

@pytest.mark.checkpoint("w46.correct")
@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (17, 1000), (2, 3, 1025), (0, 8), (4, 4096)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
def test_given_row_kernels(shape, dtype, dev, gen):
    n = shape[-1]
    x = randn(shape, torch.float32, gen, dev) * 3
    x = x.to(dtype)
    w, b = randn((n,), dtype, gen, dev), randn((n,), dtype, gen, dev)
    tol = {torch.float32: (1e-5, 1e-5), torch.float16: (2e-3, 2e-3), torch.bfloat16: (2e-2, 1e-2)}[dtype]
    why = wb_pytest.mismatch(K.layer_norm(x, (n,), w, b, 1e-5),
                             F.layer_norm(x.float(), (n,), w.float(), b.float(), 1e-5), *tol)
    why = why or wb_pytest.mismatch(K.softmax(x, -1), torch.softmax(x.float(), -1), tol[0] * 0.1, tol[1])
    if why:
        pytest.fail("given kernels.layer_norm / softmax, %s %s: %s (kernels.py is given: restore it)"
                    % (shape, dtype, why), pytrace=False)


@pytest.mark.checkpoint("w46.correct")
@pytest.mark.parametrize("bsz,heads,t_q,t_k,hd,causal", [
    (1, 1, 1, 1, 64, False), (2, 3, 129, 129, 64, True), (1, 2, 300, 70, 48, False), (1, 2, 65, 65, 128, True),
    (2, 1, 257, 1000, 32, False), (1, 1, 0, 5, 64, False)])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_given_attention(bsz, heads, t_q, t_k, hd, causal, dtype, dev, gen):
    q = randn((bsz, t_q, heads, hd), dtype, gen, dev).transpose(1, 2)  # strided, as the model's views are
    k = randn((bsz, heads, t_k, hd), dtype, gen, dev)
    v = randn((bsz, heads, hd, t_k), dtype, gen, dev).transpose(2, 3)
    s = (q.float() @ k.float().transpose(-2, -1)) / math.sqrt(hd)
    if causal:
        s = s.masked_fill(torch.ones(t_q, t_k, dtype=torch.bool, device=dev).triu(1), float("-inf"))
    want = torch.softmax(s, dim=-1) @ v.float()
    tol = (4e-3, 1e-2) if dtype == torch.float16 else (3e-2, 3e-2)
    why = wb_pytest.mismatch(K.attention(q, k, v, 1.0 / math.sqrt(hd), causal), want, *tol)
    if why:
        pytest.fail("given kernels.attention: %s (kernels.py is given: restore it)" % why, pytrace=False)


# ---------------------------------------------------------------- w46.speed

SPEED = dict(n_layer=1, batch=32, seq=1024, d_model=1024, heads=16)


@pytest.mark.checkpoint("w46.speed")
def test_speed(dev, gen, speed):
    """One block (+ the final LayerNorm and softmax) at batch 32, seq 1024, d_model 1024, 16 heads, FP16:
    compiled with your backend against the same block in eager PyTorch with its attention through
    F.scaled_dot_product_attention (the same weights); the block as written (eager) and Inductor
    printed beside it."""
    wb_pytest.need_compiled()
    be = backend()
    s = SPEED
    m = M.make(s["n_layer"], s["d_model"], s["heads"], torch.float16, dev, seed=46)
    ref = M.make(s["n_layer"], s["d_model"], s["heads"], torch.float16, dev, seed=46, sdpa=True)
    x = randn((s["batch"], s["seq"], s["d_model"]), torch.float16, gen, dev)
    c, _ = compile_with(m, be)
    held = {}

    def run():
        held["y"] = c(x)

    def verify():
        if held.get("y") is None:
            return "no output"
        if K.CALLS["attention"] == 0:
            return "the compiled model ran no kernels.attention: the backend replaced nothing"
        return wb_pytest.mismatch(held["y"], m(x), 1e-5, 3e-2)

    def fresh():
        x.copy_(randn(x.shape, torch.float16, gen, dev))
        held["y"] = None
        K.CALLS.clear()

    work = M.flops(s["n_layer"], s["batch"], s["seq"], s["d_model"])
    name = "%d block, B %d, T %d, C %d, %d heads, FP16" % (s["n_layer"], s["batch"], s["seq"], s["d_model"], s["heads"])
    with torch.no_grad():
        bad = wb_pytest.mismatch(ref(x), m(x), 1e-5, 3e-2)
        assert not bad, "the SDPA block (the yardstick) differs from the block as written (not your code: " \
                        "report it): %s" % bad
        run()
        K.CALLS.clear()
        fig = wb_bench.measure(run, lambda: ref(x), work=work, unit="TFLOP/s", yard="SDPA", verify=verify,
                               fresh=fresh, name=name, beside=[("eager as written", lambda: m(x))])
        speed.record(fig)
        try:  # Inductor on the same block: printed, not judged
            torch._dynamo.reset()
            ind = torch.compile(m, dynamic=False)
            ind(x)
            t_ind, _ = wb_bench.time_ms(lambda: ind(x))
            bad = wb_pytest.mismatch(ind(x), m(x), 1e-5, 3e-2)
            # yours as the judged figure timed it (re-timing `run` after dynamo's reset
            # gave a different figure on the H100: 0.71 ms against 1.11)
            t_mine = work / (fig["value"] * 1e12) * 1e3
            speed.note("Inductor on the same block (printed, not judged): %.4f ms, %.4g TFLOP/s; your backend "
                       "%.4f ms as timed above: yours is %.3f of Inductor%s" % (
                           t_ind, work / (t_ind * 1e-3) / 1e12, t_mine, t_ind / t_mine,
                           " (Inductor's output differs from eager: %s)" % bad if bad else ""))
        except Exception as e:  # Inductor's failure is not the learner's
            speed.note("Inductor on the same block could not run: %s" % str(e).splitlines()[0][:200])
