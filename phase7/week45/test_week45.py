"""Week 45's checkpoints: what Inductor generates, and a function without graph breaks.

Run by `make phase7/week45 check` (phase7/common/wb_pyrun.py, with the
workbook's pytest plugin phase7/common/wb_pytest.py): never by hand. The
exercises (predict.py, nobreaks.py) come from the folder under test through
wb_pytest.exercise(name); the blocks and the counting are the week's given
blocks.py, loaded from this test's own folder. Where torch or triton cannot be
imported, or torch sees no GPU, every checkpoint is SKIP with the reason.
"""

import collections
import contextlib
import importlib.util
import io
import math
import os

import pytest

import wb_bench
import wb_pytest

torch = wb_pytest.need("torch")
triton = wb_pytest.need("triton")

NAN = float("nan")
HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ("triton", "extern", "fused")


def given_blocks():
    """blocks.py from this week's folder (given code, the same for every folder under test)."""
    spec = importlib.util.spec_from_file_location("wb_week45_blocks", os.path.join(HERE, "blocks.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BLOCKS = given_blocks()
_FOUND = {}


def found(name, dev, gen):
    """What Inductor generates for block `name` on this GPU (compiled once a run), its output checked against eager."""
    if name not in _FOUND:
        args = BLOCKS.example_inputs(name, dev, gen)
        got = BLOCKS.kernels(BLOCKS.BLOCKS[name], args)
        why = wb_pytest.mismatch(got["out"], BLOCKS.BLOCKS[name](*args), 1e-4, 1e-4)
        assert not why, "the compiled %s differs from eager (not your code: report it): %s" % (name, why)
        _FOUND[name] = got
    return _FOUND[name]


def prediction(name):
    """The learner's prediction for block `name`, or a failure saying what to write."""
    ex = wb_pytest.exercise("predict")
    preds = getattr(ex, "PREDICTIONS", None)
    if not isinstance(preds, dict) or not isinstance(preds.get(name), dict):
        pytest.fail("predict.py: PREDICTIONS[%r] must be a dict with %s" % (name, ", ".join(KEYS)), pytrace=False)
    return preds[name]


def need_int(p, name, key):
    v = p.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        pytest.fail("predict.py: PREDICTIONS[%r][%r] is %r: write your predicted count (an int), then check it "
                    "(README, \"What Inductor does with a block\")" % (name, key, v), pytrace=False)
    return v


# ---------------------------------------------------------------- w45.predict

@pytest.mark.checkpoint("w45.predict")
@pytest.mark.parametrize("name", sorted(BLOCKS.BLOCKS))
def test_predict_counts(name, dev, gen):
    """Your predicted number of Triton kernels and of extern (library) calls, against the generated code."""
    p = prediction(name)
    want_t, want_e = need_int(p, name, "triton"), need_int(p, name, "extern")
    if not isinstance(p.get("why"), str) or len(p["why"].split()) < 4:
        pytest.fail("predict.py: PREDICTIONS[%r]['why'] is empty: say in a sentence why the ops fuse as you "
                    "predict" % name, pytrace=False)
    got = found(name, dev, gen)
    if (want_t, want_e) != (len(got["triton"]), len(got["extern"])):
        pytest.fail("%s: you predicted %d Triton kernel(s) and %d extern call(s); Inductor generated %s. Read it "
                    "with TORCH_LOGS=output_code python3 phase7/week45/blocks.py %s"
                    % (name, want_t, want_e, BLOCKS.describe(got), name), pytrace=False)


# ---------------------------------------------------------------- w45.fusion

@pytest.mark.checkpoint("w45.fusion")
@pytest.mark.parametrize("name", sorted(BLOCKS.BLOCKS))
def test_fusion_groups(name, dev, gen):
    """Which aten ops each Triton kernel holds, as its name lists them (sorted op names joined by '_')."""
    p = prediction(name)
    groups = p.get("fused")
    if not isinstance(groups, (list, tuple)) or not groups or not all(
            isinstance(g, (list, tuple, set)) and g and all(isinstance(o, str) and o for o in g) for g in groups):
        pytest.fail("predict.py: PREDICTIONS[%r]['fused'] is %r: write one list of op names per Triton kernel, "
                    "e.g. [[\"add\", \"mul\"]] (README, \"Reading a kernel's name\")" % (name, groups), pytrace=False)
    want = collections.Counter("_".join(sorted(set(g))) for g in groups)
    got = found(name, dev, gen)
    have = collections.Counter(BLOCKS.op_group(k) for k in got["triton"])
    if want != have:
        pytest.fail("%s: you predicted the kernels %s; Inductor generated %s (names %s)"
                    % (name, sorted(want.elements()), sorted(have.elements()), got["triton"]), pytrace=False)


# ---------------------------------------------------------------- w45.nobreaks

def original_pool(x, w, limit):
    """The function as given (nobreaks.py's starter): three graph breaks."""
    peak = float(x.abs().amax())
    if peak > limit:
        x = x * (limit / peak)
    h = torch.tanh(x @ w)
    print("pool: peak", peak)
    if torch.isnan(h).any():
        h = torch.nan_to_num(h, nan=0.0)
    return h.mean(dim=1)


ORIGINAL_BREAKS = 3   # torch 2.11: float() of a tensor, print, `if` on a tensor


def explain(fn, *args):
    import torch._dynamo
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        return torch._dynamo.explain(fn)(*args)


def reasons(e):
    return "; ".join(r.reason.splitlines()[0][:120] for r in e.break_reasons) or "none"


def pool_inputs(b, t, d, e, scale, gen, dev):
    x = torch.randn(b, t, d, generator=gen, device=dev) * scale
    w = torch.randn(d, e, generator=gen, device=dev) * d ** -0.5
    return x, w


def quiet(fn, *args):
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args)


@pytest.mark.checkpoint("w45.nobreaks")
def test_original_breaks(dev, gen):
    """The given function breaks as the week says (a torch upgrade that changes this is caught here)."""
    x, w = pool_inputs(4, 8, 16, 8, 3.0, gen, dev)
    e = explain(original_pool, x, w, 2.0)
    assert e.graph_break_count == ORIGINAL_BREAKS, (
        "the original pool() has %d graph break(s) under torch %s, the week expects %d (%s): this week was written "
        "for torch 2.11; tell the authors" % (e.graph_break_count, torch.__version__, ORIGINAL_BREAKS, reasons(e)))


@pytest.mark.checkpoint("w45.nobreaks")
@pytest.mark.parametrize("scale,limit", [(3.0, 2.0), (0.1, 2.0)])
def test_no_breaks(scale, limit, dev, gen):
    """One graph, no break: on an input that rescales and on one that does not."""
    ex = wb_pytest.exercise("nobreaks")
    x, w = pool_inputs(4, 8, 16, 8, scale, gen, dev)
    e = explain(ex.pool, x, w, limit)
    if e.graph_break_count != 0 or e.graph_count != 1:
        pytest.fail("nobreaks.pool: %d graph(s), %d break(s) (want 1 graph, 0 breaks): %s"
                    % (e.graph_count, e.graph_break_count, reasons(e)), pytrace=False)


POOL_CASES = [  # b, t, d, e, scale, limit, what
    (4, 8, 16, 8, 3.0, 2.0, "rescaled (max|x| > limit)"),
    (4, 8, 16, 8, 0.1, 2.0, "not rescaled"),
    (1, 1, 1, 1, 5.0, 1.0, "1 x 1 x 1, rescaled"),
    (3, 7, 33, 5, 1.0, 100.0, "odd sizes, not rescaled"),
    (2, 129, 64, 48, 10.0, 0.5, "long sequence, rescaled"),
]


@pytest.mark.checkpoint("w45.nobreaks")
@pytest.mark.parametrize("b,t,d,e,scale,limit,what", POOL_CASES)
def test_same_values(b, t, d, e, scale, limit, what, dev, gen):
    """Eager, your pool() returns what the original returns."""
    ex = wb_pytest.exercise("nobreaks")
    x, w = pool_inputs(b, t, d, e, scale, gen, dev)
    got = quiet(ex.pool, x.clone(), w.clone(), limit)
    why = wb_pytest.mismatch(got, quiet(original_pool, x, w, limit), 1e-5, 1e-4)
    if why:
        pytest.fail("nobreaks.pool differs from the original (%s, %d x %d x %d -> %d): %s"
                    % (what, b, t, d, e, why), pytrace=False)


@pytest.mark.checkpoint("w45.nobreaks")
def test_same_values_edges(dev, gen):
    """max|x| exactly at the limit (no rescale), a NaN in x (the whole row's projections
    are NaN, replaced by 0), an infinity (max|x| is inf: everything is rescaled to 0 or NaN)."""
    ex = wb_pytest.exercise("nobreaks")
    x, w = pool_inputs(3, 5, 16, 4, 1.0, gen, dev)
    x = x.clamp(-1.5, 1.5)
    x[1, 2, 3] = -2.0
    cases = [(x, 2.0, "max|x| == limit")]
    xn = x.clone()
    xn[0, 1, 7] = NAN
    cases.append((xn, 2.0, "a NaN in x"))
    xi = x.clone()
    xi[2, 4, 0] = float("inf")
    cases.append((xi, 2.0, "an inf in x"))
    for xc, limit, what in cases:
        got = quiet(ex.pool, xc.clone(), w.clone(), limit)
        want = quiet(original_pool, xc, w, limit)
        why = wb_pytest.mismatch(got, want, 1e-5, 1e-4)
        if why:
            pytest.fail("nobreaks.pool differs from the original (%s): %s" % (what, why), pytrace=False)


@pytest.mark.checkpoint("w45.nobreaks")
def test_compiles_whole(dev, gen):
    """torch.compile(fullgraph=True) compiles it (a break would be an error) and the compiled
    function returns the original's values, on inputs that take both sides of the rescale."""
    import torch._dynamo
    ex = wb_pytest.exercise("nobreaks")
    torch._dynamo.reset()
    compiled = torch.compile(ex.pool, fullgraph=True, dynamic=False)
    for scale, limit in ((3.0, 2.0), (0.1, 2.0)):
        x, w = pool_inputs(4, 8, 16, 8, scale, gen, dev)
        try:
            got = quiet(compiled, x.clone(), w.clone(), limit)
        except Exception as exc:  # a graph break under fullgraph=True
            pytest.fail("torch.compile(nobreaks.pool, fullgraph=True) failed: %s"
                        % str(exc).strip().splitlines()[0][:300], pytrace=False)
        why = wb_pytest.mismatch(got, quiet(original_pool, x, w, limit), 1e-5, 1e-4)
        if why:
            pytest.fail("compiled nobreaks.pool differs from the original (scale %g, limit %g): %s"
                        % (scale, limit, why), pytrace=False)


# ---------------------------------------------------------------- printed, not judged

@pytest.mark.checkpoint("w45.predict")
def test_note_speed(dev, gen, speed):
    """Compiled against eager for the MLP block at a larger size (a note for people, no target)."""
    wb_pytest.need_compiled()
    import torch._dynamo
    if dev.type != "cuda":
        pytest.skip("timings need the GPU")
    args = (torch.randn(4096, 1024, generator=gen, device=dev), torch.randn(4096, 1024, generator=gen, device=dev),
            torch.randn(4096, generator=gen, device=dev), torch.randn(1024, 4096, generator=gen, device=dev),
            torch.randn(1024, generator=gen, device=dev), torch.randn(1024, generator=gen, device=dev),
            torch.randn(1024, generator=gen, device=dev))
    torch._dynamo.reset()
    with BLOCKS.pinned():
        compiled = torch.compile(BLOCKS.mlp_block, fullgraph=True, dynamic=False)
        compiled(*args)
    # timed as every Phase 7 figure is (wb_bench.time_ms: warm-up, L2 flushed, samples queued back to
    # back, one wait at the end, the median): a wait after each sample would count the host's work at
    # each start (Dynamo's guards, the launches from Python) as GPU time
    times = {label: wb_bench.time_ms(lambda: fn(*args))[0]
             for label, fn in (("eager", BLOCKS.mlp_block), ("compiled", compiled))}
    ratio = times["eager"] / times["compiled"] if times["compiled"] > 0 else math.nan
    speed.note("w45 mlp_block at 4096 x 1024 (hidden 4096), FP32: eager %.3f ms, compiled %.3f ms, %.2fx "
               "(printed, not judged)" % (times["eager"], times["compiled"], ratio))
