"""Week 52's capstone checkpoints (w52.cap-*): one training step of a
transformer block on your kernels, over every GPU of the host.

Run by `make phase8/week52 check` after test_week52.c (phase7/common/wb_pyrun.py,
with the workbook's pytest plugin phase7/common/wb_pytest.py): never by hand.
The C test judges the regression suite's checkpoints; these are the week's
`pycheckpoint:` lines.

w52.cap-ops runs here, in the test process. Every other checkpoint is judged
from one launch: this file runs torchrun itself (`python -m
torch.distributed.run` from this interpreter) with support/capstone_ranks.py
on N processes, one a GPU, N = every GPU of the host up to 8, and reads back
the verdict each rank writes (OUT/rank<R>.json: the fields are in
capstone_ranks.py's docstring). On a GPU the extension of your kernels
(support/capstone/) is built here first, once, so the ranks only load it.

WB_PY_CPU=1 is the CPU rehearsal: gloo, N = 2 processes (WB_CAP_NPROC to
change it), the ops' CPU kernels (capstone.py's references of your
kernels), the optimizer eager instead of in a graph, every check but the
timing (w52.cap-speed SKIPs). Where torch cannot be imported, or (without
WB_PY_CPU=1) sees no GPU, every checkpoint is SKIP with the reason.

NVLink multicast stays off in every process started here: the three
settings go into torchrun's environment, and capstone_ranks.py sets them
again before torch loads.

Tolerances (capstone_ranks.py, README "Capstone"): the loss within 1e-2
relative of the FP32 reference's; each gradient within 3e-2 of the tensor's
largest |gradient| + 5e-2 |ref|; each weight's change over 5 steps within
2e-2 of the largest change + 5e-2 |ref| of eager PyTorch's; the QKV weight
by its q, k and v thirds (capstone_ranks.parts). NaN never passes.
w52.cap-speed's target (>= 0.55 of eager PyTorch's step rate) is the
reference's lowest measured ratio (0.610, one H200) less 10 % (README,
"Speed").
"""

import os

import pytest

import wb_pytest
import wb_torchrun

torch = wb_pytest.need("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS_PY = os.path.join(HERE, "support", "capstone_ranks.py")
TIMEOUT_S = 900  # a launch: NCCL's init, four models, torch.compile of one, about 200 steps on a GPU
R = wb_torchrun.load(RANKS_PY, "capstone_ranks")
CPU = wb_torchrun.CPU
MAX_GPUS = wb_torchrun.MAX_GPUS
where, need_dist, code = wb_torchrun.where, wb_torchrun.need_dist, wb_torchrun.code


def ranks_all():
    return wb_torchrun.ranks_all("WB_CAP_NPROC")


_EXT = {}


def ext():
    """The extension of your kernels (None on the CPU), built once a run, here."""
    if CPU:
        return None
    if "m" not in _EXT:
        try:
            _EXT["m"] = R.load_ext(code())
        except Exception as e:  # ExtBuildError, a missing week's file
            _EXT["m"] = e
    if isinstance(_EXT["m"], Exception):
        pytest.fail("the extension of your kernels did not build: %s" % _EXT["m"], pytrace=False)
    return _EXT["m"][0]


class Launch(wb_torchrun.Launch):
    """One torchrun launch at n ranks and the verdicts its ranks wrote."""

    def __init__(self, n):
        super().__init__(n, RANKS_PY, os.path.join("phase8", "week52"), "capstone-runs", TIMEOUT_S)


_LAUNCHES = {}


def launch(part=None):
    n = ranks_all()
    if n < 1:
        pytest.skip("no GPU visible to torch")
    ext()  # built here, once, before the ranks load it
    if n not in _LAUNCHES:
        _LAUNCHES[n] = Launch(n)
    L = _LAUNCHES[n]
    why = L.problem(part)
    if why:
        pytest.fail(why, pytrace=False)
    return L


# ---------------------------------------------------------------- w52.cap-ops

def _samples(dev, gen):
    S, H, D = (64, 2, 64) if dev.type == "cpu" else (256, 2, 128)

    def bf(*shape):
        return torch.randn(shape, generator=gen, device=dev).to(torch.bfloat16).requires_grad_()

    def f32(*shape):
        return torch.randn(shape, generator=gen, device=dev).requires_grad_()

    return [(torch.ops.wb52.attn_fwd.default, (bf(2, H, S, D), bf(2, H, S, D), bf(2, H, S, D), D ** -0.5)),
            (torch.ops.wb52.ln_fwd.default, (f32(3 * S, 128), f32(128), f32(128), 1e-5))]


@pytest.mark.checkpoint("w52.cap-ops")
def test_ops(seed):
    """opcheck (schema, fake kernel, autograd registration, AOT dispatch) of the ops on every device
    there is, then the block's loss and gradients through torch.compile(fullgraph=True) (backend
    aot_eager: the tracing torch.compile does, no code generation) against eager."""
    cap = wb_pytest.exercise("capstone")
    cap.define_ops(ext())
    devs = [torch.device("cpu")] + ([] if CPU else [torch.device("cuda")])
    for dev in devs:
        gen = torch.Generator(device=dev)
        gen.manual_seed(seed)
        for op, args in _samples(dev, gen):
            res = torch.library.opcheck(op, args, raise_exception=False)
            bad = {k: v for k, v in res.items() if v != "SUCCESS"}
            if bad:
                k = sorted(bad)[0]
                pytest.fail("opcheck of %s on %s: %s failed: %s" % (op, dev, k, str(bad[k]).splitlines()[0][:300]),
                            pytrace=False)
    dev = devs[-1]
    cfg = R.CPU_CFG
    torch._dynamo.reset()
    block = R.init_block(torch, cap.Block(cfg["d_model"], cfg["heads"], cfg["hidden"]), seed % 100000).to(dev)
    x, y = R.batch(torch, cfg, seed % 100000, 0, 0, dev)
    loss = cap.loss_fn(block(x), y)
    grads = torch.autograd.grad(loss, list(block.parameters()))
    try:
        comp = torch.compile(lambda t: cap.loss_fn(block(t), y), backend="aot_eager", fullgraph=True)
        closs = comp(x)
        cgrads = torch.autograd.grad(closs, list(block.parameters()))
    except Exception as e:
        pytest.fail("torch.compile(fullgraph=True) of the block through your ops: %s: %s"
                    % (type(e).__name__, str(e).splitlines()[0][:300] if str(e) else ""), pytrace=False)
    why = wb_pytest.mismatch(closs.detach().reshape(1), loss.detach().reshape(1), 0, 1e-5)
    for (name, _p), g, cg in zip(block.named_parameters(), grads, cgrads):
        why = why or (wb_pytest.mismatch(cg, g, 1e-6 * float(g.abs().max()), 1e-4) and
                      "%s: %s" % (name, wb_pytest.mismatch(cg, g, 1e-6 * float(g.abs().max()), 1e-4)))
    if why:
        pytest.fail("the compiled block's loss or gradients differ from eager's on %s: %s" % (dev, why), pytrace=False)


# ---------------------------------------------------------------- the launch

@pytest.mark.checkpoint("w52.cap-grads")
def test_grads(speed):
    need_dist()
    L = launch("grads")
    for r, v in enumerate(L.v):
        if v["grads"]["bad"]:
            pytest.fail("%s, rank %d: one step of the block against the FP32 reference: %s"
                        % (where(L.n), r, v["grads"]["bad"]), pytrace=False)
    v = L.v[0]
    speed.record({"detail": "%s: loss %.6g (FP32 reference %.6g), every gradient within tolerance (worst %.2f of "
                             "it); kernels: %s" % (where(L.n), v["grads"]["loss"], v["grads"]["loss_ref"],
                                                   max(u["grads"]["worst"] for u in L.v),
                                                   ", ".join(v.get("kernels") or ["the CPU references"]))})


@pytest.mark.checkpoint("w52.cap-steps")
def test_steps(speed):
    need_dist()
    L = launch("steps")
    for r, v in enumerate(L.v):
        s = v["steps"]
        if s["comm"]:
            pytest.fail("%s, rank %d, MiniDDP's all-reduces, %s" % (where(L.n), r, s["comm"]), pytrace=False)
        if not s["finite"]:
            pytest.fail("%s, rank %d: a weight is NaN or infinite after %d steps" % (where(L.n), r, s["steps"]),
                        pytrace=False)
        if not s["moved"]:
            pytest.fail("%s, rank %d: the weights did not change in %d steps" % (where(L.n), r, s["steps"]),
                        pytrace=False)
        if s["ref"]:
            pytest.fail("%s, rank %d, against PyTorch eager with DDP: %s" % (where(L.n), r, s["ref"]), pytrace=False)
    speed.record({"detail": "%s: %d steps, every weight's change within tolerance of PyTorch eager + DDP's (worst "
                             "%.2f of it); %d async all-reduce%s a step, all issued inside backward"
                             % (where(L.n), L.v[0]["steps"]["steps"], max(v["steps"]["worst"] for v in L.v),
                                L.v[0]["steps"]["calls"], "" if L.v[0]["steps"]["calls"] == 1 else "s")})


@pytest.mark.checkpoint("w52.cap-sync")
def test_sync(speed):
    need_dist()
    n = ranks_all()
    if n < 2:
        pytest.skip("needs 2 GPUs, found %d (it uses every GPU of the host, 2 to %d)" % (n, MAX_GPUS) if not CPU
                    else "needs 2 processes (WB_CAP_NPROC=%d)" % n)
    L = launch("steps")
    digests = [v["steps"]["digest"] for v in L.v]
    if len(set(digests)) != 1:
        odd = [r for r, d in enumerate(digests) if d != digests[0]]
        pytest.fail("%s: after %d steps rank %d's weights differ from rank 0's (%d of %d ranks differ)"
                    % (where(n), L.v[0]["steps"]["steps"], odd[0], len(odd), n), pytrace=False)
    for r, v in enumerate(L.v):
        if not v["steps"]["moved"] or not v["steps"]["finite"]:
            pytest.fail("%s, rank %d: the weights did not move or are not finite" % (where(n), r), pytrace=False)
    speed.record({"detail": "%s: after %d steps every rank holds the same weights, bit for bit"
                             % (where(n), L.v[0]["steps"]["steps"])})


@pytest.mark.checkpoint("w52.cap-graph")
def test_graph(speed):
    need_dist()
    L = launch("graph")
    for r, v in enumerate(L.v):
        g = v["graph"]
        if g["storage"]:
            pytest.fail("%s, rank %d: %s" % (where(L.n), r, g["storage"]), pytrace=False)
        if CPU:
            if g["captures"] or g["replays"]:
                pytest.fail("rank %d: a CUDA graph on the CPU rehearsal?" % r, pytrace=False)
            continue
        if g["captures"] != 1 or g["replays"] != g["steps"]:
            pytest.fail("%s, rank %d: over %d steps the optimizer captured %d CUDA graphs and replayed %d times; "
                        "want 1 capture (the first step) and %d replays (one a step)"
                        % (where(L.n), r, g["steps"], g["captures"], g["replays"], g["steps"]), pytrace=False)
    g = L.v[0]["graph"]
    if CPU:
        speed.record({"detail": "%s: the optimizer ran eagerly (no graphs on the CPU); parameters and gradients "
                                 "kept their storage over %d steps, as a graph needs" % (where(L.n), g["steps"])})
    else:
        speed.record({"detail": "%s: 1 capture, %d replays in %d steps; parameters and gradients kept their storage"
                                 % (where(L.n), g["replays"], g["steps"])})


@pytest.mark.checkpoint("w52.cap-speed")
def test_speed(speed):
    need_dist()
    if CPU:
        pytest.skip("WB_PY_CPU=1: a rehearsal on the CPU, timings mean nothing")
    L = launch()
    for r, v in enumerate(L.v):
        if v["grads"]["bad"] or v["steps"]["ref"] or v["steps"]["comm"] or not v["steps"]["finite"]:
            pytest.fail("no figure: rank %d's step is wrong (w52.cap-grads and w52.cap-steps say how)" % r,
                        pytrace=False)
    ts = [v.get("time") for v in L.v]
    if any(t is None or not t.get("finite") for t in ts):
        pytest.fail("%s: a rank wrote no step times (log: %s)" % (where(L.n), os.path.relpath(L.log)), pytrace=False)
    t = ts[0]
    mine, eager, comp = t["mine_ms"], t["eager_ms"], t["compile_ms"]
    rate = lambda ms: L.n * t["tokens"] / (ms / 1e3)  # noqa: E731 (tokens a second, all ranks)
    comp_txt = ("torch.compile %.3f ms (%.2fx of yours)" % (comp, mine / comp) if comp
                else "torch.compile did not run: %s" % t["compile_error"])
    speed.record({"value": rate(mine), "unit": "tokens/s", "yard": "EAGER", "yard_value": rate(eager),
                   "ratio": eager / mine,
                   "detail": "%s: yours %.3f ms a step, PyTorch eager %.3f ms, %s (median of %d warm steps each, the "
                             "slowest rank's; %d tokens a rank)" % (where(L.n), mine, eager, comp_txt, t["steps"],
                                                                   t["tokens"])})
