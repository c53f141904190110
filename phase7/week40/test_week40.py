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


def uniform(shape, gen, dev, dtype=torch.float32):
    return (torch.rand(shape, generator=gen, device=dev) * 10 - 5).to(dtype)


def expect_ok(op, x, what):
    """op(x) matches torch.softmax (in FP32, rounded once) on a valid x; the
    block the op's output gets is freed full of NaN just before (poisoned)."""
    poison = torch.full_like(x, NAN)
    del poison
    y = op(x)
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
    pkg = installed_package()
    for dt in (torch.float32, torch.float16):
        expect_ok(pkg.softmax, uniform((33, 1025), gen, dev, dt), "the installed wb_softmax40.softmax, %s" % dt)
    expect_refused(pkg.softmax, uniform((8, 33), gen, dev).to(torch.int32), DTYPE_MSG,
                   "the installed wb_softmax40.softmax on an int32 tensor")


# ---------------------------------------------------------------- w40.device (last: see the docstring)

@pytest.mark.checkpoint("w40.device")
def test_device_refused(dev, gen):
    op = ext().softmax
    expect_ok(op, uniform((33, 1025), gen, dev), "a CUDA tensor 33 x 1025")
    cpu = uniform((8, 33), gen, dev).cpu()
    expect_refused(op, cpu, DEVICE_MSG, "a CPU tensor")
