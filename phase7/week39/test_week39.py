"""Week 39's Python checkpoints: the softmax op built three ways, against torch.

Run by `make phase7/week39 check` (phase7/common/wb_pyrun.py with the
workbook's plugin phase7/common/wb_pytest.py): never by hand. Every build
compiles softmax_ext.cu (and setup.py) from the folder under test (your week
folder, the reference, or the untouched starter: WB_PY_DIR) into build/, never
into the week folder. Where torch cannot be imported, or torch sees no GPU,
every checkpoint is SKIP with the reason; where cmake is missing, w39.cmake is.
"""

import glob
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

import wb_ext
import wb_pytest

torch = wb_pytest.need("torch")

WEEK_DIR = os.path.dirname(os.path.abspath(__file__))  # softmax_ext.h, CMakeLists.txt
NAN, INF = float("nan"), float("inf")
TOL = {torch.float32: (1e-6, 1e-5), torch.float16: (1e-7, 2e-3), torch.bfloat16: (1e-7, 1.6e-2)}
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def jit():
    return wb_ext.load("wb_softmax39", ["softmax_ext.cu"])


def uniform(shape, lo, hi, gen, dev, dtype=torch.float32):
    return (torch.rand(shape, generator=gen, device=dev) * (hi - lo) + lo).to(dtype)


def reference(x):
    """torch.softmax over rows, computed in FP32 and rounded once to x's dtype."""
    return torch.softmax(x.float(), dim=1).to(x.dtype)


def expect(op, x, what):
    """op(x) against the reference: a new tensor of x's shape, dtype and device.
    The op allocates its output, so the test cannot hand it a poisoned one: it
    frees a NaN-filled block of the same size just before the call, which
    torch's caching allocator hands straight back to the op (an element the
    kernel never writes then stays NaN)."""
    poison = torch.full_like(x, NAN)
    del poison
    y = op(x)
    if x.is_cuda:
        torch.cuda.synchronize()
    if not isinstance(y, torch.Tensor):
        pytest.fail("%s: the op returned %r, not a tensor" % (what, type(y).__name__), pytrace=False)
    if y.shape != x.shape or y.dtype != x.dtype or y.device != x.device:
        pytest.fail("%s: the op returned a %s %s tensor on %s, want %s %s on %s"
                    % (what, tuple(y.shape), y.dtype, y.device, tuple(x.shape), x.dtype, x.device), pytrace=False)
    atol, rtol = TOL[x.dtype]
    why = wb_pytest.mismatch(y, reference(x), atol, rtol)
    if why:
        pytest.fail("%s: %s" % (what, why), pytrace=False)


SHAPES = [(1, 1), (7, 1), (5, 3), (1, 1000), (33, 1024), (17, 1025), (256, 4096), (8, 8191), (3, 100003), (0, 64),
          (3, 0), (4096, 257)]


def extremes(gen, dev, dtype):
    """Rows with +-1e4 (exp without the max subtracted overflows), a NaN, a +Inf
    (NaN rows in torch), some -Inf (zeros there) and a row of -Inf only (NaN)."""
    x = uniform((9, 777), -5, 5, gen, dev)
    x[0, 5] = 1e4
    x[1, :] = -1e4
    x[1, 400] = -1e4 + 3
    x[2, 100] = NAN
    x[3, 776] = INF
    x[4, ::3] = -INF
    x[5, :] = -INF
    x[6, 0] = -INF
    return x.to(dtype)


# ---------------------------------------------------------------- w39.jit

@pytest.mark.checkpoint("w39.jit")
@pytest.mark.parametrize("m,n", SHAPES)
def test_jit_shapes(m, n, dev, gen):
    ext = jit()
    expect(ext.softmax, uniform((m, n), -5, 5, gen, dev), "JIT build, FP32 %d x %d" % (m, n))


@pytest.mark.checkpoint("w39.jit")
def test_jit_extremes(dev, gen):
    expect(jit().softmax, extremes(gen, dev, torch.float32), "JIT build, FP32 rows of +-1e4, NaN, +-Inf")


@pytest.mark.checkpoint("w39.jit")
@pytest.mark.parametrize("dt", list(DTYPES))
def test_jit_cpu_accessors(dt, gen, dev):
    """The op's CPU path (accessors): CPU tensors in, CPU tensors out."""
    ext = jit()
    cpu = torch.Generator().manual_seed(int(torch.randint(0, 2 ** 31, (1,), generator=gen, device=dev)))
    for m, n in [(1, 1), (5, 3), (17, 1025), (0, 4)]:
        x = (torch.rand((m, n), generator=cpu) * 10 - 5).to(DTYPES[dt])
        expect(ext.softmax, x, "JIT build, CPU tensor %s %d x %d" % (dt, m, n))


# ---------------------------------------------------------------- w39.dtypes

@pytest.mark.checkpoint("w39.dtypes")
@pytest.mark.parametrize("dt", ["fp16", "bf16"])
@pytest.mark.parametrize("m,n", [(1, 1), (5, 3), (33, 1024), (17, 1025), (8, 8191), (3, 100003), (0, 8), (4096, 257)])
def test_dtypes_shapes(dt, m, n, dev, gen):
    expect(jit().softmax, uniform((m, n), -5, 5, gen, dev, DTYPES[dt]), "JIT build, %s %d x %d" % (dt, m, n))


@pytest.mark.checkpoint("w39.dtypes")
@pytest.mark.parametrize("dt", ["fp16", "bf16"])
def test_dtypes_extremes(dt, dev, gen):
    expect(jit().softmax, extremes(gen, dev, DTYPES[dt]), "JIT build, %s rows of +-1e4, NaN, +-Inf" % dt)


# ---------------------------------------------------------------- w39.setup

def run_logged(cmd, cwd, env, log, what):
    """Run a build step; on failure, fail the test with its first error line and the log's path."""
    out = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(log, "a") as f:
        f.write("$ %s\n%s\n" % (" ".join(cmd), out.stdout))
    if out.returncode != 0:
        lines = [ln.strip() for ln in out.stdout.splitlines() if ln.strip()]
        first = next((ln for ln in lines if "error" in ln.lower() and "ninja: build stopped" not in ln),
                     lines[-1] if lines else "no output")
        pytest.fail("%s failed: %s (whole output: %s)" % (what, first, os.path.relpath(log, wb_ext.ROOT)),
                    pytrace=False)


def setup_build():
    """python FOLDER/setup.py build_ext into build/WEEK/ext/<folder>/setup/: the module's path."""
    code = wb_ext.code_dir()
    if not os.path.isfile(os.path.join(code, "setup.py")):
        pytest.fail("%s/setup.py is missing (make phase7/week39 reset EX=setup restores the starter)" % code,
                    pytrace=False)
    bdir = wb_ext.build_dir("setup")
    shutil.rmtree(os.path.join(bdir, "lib"), ignore_errors=True)
    os.makedirs(bdir, exist_ok=True)
    log = os.path.join(bdir, "build.log")
    open(log, "w").close()
    env = dict(os.environ, WB_EXT_INCLUDE=WEEK_DIR, TORCH_CUDA_ARCH_LIST=os.environ.get("TORCH_CUDA_ARCH_LIST", "9.0"))
    run_logged([sys.executable, os.path.join(code, "setup.py"), "build_ext", "--build-temp",
                os.path.join(bdir, "tmp"), "--build-lib", os.path.join(bdir, "lib")], bdir, env, log,
               "python setup.py build_ext")
    built = glob.glob(os.path.join(bdir, "lib", "wb_softmax39_setup*.so"))
    if not built:
        pytest.fail("setup.py built no module named wb_softmax39_setup (CUDAExtension(name=\"wb_softmax39_setup\", "
                    "...)): see %s" % os.path.relpath(log, wb_ext.ROOT), pytrace=False)
    return built[0]


_SETUP = {}


def setup_module_built():
    """The module setup.py built (started in the background when this file loaded), imported."""
    if "mod" in _SETUP:
        return _SETUP["mod"]
    path = wb_ext.outcome("setup", setup_build)
    spec = importlib.util.spec_from_file_location("wb_softmax39_setup", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _SETUP["mod"] = mod
    return mod


@pytest.mark.checkpoint("w39.setup")
@pytest.mark.parametrize("dt", list(DTYPES))
def test_setup_build(dt, dev, gen):
    mod = setup_module_built()
    for m, n in [(1, 1), (17, 1025), (64, 4096)]:
        expect(mod.softmax, uniform((m, n), -5, 5, gen, dev, DTYPES[dt]), "setup.py build, %s %d x %d" % (dt, m, n))
    expect(mod.softmax, extremes(gen, dev, DTYPES[dt]), "setup.py build, %s rows of +-1e4, NaN, +-Inf" % dt)


# ---------------------------------------------------------------- w39.cmake

def cmake_build():
    """CMakeLists.txt configured against libtorch and built into build/WEEK/ext/<folder>/cmake/:
    the library's path."""
    cmake = shutil.which("cmake")
    if not cmake:
        pytest.skip("cmake not found: install cmake (3.18 or later) to build against libtorch")
    bdir = wb_ext.build_dir("cmake")
    os.makedirs(bdir, exist_ok=True)
    log = os.path.join(bdir, "build.log")
    open(log, "w").close()
    env = dict(os.environ, TORCH_CUDA_ARCH_LIST=os.environ.get("TORCH_CUDA_ARCH_LIST", "9.0"))
    run_logged([cmake, "-S", WEEK_DIR, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release",
                "-DCMAKE_PREFIX_PATH=" + torch.utils.cmake_prefix_path, "-DWB_SRC=" + wb_ext.code_dir(),
                "-DCMAKE_CUDA_ARCHITECTURES=90"], bdir, env, log, "cmake (configure)")
    run_logged([cmake, "--build", bdir, "-j", str(os.cpu_count() or 2)], bdir, env, log, "cmake --build")
    lib = glob.glob(os.path.join(bdir, "libwb_softmax39_ops*.so"))
    if not lib:
        pytest.fail("the CMake build made no libwb_softmax39_ops.so: see %s" % os.path.relpath(log, wb_ext.ROOT),
                    pytrace=False)
    return lib[0]


_CMAKE = {}


def cmake_op():
    """The CMake build's library (started in the background when this file loaded), loaded:
    torch.ops.wb39.softmax."""
    if "op" in _CMAKE:
        return _CMAKE["op"]
    torch.ops.load_library(wb_ext.outcome("cmake", cmake_build))
    try:
        op = torch.ops.wb39.softmax
    except (AttributeError, RuntimeError) as e:
        pytest.fail("the library loaded, but registers no torch.ops.wb39.softmax (TORCH_LIBRARY(wb39, m), "
                    "README Task 3): %s" % e, pytrace=False)
    _CMAKE["op"] = op
    return op


# ---------------------------------------------------------------- the builds, in the background

# Each build way compiles softmax_ext.cu against torch's headers (about a minute on
# the H100 machine). The setup.py and CMake builds start when this file is
# loaded, in threads of their own (each one a child process), while the JIT
# build runs in the first w39.jit test: the three overlap instead of queuing.
# Only what a check selects starts (CK_RUN_CASE: one checkpoint); a test
# takes its build's outcome, including the failure or skip it raised.
if wb_ext.selected("w39.setup"):
    wb_ext.start("setup", setup_build)
if wb_ext.selected("w39.cmake"):
    wb_ext.start("cmake", cmake_build)


@pytest.mark.checkpoint("w39.cmake")
@pytest.mark.parametrize("dt", list(DTYPES))
def test_cmake_build(dt, dev, gen):
    op = cmake_op()
    for m, n in [(1, 1), (17, 1025), (64, 4096)]:
        expect(op, uniform((m, n), -5, 5, gen, dev, DTYPES[dt]), "CMake build, %s %d x %d" % (dt, m, n))
    expect(op, extremes(gen, dev, DTYPES[dt]), "CMake build, %s rows of +-1e4, NaN, +-Inf" % dt)
