"""ddp_ranks.py — week 63's rank program: one process a GPU, started by torchrun.

    torchrun --standalone --nproc-per-node=N support/ddp_ranks.py --code DIR --out DIR [--cpu] [--time]

test_week63.py starts it (never by hand, though it runs by hand too) and
reads back what each rank writes: OUT/rank<R>.json, the rank's verdict.
Every rank trains the same model twice, once wrapped in your MiniDDP (DIR/ddp.py)
and once in torch's DistributedDataParallel, on the same data, from the same
weights, and writes:

  comm    what your step sent through dist.all_reduce, judged against the
          bucket plan at the cap: one call a bucket, in order, each of the
          bucket's size, async_op=True, every one issued inside backward
  grads   your gradients after one step against DDP's (rtol 1e-5, atol 1e-6
          of the tensor's largest |gradient|; NaN never passes)
  sync    after STEPS steps of SGD with momentum: a digest of your weights
          (the test compares the ranks' digests), their distance to DDP's
          weights (rtol 1e-4, atol 1e-5 of the tensor's largest |weight|),
          whether they moved and stayed finite
  time    (--time, GPUs only) the median step time of warm steps, yours
          and DDP's, alternated in rounds, the slowest rank's median

A rank whose code raises writes the error and leaves at once (os._exit):
torchrun then stops the others, so a failure never waits for a timeout.

NVLink multicast stays off: the three settings are set here, before torch
loads, whatever the launcher's environment says (the test sets them too).
"""

import os

MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
os.environ.update(MULTICAST_OFF)

import argparse  # noqa: E402
import datetime  # noqa: E402
import hashlib  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

# The model: an MLP of pre-LN residual blocks, a transformer block without
# the attention. 4.3 M parameters (17 MB of FP32 gradients), 18 tensors.
D_IN, D_MODEL, D_HIDDEN, N_BLOCKS, N_CLASSES = 256, 512, 2048, 2, 16
BUCKET_CAP_MB = 2.0       # the same cap for MiniDDP and DDP: 9 buckets
BATCH_GPU, BATCH_CPU = 4096, 32   # rows a rank a step
STEPS = 5                 # steps before the weights are compared
WARM, ROUNDS, PER_ROUND = 5, 5, 10  # timing: warm-up steps, then rounds of PER_ROUND steps each side
GRAD_RTOL, GRAD_ATOL = 1e-5, 1e-6   # atol is a fraction of the tensor's largest |value|
PARAM_RTOL, PARAM_ATOL = 1e-4, 1e-5


def ref_plan_buckets(sizes, cap_bytes):
    """The bucket plan the checkpoints hold your plan_buckets and your
    all-reduces to (README, "Buckets")."""
    plan, held = [], 0  # held: the bytes of the last bucket of the plan
    for i in reversed(range(len(sizes))):
        if plan and held + sizes[i] <= cap_bytes:
            plan[-1].append(i)
            held += sizes[i]
        else:
            plan.append([i])
            held = sizes[i]
    return plan


def make_model(torch, seed, device):
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = nn.LayerNorm(D_MODEL)
            self.up = nn.Linear(D_MODEL, D_HIDDEN)
            self.down = nn.Linear(D_HIDDEN, D_MODEL)

        def forward(self, x):
            return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Linear(D_IN, D_MODEL)
            self.blocks = nn.ModuleList([Block() for _ in range(N_BLOCKS)])
            self.norm = nn.LayerNorm(D_MODEL)
            self.head = nn.Linear(D_MODEL, N_CLASSES)

        def forward(self, x):
            h = self.embed(x)
            for b in self.blocks:
                h = b(h)
            return self.head(self.norm(h))

    g = torch.random.fork_rng(devices=[])
    with g:
        torch.manual_seed(seed)
        net = Net()
        with torch.no_grad():  # LayerNorm starts at 1 and 0: perturb them, so every gradient is exercised
            for m in net.modules():
                if isinstance(m, nn.LayerNorm):
                    m.weight.add_(0.1 * torch.randn_like(m.weight))
                    m.bias.add_(0.1 * torch.randn_like(m.bias))
    return net.to(device)


def batch(torch, seed, rank, step, rows, device):
    """Rank `rank`'s data for step `step`: every rank a different shard."""
    g = torch.Generator()
    g.manual_seed(seed * 1000003 + rank * 7919 + step)
    x = torch.randn(rows, D_IN, generator=g)
    y = torch.randint(0, N_CLASSES, (rows,), generator=g)
    return x.to(device), y.to(device)


def mismatch(torch, got, want, rtol, atol_frac):
    """"" when got matches want (atol = atol_frac of want's largest |value|), else what differs."""
    if got is None:
        return "no gradient (p.grad is None)"
    got, want = got.detach().double().flatten().cpu(), want.detach().double().flatten().cpu()
    if got.shape != want.shape:
        return "%d elements, want %d" % (got.numel(), want.numel())
    if got.numel() == 0:
        return ""
    atol = atol_frac * float(want.abs().max())
    ok = (got - want).abs() <= atol + rtol * want.abs()  # NaN compares false: never passes
    bad = (~ok).nonzero()
    if not bad.numel():
        return ""
    i = int(bad[0])
    return "%d of %d wrong; first at %d: got %r, want %r (atol %.3g, rtol %g)" % (
        bad.numel(), got.numel(), i, float(got[i]), float(want[i]), atol, rtol)


class Recorder:
    """Wraps dist.all_reduce: what the code under test sends, when, how."""

    def __init__(self, dist):
        self.dist, self.real, self.on, self.phase, self.calls = dist, dist.all_reduce, False, "", []

    def __call__(self, tensor, *args, **kwargs):
        if self.on:
            async_op = kwargs.get("async_op", args[2] if len(args) > 2 else False)
            self.calls.append((int(tensor.numel()), bool(async_op), self.phase))
        return self.real(tensor, *args, **kwargs)


def load_exercise(code):
    path = os.path.join(code, "ddp.py")
    spec = importlib.util.spec_from_file_location("ddp", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["ddp"] = mod
    spec.loader.exec_module(mod)
    return mod


def judge_comm(calls, plan_numels):
    """"" when the step's all-reduces are the plan's buckets, in order, async, inside backward."""
    if not calls:
        return "no dist.all_reduce was issued during the step (the gradients were never reduced)"
    got = [c[0] for c in calls]
    if got != plan_numels:
        return ("the all-reduces sent %d tensors of %s elements; the plan at %g MB is %d buckets of %s, in that order"
                % (len(got), got[:12], BUCKET_CAP_MB, len(plan_numels), plan_numels[:12]))
    if not all(c[1] for c in calls):
        return "an all-reduce was issued with async_op=False: the hook blocked backward until it finished"
    late = [k for k, c in enumerate(calls) if c[2] != "backward"]
    if late:
        return ("%d of %d all-reduces were issued after backward returned (bucket %d first): nothing overlapped "
                "with backward" % (len(late), len(calls), late[0]))
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--code", required=True, help="the folder holding ddp.py")
    ap.add_argument("--out", required=True, help="where rank<R>.json goes")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--cpu", action="store_true", help="gloo on the CPU (a rehearsal: no timing)")
    ap.add_argument("--time", action="store_true", help="time MiniDDP against DDP")
    a = ap.parse_args()

    rank = int(os.environ.get("RANK", "0"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    out = {"rank": rank, "error": ""}
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "rank%d.json" % rank)

    def write():
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(out, f)
        os.replace(tmp, path)

    try:
        import torch
        import torch.distributed as dist
        from torch.nn.parallel import DistributedDataParallel as DDP

        out["multicast_off"] = all(os.environ.get(k) == v for k, v in MULTICAST_OFF.items())
        timeout = datetime.timedelta(seconds=120)
        if a.cpu:
            device = torch.device("cpu")
            dist.init_process_group("gloo", timeout=timeout)
            rows = BATCH_CPU
        else:
            device = torch.device("cuda", local)
            torch.cuda.set_device(device)
            dist.init_process_group("nccl", timeout=timeout, device_id=device)
            rows = BATCH_GPU
        world = dist.get_world_size()
        out.update(world=world, device=str(device),
                   gpu=torch.cuda.get_device_name(device) if device.type == "cuda" else "")

        rec = Recorder(dist)
        dist.all_reduce = rec  # before the exercise loads: `from torch.distributed import all_reduce` sees it too
        ex = load_exercise(a.code)

        # Different weights on every rank on purpose: the wrappers must start everyone from rank 0's.
        mine = ex.MiniDDP(make_model(torch, a.seed + 101 * rank, device), bucket_cap_mb=BUCKET_CAP_MB)
        ref = DDP(make_model(torch, a.seed + 101 * rank, device), device_ids=[local] if device.type == "cuda" else None,
                  bucket_cap_mb=BUCKET_CAP_MB)
        pm = [p for p in mine.module.parameters() if p.requires_grad]
        pr = [p for p in ref.module.parameters() if p.requires_grad]
        sizes = [p.numel() * p.element_size() for p in pm]
        plan = ref_plan_buckets(sizes, int(BUCKET_CAP_MB * 1024 * 1024))
        plan_numels = [sum(pm[i].numel() for i in b) for b in plan]
        out["params"] = sum(p.numel() for p in pm)
        out["buckets"] = len(plan)

        def step_mine(x, y, opt=None, watch=False):
            for p in pm:
                p.grad = None
            rec.on, rec.phase = watch, "forward"
            loss = torch.nn.functional.cross_entropy(mine(x), y)
            rec.phase = "backward"
            loss.backward()
            rec.phase = "after"
            mine.finish_grad_sync()
            rec.on = False
            if opt is not None:
                opt.step()
            return loss

        def step_ref(x, y, opt=None):
            for p in pr:
                p.grad = None
            loss = torch.nn.functional.cross_entropy(ref(x), y)
            loss.backward()
            if opt is not None:
                opt.step()
            return loss

        # (a) one step: the all-reduces, then the gradients against DDP's
        x, y = batch(torch, a.seed, rank, 0, rows, device)
        rec.calls = []
        step_mine(x, y, watch=True)
        out["comm"] = judge_comm(rec.calls, plan_numels)
        out["calls"] = len(rec.calls)
        step_ref(x, y)
        bad = ""
        for k, (p, q) in enumerate(zip(pm, pr)):
            why = mismatch(torch, p.grad, q.grad, GRAD_RTOL, GRAD_ATOL)
            if why:
                bad = "parameter %d %s: %s" % (k, tuple(p.shape), why)
                break
        out["grads"] = bad

        # (b) several steps of SGD with momentum; the weights after them
        om = torch.optim.SGD(pm, lr=0.05, momentum=0.9)
        orf = torch.optim.SGD(pr, lr=0.05, momentum=0.9)
        start = [p.detach().clone() for p in pm]
        comm_later = ""
        for s in range(STEPS):
            x, y = batch(torch, a.seed, rank, 1 + s, rows, device)
            rec.calls = []
            step_mine(x, y, om, watch=True)
            why = judge_comm(rec.calls, plan_numels)
            if why and not comm_later:
                comm_later = "step %d: %s" % (s + 2, why)
            step_ref(x, y, orf)
        h = hashlib.sha256()
        finite, moved, diff = True, False, ""
        for k, (p, q, p0) in enumerate(zip(pm, pr, start)):
            t = p.detach().cpu().contiguous()
            h.update(t.numpy().tobytes())
            finite = finite and bool(torch.isfinite(t).all())
            moved = moved or not torch.equal(p.detach(), p0)
            if not diff:
                why = mismatch(torch, p, q, PARAM_RTOL, PARAM_ATOL)
                diff = why and "parameter %d %s: %s" % (k, tuple(p.shape), why)
        out["sync"] = {"digest": h.hexdigest(), "finite": finite, "moved": moved, "ddp": diff, "comm": comm_later,
                       "steps": STEPS}

        # (c) time: warm steps, rounds alternating yours and DDP's
        if a.time and device.type == "cuda":
            ms = {"mine": [], "ddp": []}
            for s in range(WARM):
                step_mine(x, y, om)
                step_ref(x, y, orf)
            for r in range(ROUNDS):
                for name, fn, opt in (("mine", step_mine, om), ("ddp", step_ref, orf)):
                    for s in range(PER_ROUND):
                        torch.cuda.synchronize()
                        t0 = time.perf_counter()
                        fn(x, y, opt)
                        torch.cuda.synchronize()
                        ms[name].append((time.perf_counter() - t0) * 1e3)
            med = torch.tensor([statistics.median(ms["mine"]), statistics.median(ms["ddp"])], dtype=torch.float64,
                               device=device)
            rec.real(med, op=dist.ReduceOp.MAX)  # the slowest rank's median is the step's
            out["time"] = {"mine_ms": float(med[0]), "ddp_ms": float(med[1]), "rows": rows, "steps": len(ms["mine"]),
                           "finite": all(math.isfinite(v) for v in ms["mine"] + ms["ddp"])}
        dist.barrier()
        write()
        dist.destroy_process_group()
    except BaseException as e:
        # the error and the innermost frame (usually your ddp.py) for the test's message
        tb = traceback.extract_tb(e.__traceback__)
        where = " (%s:%d, in %s)" % (os.path.basename(tb[-1].filename), tb[-1].lineno, tb[-1].name) if tb else ""
        out["error"] = ("%s: %s" % (type(e).__name__, e))[:500] + where
        try:
            write()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            traceback.print_exc()
            os._exit(1)


if __name__ == "__main__":
    main()
