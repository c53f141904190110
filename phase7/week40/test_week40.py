"""Week 40's Python checkpoints: the hardened softmax op.

Run by `make phase7/week40 check` (phase7/common/wb_pyrun.py with the
workbook's plugin): never by hand. softmax_checked.cu comes from the folder
under test (WB_PY_DIR); the package around it (setup.py, wb_softmax40/) from
the week folder. Each wrong input is tested on its own: the op must raise a
RuntimeError (TORCH_CHECK) whose message names the problem. The CPU-tensor
test is the last in the file: an op without the device check hands a host
pointer to the kernel, which can fault and take the CUDA context (and every
later test of the process) with it.
"""

import glob
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

import wb_ext
import wb_pytest

torch = wb_pytest.need("torch")

WEEK_DIR = os.path.dirname(os.path.abspath(__file__))
NAN = float("nan")
TOL = {torch.float32: (1e-6, 1e-5), torch.float16: (1e-7, 2e-3), torch.bfloat16: (1e-7, 1.6e-2)}


def ext():
    return wb_ext.load("wb_softmax40_jit", ["softmax_checked.cu"])


def dispatcher_op():
    """torch.ops.wb_softmax40_jit.softmax with the fake kernel checked_op.py registers."""
    try:
        return wb_pytest.exercise("checked_op").op()
    except (RuntimeError, NotImplementedError) as e:
        pytest.fail("checked_op.op(): %s" % str(e).strip().splitlines()[0], pytrace=False)


def devices(dev, seed):
    """(device, generator) pairs: the CPU (the op's CPU kernel), and the GPU where the run has one."""
    out = [(torch.device("cpu"), torch.Generator().manual_seed(seed))]
    if dev.type == "cuda":
        out.append((dev, torch.Generator(device=dev).manual_seed(seed)))
    return out


def bad_inputs(gen, dev):
    """(x, pattern, what): every input the op refuses, whatever its device."""
    x = uniform((8, 33), gen, dev)
    return [(x.to(torch.int32), DTYPE_MSG, "an int32 tensor"), (x.double(), DTYPE_MSG, "a float64 tensor"),
            (uniform((40,), gen, dev), SHAPE_MSG, "a 1-D tensor"), (uniform((2, 3, 8), gen, dev), SHAPE_MSG,
                                                                     "a 3-D tensor"),
            (uniform((16, 9), gen, dev).t(), CONTIG_MSG, "a transposed view"),
            (uniform((8, 40), gen, dev)[:, :17], CONTIG_MSG, "a column slice")]


def uniform(shape, gen, dev, dtype=torch.float32):
    return (torch.rand(shape, generator=gen, device=dev) * 10 - 5).to(dtype)


def expect_ok(op, x, what):
    """op(x) matches torch.softmax (in FP32, rounded once) on a valid x; the
    block the op's output gets is freed full of NaN just before (poisoned)."""
    poison = torch.full_like(x, NAN)
    del poison
    y = op(x)
    if x.is_cuda:
        torch.cuda.synchronize()
    if y.shape != x.shape or y.dtype != x.dtype or y.device != x.device:
        pytest.fail("%s: got a %s %s tensor on %s, want %s %s on %s" % (what, tuple(y.shape), y.dtype, y.device,
                                                                      tuple(x.shape), x.dtype, x.device), pytrace=False)
    atol, rtol = TOL[x.dtype]
    why = wb_pytest.mismatch(y, torch.softmax(x.float(), dim=1).to(x.dtype), atol, rtol)
    if why:
        pytest.fail("%s: %s" % (what, why), pytrace=False)


def expect_refused(op, x, pattern, what):
    """op(x) raises a RuntimeError whose message matches `pattern`, and nothing else."""
    try:
        op(x)
        if x.is_cuda:
            torch.cuda.synchronize()
    except RuntimeError as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else ""
        if not re.search(pattern, str(e)):
            pytest.fail("%s: a RuntimeError, but its message does not name the problem (want /%s/): %s"
                        % (what, pattern, msg), pytrace=False)
        return
    except Exception as e:
        pytest.fail("%s: raised %s (%s), want a RuntimeError from TORCH_CHECK naming the problem"
                    % (what, type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else ""),
                    pytrace=False)
    pytest.fail("%s: no exception: the op accepted it (add a TORCH_CHECK)" % what, pytrace=False)


DTYPE_MSG = r"float32, float16 or bfloat16"
SHAPE_MSG = r"2-D"
CONTIG_MSG = r"contiguous"
DEVICE_MSG = r"CUDA tensor"
NAME = "wb_softmax40_jit::softmax"


# ---------------------------------------------------------------- w40.dtype

@pytest.mark.checkpoint("w40.dtype")
def test_dtype_refused(dev, gen):
    op = ext().softmax
    x = uniform((8, 33), gen, dev)
    expect_refused(op, x.to(torch.int32), DTYPE_MSG, "an int32 tensor")
    expect_refused(op, x.to(torch.int64), DTYPE_MSG, "an int64 tensor")
    expect_refused(op, x.double(), DTYPE_MSG, "a float64 tensor")
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        expect_ok(op, uniform((17, 1025), gen, dev, dt), "a %s 17 x 1025 tensor" % dt)


# ---------------------------------------------------------------- w40.contiguous

@pytest.mark.checkpoint("w40.contiguous")
def test_contiguous_refused(dev, gen):
    op = ext().softmax
    x = uniform((64, 33), gen, dev)
    expect_refused(op, x.t(), CONTIG_MSG, "a transposed 33 x 64 view (strides (1, 33))")
    wide = uniform((8, 40), gen, dev)
    expect_refused(op, wide[:, :17], CONTIG_MSG, "a column slice 8 x 17 of an 8 x 40 tensor (strides (40, 1))")
    expect_ok(op, x.t().contiguous(), "the transposed view's contiguous copy")
    expect_ok(op, wide[:, :17].contiguous(), "the column slice's contiguous copy")
    expect_ok(op, uniform((16, 40), gen, dev)[4:12], "a row slice 8 x 40 (contiguous: rows 4 to 11)")


# ---------------------------------------------------------------- w40.shape

@pytest.mark.checkpoint("w40.shape")
def test_shape_refused(dev, gen):
    op = ext().softmax
    expect_refused(op, uniform((1000,), gen, dev), SHAPE_MSG, "a 1-D tensor of 1000")
    expect_refused(op, uniform((2, 3, 40), gen, dev), SHAPE_MSG, "a 3-D tensor 2 x 3 x 40")
    expect_refused(op, uniform((), gen, dev), SHAPE_MSG, "a 0-D tensor")
    for m, n in [(1, 1), (7, 1), (5, 3), (0, 64), (3, 0), (8, 8191), (4096, 257)]:
        expect_ok(op, uniform((m, n), gen, dev), "a 2-D %d x %d tensor" % (m, n))


# ---------------------------------------------------------------- w40.stream

@pytest.mark.checkpoint("w40.stream")
@pytest.mark.parametrize("dt", ["fp32", "bf16"])
def test_stream(dt, dev, gen):
    """On a side stream s: a long kernel (torch.cuda._sleep), then x written,
    then the op, then a copy of its result, then s.synchronize() alone. An op
    on torch's current stream (s) runs after x is written; one on the legacy
    default stream runs at once (torch's streams do not wait for it) and
    reads x before it is written."""
    op = ext().softmax
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[dt]
    src = uniform((512, 1024), gen, dev, dtype)
    x = torch.zeros_like(src)
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)  # ~0.1 s of one thread spinning on s
        x.copy_(src)
        y = op(x)
        got = y.clone()
    s.synchronize()
    want = torch.softmax(src.float(), dim=1).to(dtype)
    atol, rtol = TOL[dtype]
    why = wb_pytest.mismatch(got, want, atol, rtol)
    if why:
        pytest.fail("the op on a side stream after x was written there: %s (an op on stream 0, not "
                    "at::cuda::getCurrentCUDAStream(), reads x too early)" % why, pytrace=False)


# ---------------------------------------------------------------- w40.device-guard

@pytest.mark.checkpoint("w40.device-guard")
def test_device_guard(gen):
    n = torch.cuda.device_count()
    if n < 2:
        pytest.skip("needs 2 GPUs, found %d: the device guard is tested where a tensor can live on another GPU "
                    "than the current one" % n)
    op = ext().softmax
    torch.cuda.set_device(0)
    d1 = torch.device("cuda", 1)
    g1 = torch.Generator(device=d1).manual_seed(int(torch.randint(0, 2 ** 31, (1,), generator=gen, device="cuda")))
    src = torch.rand((512, 1024), generator=g1, device=d1) * 10 - 5
    x = torch.zeros_like(src)
    torch.cuda.synchronize(d1)
    with torch.cuda.device(1):
        torch.cuda._sleep(200_000_000)  # on cuda:1's current stream: x is written ~0.1 s from now
        x.copy_(src)
    if torch.cuda.current_device() != 0:
        pytest.fail("test error: the current device is not 0", pytrace=False)
    y = op(x)  # current device 0, x on cuda:1
    if torch.cuda.current_device() != 0:
        pytest.fail("the op left the current device at %d (a guard restores it)" % torch.cuda.current_device(),
                    pytrace=False)
    if y.device != d1:
        pytest.fail("the result is on %s, want cuda:1 (x's device)" % y.device, pytrace=False)
    torch.cuda.synchronize(d1)
    why = wb_pytest.mismatch(y, torch.softmax(src, dim=1), 1e-6, 1e-5)
    if why:
        pytest.fail("x on cuda:1 with the current device 0: %s (without a device guard the kernel runs on "
                    "device 0, on device 0's stream)" % why, pytrace=False)


# ---------------------------------------------------------------- w40.install

def pip_install():
    """The package layout (setup.py, wb_softmax40/, softmax_checked.h from the week folder,
    softmax_checked.cu from the folder under test) copied to build/WEEK/ext/<folder>/install/src
    and pip-installed into .../install/site: the site folder."""
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip not importable: install pip (python3 -m ensurepip) to test the install")
    code = wb_ext.code_dir()
    cu = os.path.join(code, "softmax_checked.cu")
    if not os.path.isfile(cu):
        pytest.fail("%s is missing (make phase7/week40 reset EX=softmax_checked restores the starter)" % cu,
                    pytrace=False)
    root = wb_ext.build_dir("install")
    src, site = os.path.join(root, "src"), os.path.join(root, "site")
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(os.path.join(WEEK_DIR, "wb_softmax40"), os.path.join(src, "wb_softmax40"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("setup.py", "softmax_checked.h"):
        shutil.copy(os.path.join(WEEK_DIR, f), src)
    shutil.copy(cu, src)
    log = os.path.join(root, "install.log")
    env = dict(os.environ, TORCH_CUDA_ARCH_LIST=os.environ.get("TORCH_CUDA_ARCH_LIST", "9.0"))
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--use-pep517", "--no-index",
           "--disable-pip-version-check", "--target", site, src]
    out = subprocess.run(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log, "w") as f:
        f.write("$ %s\n%s" % (" ".join(cmd), out.stdout))
    if out.returncode != 0:
        lines = [ln.strip() for ln in out.stdout.splitlines() if ln.strip()]
        first = next((ln for ln in lines if re.search(r"\berror\b", ln) and "ninja: build stopped" not in ln),
                     lines[-1] if lines else "no output")
        pytest.fail("pip install failed: %s (whole output: %s)" % (first, os.path.relpath(log, wb_ext.ROOT)),
                    pytrace=False)
    return site


# The install compiles softmax_checked.cu against torch's headers, as the JIT
# build does: it starts when this file loads, in a thread of its own (pip is
# a child process), and overlaps with the JIT build of the first test.
if wb_ext.selected("w40.install"):
    wb_ext.start("install", pip_install)


def installed_package():
    """The package pip installed (in the background since this file loaded), imported from its folder."""
    site = wb_ext.outcome("install", pip_install)
    sys.path.insert(0, site)
    try:
        pkg = importlib.import_module("wb_softmax40")
    except (AttributeError, RuntimeError) as e:  # torch.ops.wb_softmax40.softmax is not there
        pytest.fail("import wb_softmax40 failed: %s (the op is registered by TORCH_LIBRARY in "
                    "softmax_checked.cu: README, Task 3)" % str(e).strip().splitlines()[0], pytrace=False)
    finally:
        sys.path.remove(site)
    where = os.path.realpath(pkg.__file__)
    if not where.startswith(os.path.realpath(site) + os.sep):
        pytest.fail("import wb_softmax40 found %s, not the copy installed in %s" % (where, site), pytrace=False)
    if not glob.glob(os.path.join(site, "wb_softmax40", "_C*.so")):
        pytest.fail("the install holds no wb_softmax40/_C*.so", pytrace=False)
    return pkg


@pytest.mark.checkpoint("w40.install")
def test_install(dev, gen):
    """The installed package's softmax is the op torch.ops.wb_softmax40.softmax,
    registered when the package imports its _C: CUDA and CPU tensors, int32 refused."""
    pkg = installed_package()
    if pkg.softmax is not torch.ops.wb_softmax40.softmax:
        pytest.fail("wb_softmax40.softmax is not torch.ops.wb_softmax40.softmax", pytrace=False)
    for dt in (torch.float32, torch.float16):
        expect_ok(pkg.softmax, uniform((33, 1025), gen, dev, dt), "the installed wb_softmax40.softmax, %s" % dt)
    expect_ok(pkg.softmax, uniform((9, 100), gen, dev).cpu(), "the installed wb_softmax40.softmax, a CPU tensor")
    expect_refused(pkg.softmax, uniform((8, 33), gen, dev).to(torch.int32), DTYPE_MSG,
                   "the installed wb_softmax40.softmax on an int32 tensor")


# ---------------------------------------------------------------- w40.dispatcher

@pytest.mark.checkpoint("w40.dispatcher")
def test_dispatcher_kernels(dev, seed):
    """The op has a CPU and a CUDA kernel: a CPU tensor, which the pybind form
    must refuse, is the CPU kernel's to compute; a CUDA tensor the CUDA kernel's.
    Each kernel refuses the dtypes, shapes and layouts it cannot compute."""
    op = dispatcher_op()
    for key in ("CPU", "CUDA"):
        if not torch._C._dispatch_has_kernel_for_dispatch_key(NAME, key):
            pytest.fail("the op has no kernel for the %s dispatch key (TORCH_LIBRARY_IMPL(..., %s, m)): README, "
                        "Task 3" % (key, key), pytrace=False)
    for d, g in devices(dev, seed):
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            for m, n in [(1, 1), (5, 3), (17, 1025), (0, 8)]:
                expect_ok(op, uniform((m, n), g, d, dt), "torch.ops softmax, %s %s %d x %d" % (d.type, dt, m, n))
        for x, pattern, what in bad_inputs(g, d):
            expect_refused(op, x, pattern, "torch.ops softmax, %s on %s" % (what, d.type))


# ---------------------------------------------------------------- w40.fake

@pytest.mark.checkpoint("w40.fake")
def test_fake(dev, seed):
    """Under FakeTensorMode (what torch.compile traces with) the op runs its fake
    kernel: the output's metadata are the kernels', and every input the kernels
    refuse is refused there with the same words."""
    op = dispatcher_op()
    from torch._subclasses.fake_tensor import FakeTensorMode
    for d, g in devices(dev, seed):
        bad = bad_inputs(g, d)
        with FakeTensorMode() as mode:
            for dt in (torch.float32, torch.bfloat16):
                x = mode.from_tensor(uniform((6, 9), g, d, dt))
                try:
                    y = op(x)
                except Exception as e:  # no fake kernel registered, or one not written
                    pytest.fail("the op under FakeTensorMode (its fake kernel), a valid %s input: %s: %s"
                                % (dt, type(e).__name__, str(e).strip().splitlines()[0][:300]), pytrace=False)
                if tuple(y.shape) != (6, 9) or y.dtype != dt or y.device != x.device or not y.is_contiguous():
                    pytest.fail("the fake kernel gave a %s %s tensor on %s (contiguous: %s) for a 6 x 9 %s x on %s"
                                % (tuple(y.shape), y.dtype, y.device, y.is_contiguous(), dt, x.device), pytrace=False)
            for x, pattern, what in bad:
                expect_refused(op, mode.from_tensor(x), pattern, "the fake kernel, %s on %s" % (what, d.type))


# ---------------------------------------------------------------- w40.opcheck

@pytest.mark.checkpoint("w40.opcheck")
def test_opcheck(dev, seed):
    """torch.library.opcheck on CPU and CUDA samples: schema, fake kernel, and
    AOTAutograd with dynamic shapes (no input requires grad: the op has no backward)."""
    op = dispatcher_op()
    for d, g in devices(dev, seed):
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            for m, n in [(1, 1), (5, 3), (17, 129), (0, 4)]:
                try:
                    torch.library.opcheck(op, (uniform((m, n), g, d, dt),))
                except Exception as e:
                    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
                    pytest.fail("opcheck, %s %s %d x %d: %s: %s" % (d.type, dt, m, n, type(e).__name__,
                                                                  " / ".join(lines[:2])[:400]), pytrace=False)


# ---------------------------------------------------------------- w40.compile

def around(op):
    """The op between two ordinary torch ops: a graph break would cut it out of the graph."""
    return lambda x: op(x * 0.5 + 1.0).exp2()


@pytest.mark.checkpoint("w40.compile")
def test_compile(dev, seed, speed):
    """One graph, no break (torch._dynamo.explain), torch.compile(fullgraph=True)
    matches eager on CPU and CUDA; compiling for an int32 input fails while
    tracing, with the fake kernel's message naming the dtypes. The pybind form
    is explained beside it (printed, not judged)."""
    op = dispatcher_op()
    for d, g in devices(dev, seed):
        x = uniform((64, 257), g, d)
        torch._dynamo.reset()
        try:
            ex = torch._dynamo.explain(around(op))(x)
        except Exception as e:
            pytest.fail("torch._dynamo.explain on %s: %s: %s" % (d.type, type(e).__name__,
                                                                 str(e).strip().splitlines()[0][:300]), pytrace=False)
        if ex.graph_break_count != 0 or ex.graph_count != 1:
            why = "; ".join(str(b.reason) for b in ex.break_reasons)[:300]
            pytest.fail("on %s: %d graphs, %d graph breaks around the op (%s)" % (d.type, ex.graph_count,
                                                                                  ex.graph_break_count, why),
                        pytrace=False)
        torch._dynamo.reset()
        try:
            got = torch.compile(around(op), fullgraph=True)(x)
        except Exception as e:
            pytest.fail("torch.compile(fullgraph=True) on %s: %s: %s" % (d.type, type(e).__name__,
                                                                         str(e).strip().splitlines()[0][:300]),
                        pytrace=False)
        why = wb_pytest.mismatch(got, torch.softmax(x * 0.5 + 1.0, dim=1).exp2(), 1e-6, 1e-5)
        if why:
            pytest.fail("the compiled function on %s: %s" % (d.type, why), pytrace=False)
        torch._dynamo.reset()
        bad = x.to(torch.int32)
        try:
            torch.compile(lambda t: op(t + 1), fullgraph=True)(bad)
        except Exception as e:
            if not re.search(DTYPE_MSG, str(e)):
                pytest.fail("compiling for an int32 input on %s failed, but not with the fake kernel's refusal "
                            "naming the dtypes (/%s/): %s: %s" % (d.type, DTYPE_MSG, type(e).__name__,
                                                                  str(e).strip().splitlines()[0][:300]),
                            pytrace=False)
            if not isinstance(e, torch._dynamo.exc.TorchDynamoException):
                pytest.fail("compiling for an int32 input on %s: the refusal came from the kernel, running the "
                            "compiled code (%s), not from the fake kernel while tracing: the fake kernel let the "
                            "int32 input through" % (d.type, type(e).__name__), pytrace=False)
        else:
            pytest.fail("compiling for an int32 input on %s succeeded: the fake kernel (or the kernel) should "
                        "refuse it" % d.type, pytrace=False)
    if dev.type == "cuda":
        torch._dynamo.reset()
        pyb = torch._dynamo.explain(around(ext().softmax))(uniform((8, 33), devices(dev, seed)[1][1], dev))
        speed.note("w40.compile: the pybind form, explained: %d graphs, %d graph breaks (%s)"
                   % (pyb.graph_count, pyb.graph_break_count, str(pyb.break_reasons[0].reason).splitlines()[0][:160]
                      if pyb.break_reasons else "no reason given"))
    torch._dynamo.reset()


# ---------------------------------------------------------------- w40.device (last: see the docstring)

@pytest.mark.checkpoint("w40.device")
def test_device_refused(dev, gen):
    op = ext().softmax
    expect_ok(op, uniform((33, 1025), gen, dev), "a CUDA tensor 33 x 1025")
    cpu = uniform((8, 33), gen, dev).cpu()
    expect_refused(op, cpu, DEVICE_MSG, "a CPU tensor")
