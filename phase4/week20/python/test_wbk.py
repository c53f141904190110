"""test_wbk.py — the Python bindings' test (week 20), the standard library only.

    python3 -B test_wbk.py cpu [SEED]   no GPU needed: version, statuses, bad
                                        arguments raise ArgumentError (a
                                        ValueError) with the library's message
    python3 -B test_wbk.py gpu [SEED]   the operations on a GPU against
                                        pure-Python references
    python3 -B test_wbk.py installed PREFIX
                                        the cpu tests on the copy `make install
                                        PREFIX=...` installed (PYTHONPATH=
                                        PREFIX/lib/python, no WBK_LIBRARY)

The library is $WBK_LIBRARY (the week's C test sets it to the libwbk.so.1
built beside its own binary). Prints one line per test, PASS or FAIL with
the reason, and exits 0 when all passed, 1 otherwise. The week's C test runs
this as a subprocess for w20.py-errors (cpu) and w20.py (gpu); make test
runs the installed mode (phase4/week20/week.mk).
"""

import array
import math
import os
import random
import sys

wbk = None  # imported by main(): from this folder, or from PYTHONPATH for "installed"

FLT_EPSILON = 2.0 ** -23
TESTS = {"cpu": [], "gpu": []}


def test(mode):
    def register(fn):
        TESTS[mode].append(fn)
        return fn
    return register


class Failed(Exception):
    pass


def expect(cond, fmt, *args):
    if not cond:
        raise Failed(fmt % args if args else fmt)


def expect_argument_error(call, func, status=1):
    """call() must raise ArgumentError (a ValueError) whose text is the
    library's message for func ("func: what") and whose status is status."""
    try:
        call()
    except wbk.ArgumentError as e:
        text = str(e)
        expect(isinstance(e, ValueError), "ArgumentError is not a ValueError")
        expect(e.status == status, "%s: status %d (%s), expected %d (%s)", func, e.status, e.name, status,
               wbk.status_name(status))
        expect(text.startswith(func + ": ") and len(text) > len(func) + 4,
               "%s: the message should be \"%s: what is wrong\", got %r", func, func, text)
        expect(text == wbk._last_error().decode(), "%s: the exception's text %r is not wbk_last_error()", func, text)
        return text
    except Exception as e:  # any other exception is wrong too
        raise Failed("%s: expected ArgumentError, got %s: %s" % (func, type(e).__name__, e))
    raise Failed("%s: a bad argument raised nothing (the library returned WBK_OK)" % func)


def floats(rng, n, lo=-1.0, hi=1.0):
    """n float32 values (array.array('f'), so Python sees the rounded numbers)."""
    return array.array("f", (rng.uniform(lo, hi) for _ in range(n)))


# ---------------------------------------------------------------- without a GPU

@test("cpu")
def version_and_statuses(rng):
    v = wbk.version()
    expect(len(v) == 3 and v[0] == wbk.ABI_MAJOR and all(isinstance(k, int) and k >= 0 for k in v),
           "version() = %r, expected (%d, minor, patch)", v, wbk.ABI_MAJOR)
    for s, name in enumerate(wbk._STATUS_NAMES):
        expect(wbk.status_name(s) == name, "status_name(%d) = %r, expected %r", s, wbk.status_name(s), name)
        expect(wbk.status_string(s), "status_string(%d) is empty", s)
    expect(wbk.status_name(99) == "WBK_ERR_UNKNOWN", "status_name(99) = %r", wbk.status_name(99))


@test("cpu")
def bad_arguments_raise_value_error(rng):
    ctx = wbk.Context(open=False)  # no device: the library checks arguments before the context
    n = rng.randint(3, 50)
    x = floats(rng, n)
    msg = expect_argument_error(lambda: ctx.saxpy(2.0, x, x[:-1]), "wbk_saxpy")
    expect(str(n) in msg and str(n - 1) in msg, "wbk_saxpy: the message should give both lengths, got %r", msg)
    expect_argument_error(lambda: ctx.dot(x, list(x) + [1.0]), "wbk_dot")
    expect_argument_error(lambda: ctx.transpose(x, 2, n), "wbk_transpose")        # 2 x n is not n elements
    expect_argument_error(lambda: ctx.transpose([], -1, 0), "wbk_transpose")
    expect_argument_error(lambda: ctx.transpose([], 0, -3), "wbk_transpose")
    expect_argument_error(lambda: ctx.transpose([], 1 << 21, 0), "wbk_transpose")
    expect_argument_error(lambda: ctx.standardize([]), "wbk_standardize")
    # Good arguments, no context: the handle's error, still a ValueError.
    expect_argument_error(lambda: ctx.sum(x), "wbk_sum", status=2)
    expect_argument_error(lambda: ctx.standardize(x), "wbk_standardize", status=2)
    expect_argument_error(lambda: ctx.saxpy(1.0, [], []), "wbk_saxpy", status=2)
    expect(wbk.version()[0] == wbk.ABI_MAJOR, "the library stopped answering after the errors")


# ---------------------------------------------------------------- on a GPU

def close(got, ref, atol, rtol):
    if isinstance(ref, float) and math.isnan(ref):
        return isinstance(got, float) and math.isnan(got)
    return abs(got - ref) <= atol + rtol * abs(ref)


def expect_all_close(got, ref, atol, rtol, what):
    expect(len(got) == len(ref), "%s: %d elements, expected %d", what, len(got), len(ref))
    for i, (g, r) in enumerate(zip(got, ref)):
        if not close(g, r, atol, rtol):
            raise Failed("%s: element %d is %r, expected %r (atol %g, rtol %g)" % (what, i, g, r, atol, rtol))


def dot_tolerance(prods):
    s = math.fsum(prods)
    sq = math.fsum(t * t for t in prods)
    sa = math.fsum(abs(t) for t in prods)
    return s, 8 * FLT_EPSILON * math.sqrt(len(prods)) * math.sqrt(sq) + 1e-6 * abs(s) + 2e-6 * sa


def check_ops(ctx, rng, what):
    for n in (0, 1, 1000, rng.randint(2, 70000)):
        x, y = floats(rng, n), floats(rng, n)
        a = rng.uniform(-2, 2)
        af = array.array("f", [a])[0]
        got = ctx.saxpy(a, x, list(y))  # one array.array, one list
        expect_all_close(got, [af * xi + yi for xi, yi in zip(x, y)], 1e-6, 1e-6, "%s saxpy n=%d" % (what, n))
        ref, tol = dot_tolerance([xi * yi for xi, yi in zip(x, y)])
        d = ctx.dot(x, y)
        expect(abs(d - ref) <= tol, "%s dot n=%d: %r, expected %r (tolerance %g)", what, n, d, ref, tol)
        ref, tol = dot_tolerance(list(x))
        s = ctx.sum(x)
        expect(abs(s - ref) <= tol, "%s sum n=%d: %r, expected %r (tolerance %g)", what, n, s, ref, tol)
    for rows, cols in ((0, 5), (1, 1), (33, 65), (300, 7), (5, rng.randint(900, 1100))):
        m = floats(rng, rows * cols)
        got = ctx.transpose(m, rows, cols)
        ref = [m[r * cols + c] for c in range(cols) for r in range(rows)]
        expect(list(got) == ref, "%s transpose %dx%d: the result differs from the transpose", what, rows, cols)
    for n in (1, 2, 1000, rng.randint(3000, 100003), -50):
        if n < 0:
            c = array.array("f", [rng.uniform(-10, 10)])[0]
            x, n = array.array("f", [c] * -n), -n  # a constant vector
        else:
            lo = rng.uniform(-10, 9)
            x = floats(rng, n, lo, lo + rng.uniform(1, 10))
        y, mean, std = ctx.standardize(x)
        rm = math.fsum(x) / n
        rs = math.sqrt(math.fsum((xi - rm) ** 2 for xi in x) / n)
        scale = 1 / rs if rs > 1e-5 * abs(rm) else 1.0
        expect(close(mean, rm, 1e-5, 1e-5) and close(std, rs, 1e-5, 1e-5),
               "%s standardize n=%d: mean %r std %r, expected %r %r", what, n, mean, std, rm, rs)
        expect_all_close(y, [(xi - rm) * scale for xi in x], 1e-4, 1e-4, "%s standardize n=%d" % (what, n))


@test("gpu")
def operations_match_python(rng):
    with wbk.Context() as ctx:
        print("  devices: %d%s" % (ctx.device_count, " (one GPU: no split)" if ctx.device_count == 1 else ""))
        check_ops(ctx, rng, "Context()")


@test("gpu")
def split_on_one_gpu(rng):
    with wbk.Context(devices=[0, 0, 0]) as ctx:
        expect(ctx.device_count == 3, "Context(devices=[0, 0, 0]).device_count = %d", ctx.device_count)
        check_ops(ctx, rng, "Context(devices=[0, 0, 0])")


@test("gpu")
def errors_on_an_open_context(rng):
    with wbk.Context() as ctx:
        expect_argument_error(lambda: ctx.saxpy(1.0, [1.0, 2.0], [1.0]), "wbk_saxpy")
        expect_argument_error(lambda: ctx.transpose([1.0] * 5, 2, 3), "wbk_transpose")
        expect(ctx.sum([1.0, 2.0, 3.0]) == 6.0, "the context stopped working after an error")
    expect_argument_error(lambda: ctx.sum([1.0]), "wbk_sum", status=2)  # closed by the with block
    try:
        wbk.Context(devices=[0, 4096])
    except wbk.DeviceError as e:
        expect(str(e).startswith("wbk_create_on: ") and e.name == "WBK_ERR_NO_DEVICE",
               "Context(devices=[0, 4096]): %s %r", e.name, str(e))
    else:
        raise Failed("Context(devices=[0, 4096]) raised nothing: device 4096 does not exist")


def installed_copy(prefix):
    """The module comes from PREFIX/lib/python, and finds PREFIX/lib/libwbk.so.1 by itself."""
    prefix = os.path.abspath(prefix)
    where = os.path.abspath(wbk.__file__)
    expect(where == os.path.join(prefix, "lib", "python", "wbk.py"), "wbk was imported from %s, not from %s", where,
           prefix)
    lib = wbk._find_library()
    expect(lib == os.path.join(prefix, "lib", "libwbk.so.1"), "the module loaded %s, not the installed library", lib)


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    if mode not in ("cpu", "gpu", "installed") or (mode == "installed" and len(argv) != 3):
        print("usage: test_wbk.py cpu|gpu [SEED] | test_wbk.py installed PREFIX")
        return 2
    global wbk
    here = os.path.dirname(os.path.abspath(__file__))
    if mode != "installed":
        sys.path.insert(0, here)
    else:  # python puts the script's folder first on the path: the installed module must win
        sys.path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    if mode == "installed" and "WBK_LIBRARY" in os.environ:
        print("installed: unset WBK_LIBRARY (the installed module must find its library by itself)")
        return 2
    import wbk as module
    wbk = module
    seed = int(argv[2]) if len(argv) > 2 and mode != "installed" else 1
    tests = TESTS["cpu"] if mode == "installed" else TESTS[mode]
    if mode == "installed":
        tests = [lambda rng: installed_copy(argv[2])] + tests
        tests[0].__name__ = "installed_copy"
    failed = 0
    for k, fn in enumerate(tests):
        rng = random.Random(seed * 1000 + k)
        try:
            fn(rng)
            print("PASS %s" % fn.__name__)
        except Failed as e:
            failed += 1
            print("FAIL %s: %s" % (fn.__name__, e))
        except Exception as e:  # an error of the bindings themselves
            failed += 1
            print("FAIL %s: %s: %s" % (fn.__name__, type(e).__name__, e))
    print("%d of %d passed (library %s, version %d.%d.%d)" % ((len(tests) - failed, len(tests), wbk._find_library())
                                                            + wbk.version()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
