"""Week 63's checkpoints: data-parallel training with a DDP of your own.

Run by `make phase8/week63 check` (phase7/common/wb_pyrun.py, with the
workbook's pytest plugin phase7/common/wb_pytest.py): never by hand.

w63.buckets runs here, in the test process. Every other checkpoint is judged
from a launch: this file runs torchrun itself (`python -m
torch.distributed.run`, the program behind the `torchrun` command, from this
interpreter) with support/ddp_ranks.py on N processes, one a GPU, N = every
GPU of the host up to 8, and reads back the verdict each rank writes
(OUT/rank<R>.json: see ddp_ranks.py's docstring for its fields). One launch
at N serves w63.grads, w63.sync and w63.speed; w63.scaling adds one at N = 1.
A launch that times out, a rank that raises or writes no verdict, fails
every checkpoint that needed it, with the rank, the error and the log's path.

WB_PY_CPU=1 is the CPU rehearsal: gloo on the CPU, N = 2 processes
(WB_DDP_NPROC to change it), every check of the logic as on the GPUs, no
timing (w63.speed and w63.scaling SKIP after their checks), nothing recorded
as run on a GPU. Where torch cannot be imported, or (without WB_PY_CPU=1)
sees no GPU, every checkpoint is SKIP with the reason.

NVLink multicast stays off in every process started here: the three
settings go into torchrun's environment, and ddp_ranks.py sets them again
before torch loads.

Tolerances (ddp_ranks.py): gradients after one step against DDP's, rtol
1e-5 and atol 1e-6 of each tensor's largest |gradient|; weights after five
SGD steps against DDP's, rtol 1e-4 and atol 1e-5 of the tensor's largest
|weight|; across ranks the weights are bit for bit equal (a digest). NaN
never passes. w63.speed's target (>= 0.61 of DDP's throughput) is the
reference's ratio on two H200s (0.680, 2026-11-28) less a 10 % margin.
"""

import os
import random

import pytest

import wb_pytest
import wb_torchrun

torch = wb_pytest.need("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
RANKS_PY = os.path.join(HERE, "support", "ddp_ranks.py")
TIMEOUT_S = 300  # a launch: NCCL's init, two models, about 130 steps each on a GPU
R = wb_torchrun.load(RANKS_PY, "ddp_ranks")
CPU = wb_torchrun.CPU
MAX_GPUS = wb_torchrun.MAX_GPUS
where, need_dist = wb_torchrun.where, wb_torchrun.need_dist


def ranks_all():
    """N: every GPU of the host up to 8; under WB_PY_CPU=1, WB_DDP_NPROC processes (2)."""
    return wb_torchrun.ranks_all("WB_DDP_NPROC")


class Launch(wb_torchrun.Launch):
    """One torchrun launch at n ranks and the verdicts its ranks wrote."""

    def __init__(self, n):
        super().__init__(n, RANKS_PY, os.path.join("phase8", "week63"), "ddp-runs", TIMEOUT_S,
                         hang_hint="a rank waiting in a collective the others never issued?")

    def step_problem(self):
        """"" when the launch ran and every rank's first step was right (its
        all-reduces and its gradients), else why not."""
        why = self.problem()
        if why:
            return why
        for r, v in enumerate(self.v):
            if v.get("comm"):
                return "%s, rank %d: %s" % (where(self.n), r, v["comm"])
            if v.get("grads"):
                return "%s, rank %d: gradients after one step differ from DDP's: %s" % (where(self.n), r, v["grads"])
        return ""


_LAUNCHES = {}


def launch(n):
    """The launch at n ranks, made once a run."""
    if n not in _LAUNCHES:
        _LAUNCHES[n] = Launch(n)
    return _LAUNCHES[n]


# ---------------------------------------------------------------- w63.buckets

@pytest.mark.checkpoint("w63.buckets")
def test_buckets(seed):
    ex = wb_pytest.exercise("ddp")
    rng = random.Random(seed)
    model_sizes = [p.numel() * 4 for p in R.make_model(torch, 0, "cpu").parameters()]
    cases = [([], 1024), ([4], 4), ([4], 1), ([8, 8, 8], 16), ([8, 8, 8], 15), ([100], 10), ([0, 0, 4, 0], 4),
             ([4, 100, 4, 4], 8), (model_sizes, 2 << 20), (model_sizes, 25 << 20), (model_sizes, 1)]
    for _ in range(300):
        n = rng.choice([1, 2, 3, 7, 20, 64, 200, 800])
        cap = rng.choice([4, 64, 1000, 4096, 1 << 20, 25 << 20])
        sizes = [rng.choice([0, 4, 4 * rng.randint(1, 64), rng.randint(1, 2 * cap), 4 * rng.randint(1, 1 << 20)])
                 for _ in range(n)]
        cases.append((sizes, cap))
    for sizes, cap in cases:
        want = R.ref_plan_buckets(sizes, cap)
        got = ex.plan_buckets(list(sizes), cap)
        got = [list(b) for b in got] if isinstance(got, (list, tuple)) else got
        if got != want:
            show = sizes if len(sizes) <= 8 else "%d sizes, %s..." % (len(sizes), sizes[:6])
            pytest.fail("plan_buckets(%s, cap %d): got %s, want %s" % (
                show, cap, str(got)[:200], str(want)[:200]), pytrace=False)


# ---------------------------------------------------------------- the launches

@pytest.mark.checkpoint("w63.grads")
def test_grads(speed):
    need_dist()
    n = ranks_all()
    if n < 1:
        pytest.skip("no GPU visible to torch")
    L = launch(n)
    why = L.step_problem()
    if why:
        pytest.fail(why, pytrace=False)
    v = L.v[0]
    speed.record({"detail": "%s: every rank's gradients equal DDP's after one step (%d parameters, %d buckets, "
                             "%d async all-reduces issued inside backward)" % (where(n), v["params"], v["buckets"],
                                                                               v["calls"])})


@pytest.mark.checkpoint("w63.sync")
def test_sync(speed):
    need_dist()
    n = ranks_all()
    if n < 2:
        pytest.skip("needs 2 GPUs, found %d (it uses every GPU of the host, 2 to %d)" % (n, MAX_GPUS))
    L = launch(n)
    why = L.problem()
    if why:
        pytest.fail(why, pytrace=False)
    digests = [v["sync"]["digest"] for v in L.v]
    for r, v in enumerate(L.v):
        s = v["sync"]
        if not s.get("finite"):
            pytest.fail("%s, rank %d: a weight is NaN or infinite after %d steps" % (where(n), r, s["steps"]),
                        pytrace=False)
        if not s.get("moved"):
            pytest.fail("%s, rank %d: the weights did not change in %d steps" % (where(n), r, s["steps"]),
                        pytrace=False)
    if len(set(digests)) != 1:
        odd = [r for r, d in enumerate(digests) if d != digests[0]]
        pytest.fail("%s: after %d steps rank %d's weights differ from rank 0's (%d of %d ranks differ): every "
                    "rank must start from rank 0's weights and step with the same averaged gradients"
                    % (where(n), L.v[0]["sync"]["steps"], odd[0], len(odd), n), pytrace=False)
    for r, v in enumerate(L.v):
        s = v["sync"]
        if s.get("ddp"):
            pytest.fail("%s, rank %d: after %d steps the weights differ from DDP's: %s" % (
                where(n), r, s["steps"], s["ddp"]), pytrace=False)
        if s.get("comm"):
            pytest.fail("%s, rank %d, %s" % (where(n), r, s["comm"]), pytrace=False)
    speed.record({"detail": "%s: after %d SGD steps every rank holds the same weights, bit for bit, within "
                             "tolerance of DDP's" % (where(n), L.v[0]["sync"]["steps"])})


def times(L):
    """The step times (ms, the slowest rank's medians) of a launch whose steps were right."""
    why = L.step_problem()
    if why:
        pytest.fail("no figure: " + why, pytrace=False)
    ts = [v.get("time") for v in L.v]
    if any(t is None or not t.get("finite") for t in ts):
        pytest.fail("%s: a rank wrote no step times (log: %s)" % (where(L.n), os.path.relpath(L.log)), pytrace=False)
    return max(t["mine_ms"] for t in ts), max(t["ddp_ms"] for t in ts), ts[0]["rows"], ts[0]["steps"]


@pytest.mark.checkpoint("w63.speed")
def test_speed(speed):
    need_dist()
    if CPU:
        pytest.skip("WB_PY_CPU=1: a rehearsal on the CPU, timings mean nothing")
    n = ranks_all()
    if n < 1:
        pytest.skip("no GPU visible to torch")
    mine, ddp, rows, steps = times(launch(n))
    rate = lambda ms: n * rows / (ms / 1e3)  # noqa: E731 (samples a second, all ranks)
    speed.record({"value": rate(mine), "unit": "samples/s", "yard": "DDP", "yard_value": rate(ddp),
                   "ratio": ddp / mine,
                   "detail": "%s: MiniDDP %.3f ms a step, DDP %.3f ms (median of %d warm steps each, the slowest "
                             "rank's; %d rows a rank)" % (where(n), mine, ddp, steps, rows)})


@pytest.mark.checkpoint("w63.scaling")
def test_scaling(speed):
    need_dist()
    n = ranks_all()
    if n < 1:
        pytest.skip("no GPU visible to torch")
    one = launch(1)
    why = one.step_problem()
    if why:
        pytest.fail(why, pytrace=False)
    if CPU:
        pytest.skip("WB_PY_CPU=1: one process ran right; on the CPU the timings mean nothing")
    m1, d1, rows, _ = times(one)
    if n == 1:
        speed.record({"detail": "1 GPU: MiniDDP %.3f ms a step, DDP %.3f ms (%d rows); one GPU, no scaling to "
                                 "report" % (m1, d1, rows)})
        return
    mn, dn, _, _ = times(launch(n))
    speed.record({"value": m1 / mn, "unit": "efficiency",
                   "detail": "1 and %d GPUs, %d rows a rank: MiniDDP %.3f -> %.3f ms a step, efficiency %.3f; DDP "
                             "%.3f -> %.3f ms, efficiency %.3f (efficiency = t1 / t%d, the same batch a rank)"
                             % (n, rows, m1, mn, m1 / mn, d1, dn, d1 / dn, n)})
