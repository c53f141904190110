"""Week 39's Python checkpoints: the softmax op built three ways, against torch,
and the op registered with torch's dispatcher (CPU and CUDA kernels, a fake
kernel, an autograd formula) checked by opcheck and torch.compile.

Run by `make phase7/week39 check` (phase7/common/wb_pyrun.py with the
workbook's plugin phase7/common/wb_pytest.py): never by hand. Every build
compiles softmax_ext.cu (and setup.py) from the folder under test (your week
folder, the reference, or the untouched starter: WB_PY_DIR) into build/, never
into the week folder. Where torch cannot be imported, or torch sees no GPU,
every checkpoint is SKIP with the reason; where cmake is missing, w39.cmake is.
The dispatcher checkpoints (w39.dispatcher, w39.opcheck, w39.compile) run
the op on CPU tensors (its CPU kernel) and on CUDA tensors (its CUDA kernel).
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


def dispatcher_op():
    """torch.ops.wb_softmax39.softmax with the fake kernel and autograd softmax_op.py registers."""
    try:
        return wb_pytest.exercise("softmax_op").op()
    except (RuntimeError, NotImplementedError) as e:
        pytest.fail("softmax_op.op(): %s" % str(e).strip().splitlines()[0], pytrace=False)


def devices(dev, seed):
    """(device, generator) pairs: the CPU (the op's CPU kernel), and the GPU where the run has one."""
    out = [(torch.device("cpu"), torch.Generator().manual_seed(seed))]
    if dev.type == "cuda":
        out.append((dev, torch.Generator(device=dev).manual_seed(seed)))
    return out


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


# ---------------------------------------------------------------- w39.dispatcher

@pytest.mark.checkpoint("w39.dispatcher")
def test_dispatcher_registered():
    """The op exists in the dispatcher with its schema, and has a kernel for CPU
    and one for CUDA (not one CompositeExplicitAutograd function for every device)."""
    op = dispatcher_op()
    schema = str(op.default._schema)
    if schema != "wb_softmax39::softmax(Tensor x) -> Tensor":
        pytest.fail("the schema is %r, want 'wb_softmax39::softmax(Tensor x) -> Tensor'" % schema, pytrace=False)
    for key in ("CPU", "CUDA"):
        if not torch._C._dispatch_has_kernel_for_dispatch_key("wb_softmax39::softmax", key):
            pytest.fail("the op has no kernel for the %s dispatch key (TORCH_LIBRARY_IMPL(..., %s, m)): README, "
                        "Task 3" % (key, key), pytrace=False)


@pytest.mark.checkpoint("w39.dispatcher")
@pytest.mark.parametrize("dt", list(DTYPES))
def test_dispatcher_values(dt, dev, seed):
    """torch.ops.wb_softmax39.softmax on CPU tensors (the CPU kernel) and on CUDA
    tensors (the CUDA kernel), edge shapes and rows of +-1e4, NaN, +-Inf."""
    op = dispatcher_op()
    for d, g in devices(dev, seed):
        shapes = [(1, 1), (5, 3), (17, 1025), (0, 4), (3, 0)] + ([(33, 1024), (4096, 257)] if d.type == "cuda" else [])
        for m, n in shapes:
            expect(op, uniform((m, n), -5, 5, g, d, DTYPES[dt]), "torch.ops softmax, %s %s %d x %d" % (d.type, dt, m, n))
        expect(op, extremes(g, d, DTYPES[dt]), "torch.ops softmax, %s %s rows of +-1e4, NaN, +-Inf" % (d.type, dt))


# ---------------------------------------------------------------- w39.opcheck

def opcheck(op, args, what):
    """torch.library.opcheck: the schema is honest (no mutation, no alias), the
    fake kernel gives the real kernel's metadata, autograd is registered where
    an input requires grad, and AOTAutograd traces it with dynamic shapes."""
    try:
        torch.library.opcheck(op, args)
    except Exception as e:  # OpCheckError, or the kernel's own error
        lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
        pytest.fail("opcheck, %s: %s: %s" % (what, type(e).__name__, " / ".join(lines[:2])[:400]), pytrace=False)


@pytest.mark.checkpoint("w39.opcheck")
@pytest.mark.parametrize("dt", list(DTYPES))
def test_opcheck(dt, dev, seed):
    op = dispatcher_op()
    for d, g in devices(dev, seed):
        for m, n in [(1, 1), (5, 3), (17, 129), (0, 4)]:
            opcheck(op, (uniform((m, n), -5, 5, g, d, DTYPES[dt]),), "%s %s %d x %d" % (d.type, dt, m, n))
        x = uniform((7, 33), -5, 5, g, d, DTYPES[dt]).requires_grad_()
        opcheck(op, (x,), "%s %s 7 x 33, requires_grad" % (d.type, dt))


@pytest.mark.checkpoint("w39.opcheck")
def test_fake_refuses(dev):
    """The fake kernel refuses what the kernels refuse: under FakeTensorMode a
    1-D or an int32 input is an error there, before any kernel could run."""
    op = dispatcher_op()
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        try:
            y = op(torch.empty(6, 9, dtype=torch.bfloat16, device=dev))
        except Exception as e:  # no fake kernel registered, or one not written
            pytest.fail("the op under FakeTensorMode (its fake kernel): %s: %s"
                        % (type(e).__name__, str(e).strip().splitlines()[0][:300]), pytrace=False)
        if tuple(y.shape) != (6, 9) or y.dtype != torch.bfloat16 or y.device.type != dev.type or not y.is_contiguous():
            pytest.fail("the fake kernel gave a %s %s tensor on %s (contiguous: %s) for a 6 x 9 bfloat16 x on %s"
                        % (tuple(y.shape), y.dtype, y.device, y.is_contiguous(), dev), pytrace=False)
        for bad, what in ((torch.empty(12, device=dev), "1-D"), (torch.empty(3, 4, dtype=torch.int32, device=dev),
                                                                  "int32")):
            try:
                op(bad)
            except NotImplementedError as e:
                pytest.fail("the fake kernel is not written: %s" % e, pytrace=False)
            except Exception:  # torch._check raises RuntimeError; a dispatcher error is as good
                continue
            pytest.fail("the fake kernel accepted a %s input (torch._check it as the kernels do)" % what,
                        pytrace=False)


# ---------------------------------------------------------------- w39.compile

def around(op):
    """The op between two ordinary torch ops: a graph break would cut it out of the graph."""
    return lambda x: op(torch.relu(x) - 1.0) * 3.0


def reference_around(x):
    return torch.softmax((torch.relu(x.float()) - 1.0), dim=1).to(x.dtype) * 3.0


@pytest.mark.checkpoint("w39.compile")
def test_compile_no_graph_break(dev, seed, speed):
    """torch._dynamo.explain: the function with the op in the middle is one graph
    and no break; torch.compile(fullgraph=True) of it runs and matches. The pybind
    form is explained beside it (printed, not judged): dynamo cannot trace a
    pybind function, so it breaks the graph there."""
    op = dispatcher_op()
    for d, g in devices(dev, seed):
        x = uniform((64, 257), -5, 5, g, d)
        torch._dynamo.reset()
        try:
            ex = torch._dynamo.explain(around(op))(x)
        except Exception as e:
            pytest.fail("torch._dynamo.explain on %s: %s: %s" % (d.type, type(e).__name__,
                                                                 str(e).strip().splitlines()[0]), pytrace=False)
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
        why = wb_pytest.mismatch(got, reference_around(x), 1e-6, 1e-5)
        if why:
            pytest.fail("the compiled function on %s: %s" % (d.type, why), pytrace=False)
    torch._dynamo.reset()
    pyb = torch._dynamo.explain(around(jit().softmax))(uniform((8, 33), -5, 5, devices(dev, seed)[0][1],
                                                            torch.device("cpu")))
    speed.note("w39.compile: the pybind form, explained: %d graphs, %d graph breaks (%s)"
               % (pyb.graph_count, pyb.graph_break_count,
                  str(pyb.break_reasons[0].reason).splitlines()[0][:160] if pyb.break_reasons else "no reason given"))
    torch._dynamo.reset()


@pytest.mark.checkpoint("w39.compile")
@pytest.mark.parametrize("dt", list(DTYPES))
def test_compile_backward(dt, dev, seed):
    """The compiled function trains: x.grad through torch.compile(fullgraph=True)
    (AOTAutograd uses the registered backward) matches torch.softmax's."""
    op = dispatcher_op()
    dtype = DTYPES[dt]
    atol, rtol = {torch.float32: (1e-6, 1e-4), torch.float16: (1e-4, 1e-2), torch.bfloat16: (1e-3, 5e-2)}[dtype]
    for d, g in devices(dev, seed):
        x = uniform((33, 129), -5, 5, g, d, dtype)
        dy = uniform((33, 129), -1, 1, g, d, dtype)
        xa = x.clone().requires_grad_()
        torch._dynamo.reset()
        try:
            (torch.compile(around(op), fullgraph=True)(xa) * dy).sum().backward()
        except Exception as e:
            pytest.fail("backward through the compiled function on %s %s: %s: %s"
                        % (d.type, dt, type(e).__name__, str(e).strip().splitlines()[0][:300]), pytrace=False)
        xr = x.float().clone().requires_grad_()
        (reference_around(xr) * dy.float()).sum().backward()
        why = wb_pytest.mismatch(xa.grad, xr.grad, atol, rtol)
        if why:
            pytest.fail("x.grad through the compiled function on %s %s: %s" % (d.type, dt, why), pytrace=False)
    torch._dynamo.reset()
