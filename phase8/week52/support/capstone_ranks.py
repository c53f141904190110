"""capstone_ranks.py — week 52's capstone rank program: one process a GPU, started by torchrun.

    torchrun --standalone --nproc-per-node=N support/capstone_ranks.py --code DIR --out DIR [--cpu] [--time]

test_week52.py starts it (never by hand, though it runs by hand too, with
WB_PY_DIR and WB_WEEK set as the test sets them) and reads back what each
rank writes: OUT/rank<R>.json, the rank's verdict. DIR holds capstone.py;
MiniDDP is week 63's ddp.py (yours, or the reference when DIR is a
`solution` folder: kernel_sources() and ddp_path() say which files).

  grads   one forward and backward of the block through your ops, no
          all-reduce, against a float32 PyTorch reference of the same
          weights and data: the loss and every gradient (LOSS_RTOL;
          GRAD_ATOL of the tensor's largest |gradient| + GRAD_RTOL |ref|),
          and the four ops wb52::* seen by the dispatcher
  steps   STEPS steps of train_step (MiniDDP, GraphedSGD) against the same
          steps of PyTorch eager (nn.LayerNorm's F.layer_norm,
          F.scaled_dot_product_attention, DistributedDataParallel,
          torch.optim.SGD): each weight's change over the steps
          (STEP_ATOL of the largest reference change + STEP_RTOL |ref|),
          the all-reduces (async, every one issued inside backward), a
          digest of the weights (the test compares the ranks'), finite, moved
  graph   CUDA graphs captured and replayed during those steps (counted
          by wrapping torch.cuda.CUDAGraph), and whether the parameters
          and their .grad tensors kept their storage from step to step
  time    (--time, GPUs only) median warm step time: yours, PyTorch
          eager's and torch.compile's (the eager model compiled), the
          slowest rank's median each, alternated in rounds

A rank whose code raises writes the error and leaves at once (os._exit).
NVLink multicast stays off: the three settings are set here, before torch
loads, whatever the launcher's environment says (the test sets them too).
"""

import os

MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
os.environ.update(MULTICAST_OFF)

import argparse  # noqa: E402
import copy  # noqa: E402
import datetime  # noqa: E402
import hashlib  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WEEK = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(WEEK))

# The block: (B, S, d_model) a rank, heads of 128 (64 on the CPU), MLP 4 x d_model.
GPU_CFG = {"batch": 4, "seq": 2048, "d_model": 1024, "heads": 8, "hidden": 4096}
CPU_CFG = {"batch": 2, "seq": 64, "d_model": 128, "heads": 2, "hidden": 512}
BUCKET_CAP_MB = {"cuda": 8.0, "cpu": 0.25}  # MiniDDP's and DDP's: 7 buckets of the block's 48 MB of FP32
                                            # gradients on a GPU, 6 of the CPU block's 0.76 MB
LR, MOMENTUM = 0.1, 0.9
STEPS = 5                  # steps before the weights are compared
WARM, ROUNDS, PER_ROUND = 5, 5, 10  # timing: warm-up steps, then rounds of PER_ROUND steps each side
# Tolerances (README, "Capstone"): BF16 GEMMs and attention against an FP32 reference.
LOSS_RTOL = 1e-2
GRAD_ATOL, GRAD_RTOL = 3e-2, 5e-2        # atol: a fraction of the tensor's largest |gradient|
STEP_ATOL, STEP_RTOL = 2e-2, 5e-2        # weight change over STEPS steps, against eager PyTorch's
OPS = ("wb52.attn_fwd", "wb52.attn_bwd", "wb52.ln_fwd", "wb52.ln_bwd")


def kernel_sources(code):
    """(sources, include dirs, what they are) of the extension: your files of
    weeks 38, 59, 41 and 42, or their references when `code` is a `solution`
    folder and this copy has them."""
    sol = os.path.basename(os.path.normpath(code)) == "solution"
    weeks = [("phase6/week38", "flash_attn"), ("phase6/week59", "flash_bwd"), ("phase7/week41", "ln_fwd"),
             ("phase7/week42", "ln_bwd")]
    incs, used = [], []
    for w, ex in weeks:
        wdir = os.path.join(ROOT, w)
        ref = os.path.join(wdir, "solution", ex + ".cu")
        mine = os.path.join(wdir, ex + ".cu")
        if sol and os.path.isfile(ref):
            incs.append(os.path.dirname(ref))
            used.append("%s (reference)" % os.path.join(w, "solution", ex + ".cu"))
        elif os.path.isfile(mine):
            used.append("%s/%s.cu" % (w, ex))
        else:
            raise FileNotFoundError("%s/%s.cu is not in this copy: the capstone builds your kernel of that week"
                                    % (w, ex))
        incs.append(wdir)  # the week's header (and flash_bwd's support/bf16_mma.cuh)
    cdir = os.path.join(HERE, "capstone")
    srcs = [os.path.join(cdir, f) for f in ("capstone_ext.cu", "cap_flash_attn.cu", "cap_flash_bwd.cu",
                                            "cap_ln_fwd.cu", "cap_ln_bwd.cu")]
    return srcs, incs, used


def load_ext(code):
    """The extension wb_cap52 (phase7/common/wb_ext.py builds it into build/WEEK/ext/...)."""
    import wb_ext
    srcs, incs, used = kernel_sources(code)
    return wb_ext.load("wb_cap52", srcs, include_dirs=incs), used


def ddp_path(code):
    """Week 63's ddp.py: the reference when `code` is a `solution` folder, else yours."""
    w63 = os.path.join(ROOT, "phase8", "week63")
    ref = os.path.join(w63, "solution", "ddp.py")
    if os.path.basename(os.path.normpath(code)) == "solution" and os.path.isfile(ref):
        return ref
    mine = os.path.join(w63, "ddp.py")
    if not os.path.isfile(mine):
        raise FileNotFoundError("phase8/week63/ddp.py is not in this copy: the capstone wraps the block in your "
                                "MiniDDP")
    return mine


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def make_ref_block(torch, cfg, cast):
    """The reference block: capstone.Block's parameters (the same names), torch's
    own LayerNorm and attention. cast: the dtype of the GEMMs and the attention
    (torch.float32: the FP32 reference; torch.bfloat16: the eager baseline)."""
    nn, F = torch.nn, torch.nn.functional

    class RefBlock(nn.Module):
        def __init__(self):
            super().__init__()
            d = cfg["d_model"]
            self.n_heads = cfg["heads"]
            self.ln1 = nn.LayerNorm(d)
            self.qkv = nn.Linear(d, 3 * d)
            self.proj = nn.Linear(d, d)
            self.ln2 = nn.LayerNorm(d)
            self.up = nn.Linear(d, cfg["hidden"])
            self.down = nn.Linear(cfg["hidden"], d)

        def forward(self, x):
            b, s, d = x.shape
            h = self.n_heads

            def lin(t, m):
                return F.linear(t, m.weight.to(cast), m.bias.to(cast))

            a = self.ln1(x).to(cast)
            q, k, v = lin(a, self.qkv).view(b, s, 3, h, d // h).permute(2, 0, 3, 1, 4).unbind(0)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, s, d)
            x = x + lin(a, self.proj).float()
            a = self.ln2(x).to(cast)
            return x + lin(F.gelu(lin(a, self.up), approximate="tanh"), self.down).float()

    return RefBlock()


def init_block(torch, block, seed):
    """Weights from `seed` (the same for yours and the reference); LayerNorms perturbed off 1 and 0."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in block.named_parameters():
            if name.startswith("ln"):
                p.copy_((1.0 if name.endswith("weight") else 0.0) + 0.1 * torch.randn(p.shape, generator=g))
            elif name.endswith("weight"):
                p.copy_(torch.randn(p.shape, generator=g) / math.sqrt(p.shape[1]))
            else:
                p.copy_(0.02 * torch.randn(p.shape, generator=g))
    return block


def batch(torch, cfg, seed, rank, step, device):
    """Rank `rank`'s (x, target) for step `step`: every rank a different shard."""
    g = torch.Generator().manual_seed(seed * 1000003 + rank * 7919 + step)
    shape = (cfg["batch"], cfg["seq"], cfg["d_model"])
    return torch.randn(shape, generator=g).to(device), torch.randn(shape, generator=g).to(device)


def mismatch(torch, got, want, rtol, atol_frac, scale=None):
    """"" when got matches want (atol = atol_frac of scale, want's largest |value| by default), else what
    differs. NaN never passes."""
    if got is None:
        return "no gradient (p.grad is None)"
    got, want = got.detach().double().flatten().cpu(), want.detach().double().flatten().cpu()
    if got.shape != want.shape:
        return "%d elements, want %d" % (got.numel(), want.numel())
    if got.numel() == 0:
        return ""
    atol = atol_frac * (float(want.abs().max()) if scale is None else scale)
    err = (got - want).abs()
    ok = err <= atol + rtol * want.abs()
    bad = (~ok).nonzero()
    if not bad.numel():
        return ""
    i = int(bad[0])
    return "%d of %d wrong; first at %d: got %r, want %r (atol %.3g, rtol %g)" % (
        bad.numel(), got.numel(), i, float(got[i]), float(want[i]), atol, rtol)


def worst(torch, got, want, rtol, atol_frac, scale=None):
    """The largest |got - want| / (atol + rtol |want|): 1 is the tolerance's edge (NaN: inf)."""
    got, want = got.detach().double().flatten().cpu(), want.detach().double().flatten().cpu()
    if got.numel() == 0:
        return 0.0
    atol = atol_frac * (float(want.abs().max()) if scale is None else scale)
    r = (got - want).abs() / (atol + rtol * want.abs() + 1e-30)
    r = torch.where(torch.isnan(r), torch.full_like(r, math.inf), r)
    return float(r.max())


QKV_FLOOR = 1e-2  # a third of QKV is held to its own largest value, but no tighter than this of the whole's


def parts(name, got, want):
    """(label, got, want, scale) to compare, atol being a fraction of scale:
    a tensor whole (scale: its largest reference value), but the fused QKV
    projection's weight as its q, k and v thirds, each held to its own
    largest value (the v third's gradients are much larger than the q and k
    thirds': one atol for the three would hide an error in dq), no tighter
    than QKV_FLOOR of the whole's. The bias stays whole: its k third's
    gradient is zero in exact arithmetic (softmax does not see a constant
    added to a row's scores), so all it holds is rounding noise."""
    whole = float(want.detach().abs().max()) if want.numel() else 0.0
    if name == "qkv.weight" and got.shape[0] % 3 == 0:
        return [("%s[%s]" % (name, t), g, w, max(float(w.detach().abs().max()), QKV_FLOOR * whole))
                for t, g, w in zip("qkv", got.chunk(3), want.chunk(3))]
    return [(name, got, want, whole)]


class Recorder:
    """Wraps dist.all_reduce: what the code under test sends, and whether
    autograd's engine was running it (a hook inside backward)."""

    def __init__(self, torch, dist):
        self.torch, self.real, self.on, self.calls = torch, dist.all_reduce, False, []

    def __call__(self, tensor, *args, **kwargs):
        if self.on:
            async_op = kwargs.get("async_op", args[2] if len(args) > 2 else False)
            inside = self.torch._C._current_graph_task_id() != -1
            self.calls.append((int(tensor.numel()), bool(async_op), inside))
        return self.real(tensor, *args, **kwargs)


def judge_comm(calls):
    if not calls:
        return "no dist.all_reduce was issued during the step (the gradients were never averaged)"
    if not all(c[1] for c in calls):
        return "an all-reduce was issued with async_op=False: backward waited for it"
    late = [k for k, c in enumerate(calls) if not c[2]]
    if late:
        return ("%d of %d all-reduces were issued outside backward (the %d-th first): nothing overlapped with it"
                % (len(late), len(calls), late[0] + 1))
    return ""


class GraphCount:
    """Counts CUDA graph captures and replays (torch.cuda.CUDAGraph, wrapped)."""

    def __init__(self, torch):
        self.captures = self.replays = 0
        if not hasattr(torch.cuda, "CUDAGraph"):
            return
        cls = torch.cuda.CUDAGraph
        real_begin, real_replay = cls.capture_begin, cls.replay
        me = self

        def capture_begin(g, *a, **k):
            me.captures += 1
            return real_begin(g, *a, **k)

        def replay(g, *a, **k):
            me.replays += 1
            return real_replay(g, *a, **k)

        cls.capture_begin, cls.replay = capture_begin, replay


def eager_step(F, model, opt):
    """PyTorch's own training step (the yardsticks' and the reference's): zeroed grads, the loss,
    backward, the optimizer; returns a function of (x, y) giving the loss."""
    def step(x, y):
        opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss
    return step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--code", required=True, help="the folder holding capstone.py")
    ap.add_argument("--out", required=True, help="where rank<R>.json goes")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--cpu", action="store_true", help="gloo on the CPU (a rehearsal: no graphs, no timing)")
    ap.add_argument("--time", action="store_true", help="time the step against PyTorch eager and torch.compile")
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
        import torch.nn.functional as F
        from torch.nn.parallel import DistributedDataParallel as DDP
        from torch.utils._python_dispatch import TorchDispatchMode

        out["multicast_off"] = all(os.environ.get(k) == v for k, v in MULTICAST_OFF.items())
        timeout = datetime.timedelta(seconds=300)
        if a.cpu:
            device = torch.device("cpu")
            dist.init_process_group("gloo", timeout=timeout)
            cfg = CPU_CFG
        else:
            device = torch.device("cuda", local)
            torch.cuda.set_device(device)
            dist.init_process_group("nccl", timeout=timeout, device_id=device)
            cfg = GPU_CFG
            torch.backends.cuda.matmul.allow_tf32 = False  # the FP32 reference stays FP32
        world = dist.get_world_size()
        out.update(world=world, device=str(device), cfg=cfg,
                   gpu=torch.cuda.get_device_name(device) if device.type == "cuda" else "")

        rec = Recorder(torch, dist)
        dist.all_reduce = rec  # before MiniDDP loads: `from torch.distributed import all_reduce` sees it too
        graphs = GraphCount(torch)
        ext = None
        if device.type == "cuda":
            # rank 0 builds (or finds the test's build), then the others load it
            if rank == 0:
                ext, out["kernels"] = load_ext(a.code)
            dist.barrier()
            if rank != 0:
                ext, out["kernels"] = load_ext(a.code)
        cap = load_module("capstone", os.path.join(a.code, "capstone.py"))
        ddp_mod = load_module("ddp", ddp_path(a.code))
        out["ddp"] = os.path.relpath(ddp_path(a.code), ROOT)
        cap.define_ops(ext)
        d, heads, hidden = cfg["d_model"], cfg["heads"], cfg["hidden"]

        # (a) one forward and backward, this rank's data, against the FP32 reference
        mine = init_block(torch, cap.Block(d, heads, hidden), a.seed + 7).to(device)
        ref32 = make_ref_block(torch, cfg, torch.float32).to(device)
        ref32.load_state_dict(mine.state_dict())
        x, y = batch(torch, cfg, a.seed, rank, 0, device)
        seen = set()

        class Seen(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                seen.add(str(func.overloadpacket).replace("::", "."))
                return func(*args, **(kwargs or {}))

        with Seen():
            loss = cap.loss_fn(mine(x), y)
            loss.backward()
        loss_ref = F.mse_loss(ref32(x), y)
        loss_ref.backward()
        g = {"loss": float(loss.detach()), "loss_ref": float(loss_ref.detach()), "bad": "", "worst": 0.0}
        missing = [o for o in OPS if o not in seen]
        if missing:
            g["bad"] = ("the step never called %s (the block must run through torch.ops.wb52.*: your kernels)"
                        % ", ".join(missing))
        elif not (abs(g["loss"] - g["loss_ref"]) <= LOSS_RTOL * abs(g["loss_ref"])):
            g["bad"] = "loss %r, FP32 reference %r (rtol %g)" % (g["loss"], g["loss_ref"], LOSS_RTOL)
        for (name, p), q in zip(mine.named_parameters(), ref32.parameters()):
            if q.grad is None:
                continue
            if p.grad is None:
                g["bad"] = g["bad"] or "the gradient of %s: none (p.grad is None)" % name
                continue
            for label, gp, gq, sc in parts(name, p.grad, q.grad):
                why = mismatch(torch, gp, gq, GRAD_RTOL, GRAD_ATOL, sc)
                if why and not g["bad"]:
                    g["bad"] = "the gradient of %s %s: %s" % (label, tuple(gp.shape), why)
                g["worst"] = max(g["worst"], worst(torch, gp, gq, GRAD_RTOL, GRAD_ATOL, sc))
        out["grads"] = g

        # (b) STEPS steps: yours (MiniDDP, GraphedSGD, train_step) against eager PyTorch with DDP.
        # Different weights on every rank on purpose: both wrappers must start from rank 0's.
        seed_r = a.seed + 101 * rank
        blk = init_block(torch, cap.Block(d, heads, hidden), seed_r).to(device)
        refm = make_ref_block(torch, cfg, torch.bfloat16).to(device)
        refm.load_state_dict(blk.state_dict())
        model = ddp_mod.MiniDDP(blk, bucket_cap_mb=BUCKET_CAP_MB[device.type])
        ref = DDP(refm, device_ids=[local] if device.type == "cuda" else None, bucket_cap_mb=BUCKET_CAP_MB[device.type])
        opt = cap.GraphedSGD(model.module.parameters(), lr=LR, momentum=MOMENTUM)
        fused = {"fused": True} if device.type == "cuda" else {"foreach": True}
        opt_ref = torch.optim.SGD(ref.parameters(), lr=LR, momentum=MOMENTUM, **fused)
        pm = list(model.module.parameters())
        start = [p.detach().clone() for p in pm]
        start_ref = [p.detach().clone() for p in ref.module.parameters()]

        step_ref = eager_step(F, ref, opt_ref)

        comm, moved_storage, ptrs = "", "", None
        c0, r0 = graphs.captures, graphs.replays
        for s in range(STEPS):
            x, y = batch(torch, cfg, a.seed, rank, 1 + s, device)
            rec.calls, rec.on = [], True
            cap.train_step(model, opt, x, y)
            rec.on = False
            why = judge_comm(rec.calls)
            if why and not comm:
                comm = "step %d: %s" % (s + 1, why)
            now = [(p.data_ptr(), p.grad.data_ptr() if p.grad is not None else 0) for p in pm]
            if ptrs is not None and now != ptrs and not moved_storage:
                k = next(i for i, (u, v) in enumerate(zip(now, ptrs)) if u != v)
                what = "gradient" if now[k][0] == ptrs[k][0] else "parameter"
                moved_storage = ("step %d: the %s of parameter %d %s is a new tensor (a graph replays fixed "
                                 "addresses: zero .grad in place, update the parameters in place)"
                                 % (s + 1, what, k, tuple(pm[k].shape)))
            if any(v == 0 for _, v in now) and not moved_storage:
                moved_storage = "step %d: a parameter has no .grad after the step" % (s + 1)
            ptrs = now
            step_ref(x, y)
        if device.type == "cuda":
            torch.cuda.synchronize()
        h = hashlib.sha256()
        finite, moved, diff, worst_step = True, False, "", 0.0
        for k, ((name, p), q, p0, q0) in enumerate(zip(model.module.named_parameters(), ref.module.parameters(),
                                                       start, start_ref)):
            t = p.detach().cpu().contiguous()
            h.update(t.numpy().tobytes())
            finite = finite and bool(torch.isfinite(t).all())
            moved = moved or not torch.equal(p.detach(), p0)
            if not torch.equal(p0, q0) and not diff:
                diff = "%s: your start differs from DDP's (broadcast from rank 0?)" % name
            for label, dm, dr, sc in parts(name, p.detach() - p0, q.detach() - q0):
                why = mismatch(torch, dm, dr, STEP_RTOL, STEP_ATOL, sc)
                if why and not diff:
                    diff = "the change of %s %s over %d steps: %s" % (label, tuple(dm.shape), STEPS, why)
                worst_step = max(worst_step, worst(torch, dm, dr, STEP_RTOL, STEP_ATOL, sc))
        out["steps"] = {"digest": h.hexdigest(), "finite": finite, "moved": moved, "ref": diff, "comm": comm,
                        "steps": STEPS, "worst": worst_step, "calls": len(rec.calls)}
        out["graph"] = {"captures": graphs.captures - c0, "replays": graphs.replays - r0, "storage": moved_storage,
                        "steps": STEPS}

        # (c) time: warm steps, then rounds alternating yours, eager and torch.compile's
        if a.time and device.type == "cuda":
            refc = make_ref_block(torch, cfg, torch.bfloat16).to(device)
            refc.load_state_dict(refm.state_dict())
            ddpc = DDP(refc, device_ids=[local], bucket_cap_mb=BUCKET_CAP_MB[device.type])
            comp = torch.compile(ddpc)
            opt_c = torch.optim.SGD(ddpc.parameters(), lr=LR, momentum=MOMENTUM, fused=True)

            def step_mine(x, y):
                return cap.train_step(model, opt, x, y)

            step_comp = eager_step(F, comp, opt_c)

            sides = [("mine", step_mine), ("eager", step_ref), ("compile", step_comp)]
            ms = {n: [] for n, _ in sides}
            comp_err = ""
            for s in range(WARM):
                for n, fn in list(sides):
                    try:
                        fn(x, y)
                    except Exception as e:  # torch.compile failing is printed, never the checkpoint's fault
                        if n != "compile":
                            raise
                        comp_err = ("%s: %s" % (type(e).__name__, e))[:300]
                        sides = [t for t in sides if t[0] != "compile"]
            ok = torch.tensor([0.0 if comp_err else 1.0], device=device)
            rec.real(ok, op=dist.ReduceOp.MIN)  # every rank drops compile if one did
            if float(ok) == 0.0:
                sides = [t for t in sides if t[0] != "compile"]
                comp_err = comp_err or "torch.compile failed on another rank"
            for r in range(ROUNDS):
                for n, fn in sides:
                    for s in range(PER_ROUND):
                        torch.cuda.synchronize()
                        t0 = time.perf_counter()
                        fn(x, y)
                        torch.cuda.synchronize()
                        ms[n].append((time.perf_counter() - t0) * 1e3)
            med = torch.tensor([statistics.median(ms[n]) if ms[n] else math.nan for n in ("mine", "eager", "compile")],
                               dtype=torch.float64, device=device)
            rec.real(med, op=dist.ReduceOp.MAX)  # the slowest rank's median is the step's
            out["time"] = {"mine_ms": float(med[0]), "eager_ms": float(med[1]),
                           "compile_ms": None if comp_err else float(med[2]), "compile_error": comp_err,
                           "steps": len(ms["mine"]), "tokens": cfg["batch"] * cfg["seq"],
                           "finite": all(math.isfinite(v) for v in ms["mine"] + ms["eager"])}
        dist.barrier()
        write()
        dist.destroy_process_group()
    except BaseException as e:
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
