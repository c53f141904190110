"""wb_torchrun.py — what the tests of the multi-process weeks share (week 63's
DDP of your own, week 52's capstone): how many ranks a launch has, torchrun
started over the week's rank program, and the verdict each rank writes
(rank<R>.json: its own checks; "error" when it raised).

The rank program takes --code (the folder of the learner's file, or the
reference's), --out (where the verdicts go), --seed, and --cpu (gloo on the
CPU, the WB_PY_CPU=1 rehearsal) or --time (on the GPUs). NVLink multicast is
off in every rank (MULTICAST_OFF, in the environment torchrun hands down);
each rank reports whether it saw it so.
"""

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys

import pytest

import wb_pytest

MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
MAX_GPUS = 8
CPU = wb_pytest.cpu_rehearsal()


def load(path, name):
    """The week's given rank program as a module (its shapes and helpers are the test's too)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ranks_all(nproc_env):
    """N: every GPU of the host up to 8; on the CPU rehearsal, $nproc_env processes (2)."""
    if CPU:
        try:
            return max(1, min(int(os.environ.get(nproc_env, "2")), MAX_GPUS))
        except ValueError:
            return 2
    import torch
    return min(torch.cuda.device_count(), MAX_GPUS)


def where(n):
    return "%d process%s on the CPU (gloo)" % (n, "" if n == 1 else "es") if CPU else "%d GPU%s" % (n, "" if n == 1 else "s")


def need_dist():
    import torch.distributed as dist
    if not dist.is_available():
        pytest.skip("this torch has no torch.distributed")
    if CPU and not dist.is_gloo_available():
        pytest.skip("this torch has no gloo backend (the CPU rehearsal needs it)")
    if not CPU and not dist.is_nccl_available():
        pytest.skip("this torch has no NCCL backend")


def code():
    """The folder of the code under test (wb_pyrun sets it: the learner's week, solution/ or the starter's)."""
    return os.environ.get("WB_PY_DIR", "")


class Launch:
    """One torchrun launch of `ranks_py` at n ranks, and the verdicts its ranks
    wrote, under build/<week>/<runs>/<code>[-cpu]-n<N>/ (torchrun.log beside
    them). `timeout_s` bounds the launch; `hang_hint` follows the message of
    one that was killed."""

    def __init__(self, n, ranks_py, week, runs, timeout_s, hang_hint=""):
        self.n, self.timeout_s, self.hang_hint = n, timeout_s, hang_hint
        tag = os.path.basename(os.path.normpath(code())) or "code"  # solution, starter-src or weekNN (yours)
        base = os.path.dirname(os.environ.get("WB_PY_OUT", "")) or os.path.join("build", week)
        self.out = os.path.abspath(os.path.join(base, runs, "%s%s-n%d" % (tag, "-cpu" if CPU else "", n)))
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out)
        self.log = os.path.join(self.out, "torchrun.log")
        seed = int(os.environ.get("WB_SEED", "0") or 0) % 1000000007
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=%d" % n,
               "--max-restarts=0", ranks_py, "--code", code(), "--out", self.out, "--seed", str(seed)]
        cmd += ["--cpu"] if CPU else ["--time"]  # timing needs the GPUs
        env = dict(os.environ)
        env.update(MULTICAST_OFF)
        env.setdefault("OMP_NUM_THREADS", "1")
        self.timed_out = False
        with open(self.log, "w", encoding="utf-8", errors="replace") as f:
            f.write("$ %s\n" % " ".join(cmd))
            f.flush()
            p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, start_new_session=True)
            try:
                self.rc = p.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                self.timed_out = True
                os.killpg(p.pid, signal.SIGKILL)  # torchrun and its ranks: a session of their own
                self.rc = p.wait()
        self.v = []
        for r in range(n):
            try:
                with open(os.path.join(self.out, "rank%d.json" % r), encoding="utf-8") as f:
                    self.v.append(json.load(f))
            except (OSError, ValueError):
                self.v.append(None)

    def problem(self, part=None):
        """"" when every rank wrote a verdict without an error, else why not.
        With `part` (a key of the verdict: "grads", "steps", ...): an error
        raised after every rank wrote that part does not count against it."""
        rel = os.path.relpath(self.log)
        errs = [(r, v["error"]) for r, v in enumerate(self.v) if v and v.get("error")]
        if part and errs and all(v and part in v for v in self.v):
            errs = []
        if errs:
            return "%s: rank %d raised %s (log: %s)" % (where(self.n), errs[0][0], errs[0][1], rel)
        if self.timed_out:
            return "%s: the launch did not end within %d s and was killed%s (log: %s)" % (
                where(self.n), self.timeout_s, " (%s)" % self.hang_hint if self.hang_hint else "", rel)
        missing = [r for r, v in enumerate(self.v) if v is None]
        if missing:
            return "%s: rank %d wrote no verdict (torchrun's exit status %s; log: %s)" % (
                where(self.n), missing[0], self.rc, rel)
        for r, v in enumerate(self.v):
            if v.get("world") != self.n:
                return "rank %d saw a world of %s, launched %d" % (r, v.get("world"), self.n)
            if not v.get("multicast_off"):
                return "rank %d ran with NVLink multicast not off (NCCL_NVLS_ENABLE, ...)" % r
        if self.rc != 0 and not part:
            return "%s: torchrun's exit status %d after every rank wrote its verdict (log: %s)" % (
                where(self.n), self.rc, rel)
        return ""
