"""wb_pytest.py — the workbook's pytest plugin: Python tests judged as checkpoints.

Phase 7's Python tests are judged exactly as the C harness judges a week's
Check tests, and their outcome goes to the same results record. The plugin
is loaded by phase7/common/wb_pyrun.py (`make WEEK check` runs it), never by
hand; it runs inside the pytest process and writes what it found to the
file WB_PY_OUT names (JSON), which wb_pyrun.py checks and merges into the
week's results record.

    @pytest.mark.checkpoint("w43.add")        every test names one checkpoint
    def test_add(dev, gen):                   fixtures: dev, gen, seed, speed
        ex = wb_pytest.exercise("add")        the code under test (WB_PY_DIR)
        out = wb_pytest.Out((n,), dev)        guarded output, poisoned with NaN
        ex.add(x, y, out.t)
        out.expect(x + y, 0, 0, "n=%d" % n)   compare, NaN never passes, guards kept

A checkpoint passes when at least one of its tests ran and none failed or
was skipped. A checkpoint week.txt lists (among those the runner hands this
run: WB_PY_CHECKPOINTS) that no test marks is FAIL ("no test"); a test that
marks no checkpoint, or one week.txt does not list, fails every checkpoint
of the run (an author's mistake, never a pass). A checkpoint with a target
passes only on a figure (the `speed` fixture's record) measured against the
yardstick its target names, from a verified output, at or above the target
for the GPU the tests ran on (torch.cuda.get_device_name(): week.txt's
`| H200 >= 0.64` fields, picked by wb_targets.py, the C parser's twin; the
default target on any other GPU).

Where torch cannot be imported, or torch sees no CUDA GPU, no test is
collected and every checkpoint is SKIP with the reason; `need("triton")` at
the top of a test file does the same for another module. Under
TRITON_INTERPRET=1 (Triton's interpreter, for debugging) tests run on the
GPU, or on the CPU where torch sees none, nothing is recorded as run on a
GPU, and speed checkpoints are SKIP: interpreted timings mean nothing.
WB_PY_CPU=1 is the same rehearsal for code that runs on the CPU without
Triton (week 63's data-parallel training over gloo): the tests run on the
CPU even where a GPU is visible (`dev` is cpu, `cpu_rehearsal()` is True),
nothing is recorded as run on a GPU, speed checkpoints are SKIP.
"""

import importlib.util
import json
import math
import os
import sys

import pytest

import wb_targets

_STATE = None


class _State:
    def __init__(self):
        raw = os.environ.get("WB_PY_CHECKPOINTS", "[]")
        # [[id, default target or None, yardstick or "", target fields or ""], ...] (wb_pyrun.py)
        self.checkpoints = json.loads(raw)
        self.ids = [c[0] for c in self.checkpoints]
        # every checkpoint of week.txt: a test of one this run does not judge is not run
        self.known = json.loads(os.environ.get("WB_PY_KNOWN", "null") or "null") or list(self.ids)
        self.out = os.environ.get("WB_PY_OUT", "")
        self.seed = int(os.environ.get("WB_SEED", "0") or 0)
        self.code = os.environ.get("WB_PY_DIR", "")
        self.interpret = os.environ.get("TRITON_INTERPRET", "") == "1"
        self.cpu = os.environ.get("WB_PY_CPU", "") == "1"  # a CPU rehearsal: nothing recorded as run on a GPU
        self.skip_reason = ""    # nothing can run here (no torch, no GPU, a module need() missed)
        self.skip_kind = "env"   # the record's reason for it: "nogpu" when no GPU is the cause
        self.device = "cuda"
        self.gpu = ""
        self.errors = []         # authors' mistakes: unmarked tests, unknown checkpoints
        self.collect_errors = [] # a test file that could not be collected
        self.item_cp = {}        # nodeid -> checkpoint id
        self.outcome = {}        # nodeid -> [status, message]
        self.figures = {}        # checkpoint id -> dict from speed.record
        self.notes = []          # lines for people, printed at the end


def _probe(st):
    """Why nothing can run here, or "" (and the device to run on), with the
    record's reason for it ("nogpu" or "env")."""
    if os.environ.get("WB_NO_GPU", "") == "1":
        return "WB_NO_GPU=1 is set", "nogpu"
    try:
        import torch
    except Exception as e:  # ImportError, or a broken install
        return "torch not importable: %s" % e, "env"
    if st.cpu:
        st.device = "cpu"
        return "", "env"
    if st.interpret:
        try:
            import numpy  # noqa: F401
        except Exception as e:
            return ("TRITON_INTERPRET=1: Triton's interpreter needs numpy (%s): python3 -m pip install numpy "
                    "(phase7/requirements.txt lists what Phase 7 needs)" % e), "env"
    try:
        have_gpu = torch.cuda.is_available()
    except Exception as e:
        have_gpu = False
        if not st.interpret:
            return "no NVIDIA GPU visible to torch (%s)" % e, "nogpu"
    if have_gpu:
        st.device = "cuda"
        if not st.interpret:
            st.gpu = torch.cuda.get_device_name(0)
        return "", "env"
    if st.interpret:
        st.device = "cpu"
        return "", "env"
    return "no NVIDIA GPU visible to torch (torch.cuda.is_available() is False)", "nogpu"


def pytest_configure(config):
    global _STATE
    config.addinivalue_line("markers", "checkpoint(id): the week.txt checkpoint this test serves")
    _STATE = _State()
    if _STATE.code:
        sys.path.insert(0, _STATE.code)  # the exercises' own imports of each other
    _STATE.skip_reason, _STATE.skip_kind = _probe(_STATE)


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session):
    """Nothing can run here: collect nothing (a test file imports torch at its top)."""
    if _STATE is not None and _STATE.skip_reason:
        session.items = []
        return True
    return None


def pytest_collectreport(report):
    if report.failed:
        _STATE.collect_errors.append("%s could not be collected: %s" % (report.nodeid or "a test file",
                                                                        _last_line(report.longreprtext)))
    elif report.outcome == "skipped" and not _STATE.skip_reason:
        # a module-level skip (need() missed a module): every checkpoint it serves is SKIP
        lr = report.longrepr
        _STATE.skip_reason = str(lr[2]) if isinstance(lr, tuple) and len(lr) == 3 else "a test file was skipped"
        _STATE.skip_kind = "env"
        if _STATE.skip_reason.startswith("Skipped: "):
            _STATE.skip_reason = _STATE.skip_reason[len("Skipped: "):]


def pytest_collection_modifyitems(session, config, items):
    keep, drop = [], []
    for item in items:
        marks = list(item.iter_markers(name="checkpoint"))
        if len(marks) != 1 or len(marks[0].args) != 1:
            _STATE.errors.append("test %s must name one checkpoint: @pytest.mark.checkpoint(\"wNN.name\")"
                                 % item.nodeid)
            continue
        cp = marks[0].args[0]
        if cp not in _STATE.known:
            _STATE.errors.append("test %s names checkpoint '%s', which week.txt does not list" % (item.nodeid, cp))
            continue
        if cp not in _STATE.ids:  # judged elsewhere (the C test) or not selected (CK_RUN_CASE)
            drop.append(item)
            continue
        _STATE.item_cp[item.nodeid] = cp
        keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep + [i for i in items if i not in keep and i not in drop]


def _last_line(text):
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    for ln in reversed(lines):  # the assertion's own words, not the traceback
        if ln.startswith("E "):
            return ln[1:].strip()
    return lines[-1] if lines else "failed"


def pytest_runtest_logreport(report):
    nid = report.nodeid
    if nid not in _STATE.item_cp:
        return
    o = _STATE.outcome.setdefault(nid, ["pass", ""])
    if report.failed and o[0] != "fail":
        where = "" if report.when == "call" else " (in %s)" % report.when
        crash = getattr(report.longrepr, "reprcrash", None)
        first = [ln for ln in str(getattr(crash, "message", "")).splitlines() if ln.strip()]
        msg = first[0].strip() if first else _last_line(report.longreprtext)
        o[0], o[1] = "fail", "%s%s: %s" % (nid.split("::")[-1], where, msg)
    elif report.skipped and o[0] == "pass":
        lr = report.longrepr
        why = str(lr[2]) if isinstance(lr, tuple) and len(lr) == 3 else "skipped"
        o[0], o[1] = "skip", why[len("Skipped: "):] if why.startswith("Skipped: ") else why


def _judge(cp, target, yard, spec=""):
    """The record of one checkpoint, from its tests' outcomes and figure.
    "reason" is a skip's (a pass and a fail take theirs from the status).
    The target is the one for this GPU (spec: week.txt's target fields)."""
    st = _STATE
    targets = wb_targets.parse(spec) if spec else None
    if targets:
        target = wb_targets.target_for(targets, st.gpu)[0]
    rec = {"id": cp, "status": "skip", "reason": "env", "tests": 0, "failed": 0, "skipped": 0, "message": "",
           "detail": "", "value": None, "unit": "", "yard": "", "yard_value": None, "ratio": None, "target": target,
           "gpu": st.gpu}
    if st.skip_reason and not st.item_cp:
        rec["message"], rec["reason"] = st.skip_reason, st.skip_kind
        return rec
    if st.errors or st.collect_errors:
        rec["status"] = "fail"
        rec["message"] = (st.errors + st.collect_errors)[0]
        return rec
    mine = [nid for nid, c in st.item_cp.items() if c == cp]
    if not mine:
        if st.skip_reason:
            rec["message"], rec["reason"] = st.skip_reason, st.skip_kind
        else:
            rec["status"], rec["message"] = "fail", "no test marks this checkpoint (authors: @pytest.mark.checkpoint)"
        return rec
    first_fail = first_skip = ""
    for nid in mine:
        o = st.outcome.get(nid)
        if o is None:  # collected, never run (deselected, or the session stopped)
            rec["skipped"] += 1
            first_skip = first_skip or "not run (%s)" % nid
            continue
        rec["tests"] += 1
        if o[0] == "fail":
            rec["failed"] += 1
            first_fail = first_fail or o[1]
        elif o[0] == "skip":
            rec["skipped"] += 1
            first_skip = first_skip or o[1]
    fig = st.figures.get(cp)
    if fig:
        for k in ("value", "unit", "yard", "yard_value", "ratio", "detail"):
            rec[k] = fig.get(k)
    if rec["failed"]:
        rec["status"], rec["message"] = "fail", first_fail
    elif rec["skipped"]:
        rec["status"], rec["message"] = "skip", first_skip
    elif target:
        if st.interpret:
            rec["status"], rec["message"] = "skip", "TRITON_INTERPRET=1: the interpreter runs on the CPU, timings mean nothing"
        elif st.cpu:
            rec["status"], rec["message"] = "skip", "WB_PY_CPU=1: a rehearsal on the CPU, timings mean nothing"
        elif not fig:
            rec["status"], rec["message"] = "fail", ("%s has a target in week.txt, but its tests reported no figure "
                                                     "(authors: record one with the speed fixture)" % cp)
        elif fig.get("invalid"):
            rec["status"], rec["message"] = "fail", "the timed output is wrong, so no figure counts: " + fig["invalid"]
        elif fig.get("yard") != yard:
            rec["status"], rec["message"] = "fail", ("the figure was measured against %s, but week.txt's target names "
                                                     "%s" % (fig.get("yard"), yard))
        elif fig.get("ratio") is None or not math.isfinite(fig["ratio"]) or fig["ratio"] < target:
            rec["status"], rec["message"] = "fail", ("%.3f of %s, below the target %s (%s)"
                                                     % (fig.get("ratio") or 0.0, yard,
                                                        wb_targets.target_text(targets, st.gpu) if targets
                                                        else ">= %g %s" % (target, yard), fig.get("detail", "")))
            return rec  # a valid figure below its target: its ratio stays (the grader's partial credit)
        else:
            rec["status"] = "pass"
    else:
        rec["status"] = "pass"
    if rec["status"] != "pass":
        # a figure from a failed test, a wrong output or the wrong yardstick is
        # no figure: no ratio in the record, as the C harness writes NaN
        rec["value"] = rec["yard_value"] = rec["ratio"] = None
    return rec


def pytest_terminal_summary(terminalreporter):
    if _STATE.notes:
        terminalreporter.section("figures")
        for line in _STATE.notes:
            terminalreporter.write_line(line)


def pytest_sessionfinish(session, exitstatus):
    st = _STATE
    recs = [_judge(c[0], c[1], c[2], c[3] if len(c) > 3 else "") for c in st.checkpoints]
    if st.interpret or st.cpu:
        for r in recs:
            r["gpu"] = ""  # interpreted or on the CPU: not a run on a GPU, never recorded as one
    if not st.out:
        return
    tmp = st.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"records": recs, "seed": st.seed, "notes": list(st.notes)}, f)
    os.replace(tmp, st.out)


# ---------------------------------------------------------------- for the tests

def need(module):
    """Import `module`, or skip every test of the calling file (and so its
    checkpoints) with the reason. Call at the top of a test file."""
    try:
        return __import__(module)
    except Exception as e:
        pytest.skip("%s not importable: %s" % (module, e), allow_module_level=True)


_LOADED = {}


def exercise(name):
    """The module `name` (an exercise, NAME.py) from the folder under test
    (WB_PY_DIR: the learner's week folder, solution/ or the derived starter),
    and only from there."""
    if name in _LOADED:
        return _LOADED[name]
    path = os.path.join(_STATE.code, name + ".py")
    if not os.path.isfile(path):
        raise FileNotFoundError("%s is missing (make WEEK reset EX=%s restores the starter)" % (path, name))
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    _LOADED[name] = mod
    return mod


def _fnv1a(text):
    h = 1469598103934665603
    for b in text.encode():
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


@pytest.fixture
def dev():
    """The device the tests run on: cuda (cpu under TRITON_INTERPRET=1 with no GPU, and under WB_PY_CPU=1)."""
    import torch
    return torch.device(_STATE.device)


@pytest.fixture
def seed(request):
    """This test's seed: the run's base seed (WB_SEED) mixed with the test's id."""
    return (_STATE.seed ^ _fnv1a(request.node.nodeid)) & 0x7FFFFFFFFFFFFFFF


@pytest.fixture
def gen(seed, dev):
    """A torch.Generator on the test's device, seeded with the test's seed."""
    import torch
    g = torch.Generator(device=dev)
    g.manual_seed(seed)
    return g


class _Speed:
    def __init__(self, cp):
        self.cp = cp

    def record(self, fig):
        """Record the headline figure (a dict from wb_bench.measure) for this test's checkpoint."""
        _STATE.figures[self.cp] = dict(fig)
        self.note("%s: %s%s" % (self.cp, fig.get("detail", ""), " (INVALID: %s)" % fig["invalid"]
                                if fig.get("invalid") else ""))

    def note(self, text):
        """A line for people, printed at the end of the run (a figure no target judges)."""
        _STATE.notes.append(text)


@pytest.fixture
def speed(request):
    """Records a speed checkpoint's figure: speed.record(wb_bench.measure(...))."""
    return _Speed(_STATE.item_cp.get(request.node.nodeid, ""))


GUARD = 64  # elements each side of an output (256 bytes of FP32): writes past the ends are caught


def mismatch(got, want, atol, rtol):
    """"" when got matches want at atol + rtol*|want| everywhere (NaN only
    where want is NaN, an infinity only where want is the same one), else
    what differs, for a message."""
    got, want = got.double().flatten(), want.double().flatten()
    if got.shape != want.shape:
        return "the reference has %d elements, the output %d" % (want.numel(), got.numel())
    if got.numel() == 0:
        return ""
    ok = ((got - want).abs() <= atol + rtol * want.abs()) | (got.isnan() & want.isnan()) | (got == want)
    bad = (~ok).nonzero()
    if not bad.numel():
        return ""
    i = int(bad[0])
    g = float(got[i])
    return "%d of %d elements wrong; first at flat index %d: got %r, want %r (atol %g, rtol %g)%s" % (
        bad.numel(), got.numel(), i, g, float(want[i]), atol, rtol,
        " (still the NaN poison: never written)" if math.isnan(g) else "")


class Out:
    """An output tensor inside a guarded buffer, every element poisoned with
    NaN: out.t is what the code under test writes; out.expect compares it.
    `lead` more poisoned elements before it make its start misaligned."""

    def __init__(self, shape, device, dtype=None, lead=0):
        import torch
        dtype = dtype or torch.float32
        n = 1
        for s in shape:
            n *= s
        self.n, self.start = n, GUARD + lead
        self.buf = torch.full((n + 2 * GUARD + lead,), float("nan"), dtype=dtype, device=device)
        self.t = self.buf[self.start:self.start + n].view(shape)

    def expect(self, ref, atol, rtol, what):
        """Fail the test unless out matches ref at atol + rtol*|ref| (NaN
        only where ref is NaN) and no guard element changed."""
        import torch
        if self.buf.is_cuda:
            torch.cuda.synchronize()
        guards = torch.cat([self.buf[:self.start], self.buf[self.start + self.n:]])
        if not bool(torch.isnan(guards).all()):
            pytest.fail("%s: written outside the output (a guard element changed)" % what, pytrace=False)
        why = mismatch(self.t, ref, atol, rtol)
        if why:
            pytest.fail("%s: %s" % (what, why), pytrace=False)


def interpreted():
    """True under TRITON_INTERPRET=1 (Triton's interpreter: correct, slow, no timing)."""
    return _STATE.interpret


def cpu_rehearsal():
    """True under WB_PY_CPU=1 (the tests run on the CPU: correct, no timing)."""
    return _STATE.cpu


def need_compiled():
    """Skip the calling test under TRITON_INTERPRET=1: a timing of the interpreter means nothing."""
    if _STATE.interpret:
        pytest.skip("TRITON_INTERPRET=1: the interpreter runs on the CPU, timings mean nothing")
