"""wb_ext.py — build a PyTorch C++/CUDA extension from the folder under test.

    ext = wb_ext.load("wb_layernorm", ["layernorm.cu"])     # in a test, after need("torch")
    y = ext.forward(x, w, b, 1e-5)

A Phase 7 exercise that is an extension is one `.cu` file (an `exercise:`
line in week.txt): the kernels behind a C API, which the week's Check test
builds and tests as in every other week, and the torch binding inside
`#ifdef WB_TORCH_EXT`, which only this build sees. One file, so `make WEEK
reset`, the starter's derivation, drift and `make release` treat it like
any other exercise.

load() builds with torch.utils.cpp_extension.load (ninja) into
build/WEEK/ext/<the folder under test>/<name>/, so your code, the reference
and the starter never share objects, and a second run with unchanged sources
reuses the build. Sources are names in the folder under test (WB_PY_DIR) or
absolute paths; `-DWB_TORCH_EXT` is added to both compilers, and the week
folder (WB_WEEK: where an exercise's header sits, while the reference and
the starter are built from other folders) to the include path. The compiler's
whole output goes to build.log there; a failed build raises ExtBuildError
whose message is the first error line and the log's path (the one line the
checkpoint table shows).

torch is imported inside the functions: this module loads where torch is
absent (py_compile, the runner).
"""

import hashlib
import os
import re
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

_BUILT = {}


class ExtBuildError(RuntimeError):
    """The extension did not compile or link; str() is one line."""


def code_dir():
    """The folder under test: your week folder, WEEK/solution, or the derived starter."""
    d = os.environ.get("WB_PY_DIR", "")
    if not d:
        raise RuntimeError("WB_PY_DIR is not set: Phase 7's tests run through `make WEEK check`")
    return d


def build_dir(name):
    """build/WEEK/ext/<tag of the folder under test>/<name>."""
    week = os.environ.get("WB_WEEK", "unknown-week")
    code = os.path.abspath(code_dir())
    tag = os.path.basename(code.rstrip(os.sep)) + "-" + hashlib.sha1(code.encode()).hexdigest()[:8]
    return os.path.join(ROOT, "build", week, "ext", tag, name)


def _first_error(text):
    for line in text.splitlines():
        if re.search(r"\berror\b", line) and "ninja: build stopped" not in line:
            return line.strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else "no compiler output"


def load(name, sources, extra_cflags=(), extra_cuda_cflags=(), extra_ldflags=(), include_dirs=()):
    """Build (or reuse) the extension `name` from `sources` and import it."""
    key = (name, tuple(sources))
    if key in _BUILT:
        return _BUILT[key]
    from torch.utils import cpp_extension
    # one architecture, the one the workbook targets: no GPU is needed to compile,
    # and a fat binary for every architecture torch knows would triple the build
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0")
    paths = []
    for s in sources:
        p = s if os.path.isabs(s) else os.path.join(code_dir(), s)
        if not os.path.isfile(p):
            raise FileNotFoundError("%s is missing (make WEEK reset EX=%s restores the starter)"
                                    % (p, os.path.splitext(os.path.basename(s))[0]))
        paths.append(p)
    bdir = build_dir(name)
    os.makedirs(bdir, exist_ok=True)
    log = os.path.join(bdir, "build.log")
    flags = ["-O3", "-DWB_TORCH_EXT"]
    incs = [os.path.join(ROOT, os.environ.get("WB_WEEK", ""))] + list(include_dirs)
    try:
        mod = cpp_extension.load(name=name, sources=paths, build_directory=bdir, verbose=False,
                                 extra_cflags=flags + list(extra_cflags),
                                 extra_cuda_cflags=flags + ["-lineinfo"] + list(extra_cuda_cflags),
                                 extra_ldflags=list(extra_ldflags), extra_include_paths=incs)
    except Exception as e:  # RuntimeError from ninja, or an ImportError of a module that did not link
        text = str(e)
        with open(log, "w") as f:
            f.write(text)
        raise ExtBuildError("the extension %s did not build: %s (whole output: %s)"
                            % (name, _first_error(text), os.path.relpath(log, ROOT))) from None
    _BUILT[key] = mod
    return mod


# ---------------------------------------------------------------- builds in the background

_BG = {}


def selected(cp):
    """True when this run judges checkpoint `cp` (CK_RUN_CASE unset, or naming it)."""
    case = os.environ.get("CK_RUN_CASE", "")
    return not case or case == cp


def start(name, fn):
    """Run fn() (a build: child processes, no CUDA) in a thread of its own now;
    outcome(name, fn) waits for it. A test file starts its slow builds when it
    loads, so they overlap with each other and with the JIT build."""
    res = {}

    def run():
        try:
            res["value"] = fn()
        except BaseException as e:  # pytest.fail and pytest.skip raise too: outcome() re-raises them
            res["error"] = e

    t = threading.Thread(target=run, name="wb-build-" + name, daemon=True)
    t.start()
    _BG[name] = (t, res)


def outcome(name, fn):
    """What fn() returned (or raised) in the background, if start(name, ...)
    ran; else fn() now."""
    if name not in _BG:
        return fn()
    t, res = _BG[name]
    t.join()
    if "error" in res:
        raise res["error"]
    return res["value"]
