"""Week 42's Python checkpoints: the backward of the LayerNorm Function.

Run by `make phase7/week42 check` (phase7/common/wb_pyrun.py with the plugin
phase7/common/wb_pytest.py), never by hand. layernorm.py comes from the
folder under test and builds its extension from that folder's ln_bwd.cu.
Where torch cannot be imported or sees no GPU, every checkpoint is SKIP with
the reason. The kernels themselves are judged by test_week42.c (w42.kernel).
"""

import pytest

import wb_bench
import wb_pytest

torch = wb_pytest.need("torch")
F = torch.nn.functional

NAN = float("nan")
EPS = 1e-5


def uniform(shape, lo, hi, gen, dev, dtype=None):
    return (torch.rand(shape, generator=gen, device=dev, dtype=dtype or torch.float32) * (hi - lo) + lo)


def expect(got, want, atol, rtol, what):
    if got is None:
        pytest.fail("%s: the gradient is None" % what, pytrace=False)
    why = wb_pytest.mismatch(got, want, atol, rtol)
    if why:
        pytest.fail("%s: %s" % (what, why), pytrace=False)


def grads(fn, x, w, b, dy):
    """(dx, dweight, dbias) of fn(x, w, b) with the upstream gradient dy, on fresh leaves."""
    xs, ws, bs = (t.detach().clone().requires_grad_() for t in (x, w, b))
    fn(xs, ws, bs).backward(dy)
    return xs.grad, ws.grad, bs.grad


# ---------------------------------------------------------------- w42.gradcheck

@pytest.mark.checkpoint("w42.gradcheck")
@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (5, 33), (2, 3, 17), (0, 4)])
def test_gradcheck(shape, dev, gen):
    """Finite differences of the forward against your backward, in double.
    (1, 1) is degenerate (variance 0: xhat = 0, dx = 0) and must still agree."""
    ex = wb_pytest.exercise("layernorm")
    n = shape[-1]
    x = uniform(shape, -2, 2, gen, dev, torch.float64).requires_grad_()
    w = uniform(n, 0.5, 1.5, gen, dev, torch.float64).requires_grad_()
    b = uniform(n, -1, 1, gen, dev, torch.float64).requires_grad_()
    # torch.autograd.gradcheck is the function (it hides the module of the same name): the class comes from the module
    from torch.autograd.gradcheck import GradcheckError
    try:
        ok = torch.autograd.gradcheck(lambda x, w, b: ex.layer_norm(x, w, b, EPS), (x, w, b), eps=1e-6, atol=1e-7,
                                      rtol=1e-5, raise_exception=True)
    except (NotImplementedError, GradcheckError, RuntimeError) as e:
        first = [ln for ln in str(e).splitlines() if ln.strip()]
        pytest.fail("gradcheck on %s: %s: %s" % (shape, type(e).__name__, first[0] if first else ""), pytrace=False)
    assert ok


# ---------------------------------------------------------------- w42.backward

SHAPES = [(0, 64), (1, 1), (7, 1), (5, 3), (10, 5), (9, 33), (33, 1024), (17, 1025), (9, 4097), (8, 8192),
          (4, 20000), (3000, 64), (1000, 769)]


def torch_ln(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, EPS)


def check_grads(ex, x, w, b, dy, what, tol=1e-4):
    """Your gradients against torch's autograd in double, from the same float inputs."""
    got = grads(lambda x, w, b: ex.layer_norm(x, w, b, EPS), x, w, b, dy)
    want = grads(torch_ln, x.double(), w.double(), b.double(), dy.double())
    for g, r, name in zip(got, want, ("dx", "dweight", "dbias")):
        # dweight and dbias sum over rows: their error grows with the row count
        rows = max(1, x.numel() // max(1, x.shape[-1]))
        t = tol if name == "dx" else tol * (1 + rows ** 0.5 / 8)
        expect(g, r, t, t, "%s, %s" % (name, what))


@pytest.mark.checkpoint("w42.backward")
@pytest.mark.parametrize("m,n", SHAPES)
def test_backward_shapes(m, n, dev, gen):
    ex = wb_pytest.exercise("layernorm")
    x = uniform((m, n), -3, 3, gen, dev)
    w, b = uniform(n, -1.5, 1.5, gen, dev), uniform(n, -1, 1, gen, dev)
    check_grads(ex, x, w, b, uniform((m, n), -1, 1, gen, dev), "%d x %d" % (m, n))


@pytest.mark.checkpoint("w42.backward")
def test_backward_layouts(dev, gen):
    """A 3-D input, and upstream gradients that are not contiguous: a transposed
    view and an expanded (stride 0) tensor."""
    ex = wb_pytest.exercise("layernorm")
    x = uniform((4, 6, 129), -3, 3, gen, dev)
    w, b = uniform(129, -1.5, 1.5, gen, dev), uniform(129, -1, 1, gen, dev)
    check_grads(ex, x, w, b, uniform((4, 6, 129), -1, 1, gen, dev), "(4, 6, 129)")
    x2 = uniform((50, 300), -3, 3, gen, dev)
    w2, b2 = uniform(300, -1.5, 1.5, gen, dev), uniform(300, -1, 1, gen, dev)
    check_grads(ex, x2, w2, b2, uniform((300, 50), -1, 1, gen, dev).t(), "50 x 300, dy a transposed view")
    check_grads(ex, x2, w2, b2, uniform((1, 300), -1, 1, gen, dev).expand(50, 300), "50 x 300, dy expanded")


@pytest.mark.checkpoint("w42.backward")
def test_backward_extremes(dev, gen):
    """Rows of 1e4 + noise and constant rows in x, a NaN in dy (torch: NaN in its
    row of dx and its column of dweight and dbias)."""
    ex = wb_pytest.exercise("layernorm")
    m, n = 12, 1001
    x = uniform((m, n), -3, 3, gen, dev)
    x[0] = uniform(n, 1e4 - 1, 1e4 + 1, gen, dev)
    x[1] = 2.0
    x[2] = uniform(n, -1e4, 1e4, gen, dev)
    w, b = uniform(n, -1.5, 1.5, gen, dev), uniform(n, -1, 1, gen, dev)
    dy = uniform((m, n), -1, 1, gen, dev)
    dy[5, 77] = NAN
    # against torch in float32: the 1e4 row's float statistics differ from double's by more than a gradient's tolerance
    got = grads(lambda x, w, b: ex.layer_norm(x, w, b, EPS), x, w, b, dy)
    want = grads(torch_ln, x, w, b, dy)
    for g, r, name in zip(got, want, ("dx", "dweight", "dbias")):
        expect(g, r, 2e-3, 2e-3, "%s with rows of 1e4 + noise, a constant row, a NaN in dy" % name)


# ---------------------------------------------------------------- w42.fast-path

FAST_SHAPES = [(4, 64), (3, 1024), (2, 8192)]  # N % 4 == 0 and N <= 8192: the fused float path


@pytest.mark.checkpoint("w42.fast-path")
@pytest.mark.parametrize("m,n", FAST_SHAPES)
def test_fast_path(m, n, dev, gen):
    """The shapes of the fused float path (N a multiple of 4, up to 8192, the
    tensors 16-byte aligned, as torch allocates them). gradcheck runs in
    double, and the fused kernel is float only, so the proof is in two steps:
    gradcheck in float64 at these very shapes (the double kernels; fast_mode,
    a random projection of the Jacobian, past 64 columns), then the float32
    Function, which takes the fused path here, against the float64 one."""
    ex = wb_pytest.exercise("layernorm")
    x = uniform((m, n), -2, 2, gen, dev, torch.float64).requires_grad_()
    w = uniform(n, 0.5, 1.5, gen, dev, torch.float64).requires_grad_()
    b = uniform(n, -1, 1, gen, dev, torch.float64).requires_grad_()
    from torch.autograd.gradcheck import GradcheckError
    try:
        torch.autograd.gradcheck(lambda x, w, b: ex.layer_norm(x, w, b, EPS), (x, w, b), eps=1e-6, atol=1e-7,
                                 rtol=1e-5, raise_exception=True, fast_mode=n > 64)
    except (NotImplementedError, GradcheckError, RuntimeError) as e:
        first = [ln for ln in str(e).splitlines() if ln.strip()]
        pytest.fail("gradcheck in float64 at %d x %d: %s: %s" % (m, n, type(e).__name__, first[0] if first else ""),
                    pytrace=False)
    dy = uniform((m, n), -1, 1, gen, dev, torch.float64)
    want = grads(lambda x, w, b: ex.layer_norm(x, w, b, EPS), x, w, b, dy)
    got = grads(lambda x, w, b: ex.layer_norm(x, w, b, EPS), x.float(), w.float(), b.float(), dy.float())
    for g, r, name in zip(got, want, ("dx", "dweight", "dbias")):
        t = 1e-4 if name == "dx" else 1e-4 * (1 + m ** 0.5 / 8)
        expect(g, r, t, t, "%s, float32 (fused path) against the gradchecked float64 Function, %d x %d" % (name, m, n))


# ---------------------------------------------------------------- w42.needs-input-grad

class CountingExt:
    """The extension, with its backward calls counted."""

    def __init__(self, inner):
        self.inner, self.backward_calls = inner, 0

    def forward(self, *a):
        return self.inner.forward(*a)

    def backward(self, *a):
        self.backward_calls += 1
        return self.inner.backward(*a)


@pytest.mark.checkpoint("w42.needs-input-grad")
@pytest.mark.parametrize("case", ["x-frozen", "only-x", "all"])
def test_needs_input_grad(case, dev, gen):
    """backward computes only what ctx.needs_input_grad asks for: with x frozen
    the dx kernel (ext().backward) is not called at all and dweight, dbias are
    still right; with only x needing one, dweight and dbias come back None.
    backward is called as autograd calls it, with a ctx that says which inputs
    need a gradient, and the calls of ext().backward are counted."""
    import types
    ex = wb_pytest.exercise("layernorm")
    m, n = 33, 1024
    x = uniform((m, n), -3, 3, gen, dev).requires_grad_()
    w = uniform(n, -1.5, 1.5, gen, dev).requires_grad_()
    b = uniform(n, -1, 1, gen, dev).requires_grad_()
    dy = uniform((m, n), -1, 1, gen, dev)
    y = ex.LayerNormFn.apply(x, w, b, EPS)[0]
    need = {"x-frozen": (False, True, True, False), "only-x": (True, False, False, False),
            "all": (True, True, True, False)}[case]
    ctx = types.SimpleNamespace(saved_tensors=y.grad_fn.saved_tensors, needs_input_grad=need)
    real = ex.ext()
    counting = CountingExt(real)
    ex._EXT = counting
    try:
        out = ex.LayerNormFn.backward(ctx, dy, None, None)
    finally:
        ex._EXT = real
    if not isinstance(out, tuple) or len(out) != 4:
        pytest.fail("backward returned %r, want 4 gradients (x, weight, bias, eps)" % type(out).__name__,
                    pytrace=False)
    want = torch.autograd.grad(torch_ln(x.double(), w.double(), b.double()), (x, w, b), dy.double())
    for i, (got, ref, name) in enumerate(zip(out, want, ("dx", "dweight", "dbias"))):
        if not need[i]:
            if got is not None:
                pytest.fail("%s: %s was not asked for (ctx.needs_input_grad[%d] is False), but backward returned "
                            "one: return None and skip its work" % (case, name, i), pytrace=False)
            continue
        rows_tol = 1e-4 if name == "dx" else 1e-4 * (1 + m ** 0.5 / 8)
        expect(got, ref, rows_tol, rows_tol, "%s, %s" % (name, case))
    if out[3] is not None:
        pytest.fail("the gradient of eps (not a tensor) must be None", pytrace=False)
    calls = counting.backward_calls
    if case == "x-frozen" and calls != 0:
        pytest.fail("x needs no gradient, but ext().backward (the dx kernel) ran %d time(s): compute dweight and "
                    "dbias alone" % calls, pytrace=False)
    if case != "x-frozen" and calls != 1:
        pytest.fail("%s: ext().backward ran %d times, want once" % (case, calls), pytrace=False)


@pytest.mark.checkpoint("w42.needs-input-grad")
def test_frozen_x_through_autograd(dev, gen):
    """The same through autograd itself: x without requires_grad (an input
    batch), weight and bias with it."""
    ex = wb_pytest.exercise("layernorm")
    m, n = 17, 1025
    x = uniform((m, n), -3, 3, gen, dev)
    w = uniform(n, -1.5, 1.5, gen, dev).requires_grad_()
    b = uniform(n, -1, 1, gen, dev).requires_grad_()
    dy = uniform((m, n), -1, 1, gen, dev)
    ex.layer_norm(x, w, b, EPS).backward(dy)
    want = torch.autograd.grad(torch_ln(x.double(), w.double(), b.double()), (w, b), dy.double())
    t = 1e-4 * (1 + m ** 0.5 / 8)
    expect(w.grad, want[0], t, t, "dweight with x frozen")
    expect(b.grad, want[1], t, t, "dbias with x frozen")


# ---------------------------------------------------------------- w42.once-differentiable

@pytest.mark.checkpoint("w42.once-differentiable")
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_once_differentiable(dt, dev, gen):
    """A second derivative through the kernels cannot be right (they are not
    differentiable), so asking for one must be an error: a gradient penalty,
    the norm of dx added to the loss, differentiated again. With
    @once_differentiable autograd raises "trying to differentiate twice";
    without it the penalty's dependence on x is silently dropped."""
    ex = wb_pytest.exercise("layernorm")
    dtype = getattr(torch, dt)
    m, n = 6, 64
    x = uniform((m, n), -3, 3, gen, dev, dtype).requires_grad_()
    w = uniform(n, 0.5, 1.5, gen, dev, dtype).requires_grad_()
    b = uniform(n, -1, 1, gen, dev, dtype).requires_grad_()
    dy = uniform((m, n), -1, 1, gen, dev, dtype)
    y = ex.layer_norm(x, w, b, EPS)
    (gx,) = torch.autograd.grad((y * y).sum(), (x,), create_graph=True)
    loss = (y * dy).sum() + (gx * gx).sum()
    try:
        loss.backward()
    except RuntimeError as e:
        if "once_differentiable" in str(e):
            return
        pytest.fail("the double backward failed, but not with once_differentiable's error: %s"
                    % str(e).strip().splitlines()[0][:300], pytrace=False)
    pytest.fail("a gradient penalty through the kernels was differentiated without an error (its second "
                "derivative silently dropped): mark backward @once_differentiable", pytrace=False)


# ---------------------------------------------------------------- w42.backward-speed

def backward_figure(ex, m, n, gen, dev):
    """y.backward(dy, retain_graph=True) through your Function and through
    F.layer_norm, on the same x and dy: the graph is built once, outside the
    timing, so what is timed is the backward alone (your kernels against
    torch's layer_norm backward kernels, each with autograd's bookkeeping).
    Bytes: x and dy read, dx written, 3 * m * n * 4."""
    x = uniform((m, n), -3, 3, gen, dev).requires_grad_()
    w = uniform(n, -1.5, 1.5, gen, dev).requires_grad_()
    b = uniform(n, -1, 1, gen, dev).requires_grad_()
    dy = uniform((m, n), -1, 1, gen, dev)
    y_mine = ex.layer_norm(x, w, b, EPS)
    y_torch = F.layer_norm(x, (n,), w, b, EPS)
    leaves = (x, w, b)

    def run(y):
        for t in leaves:
            t.grad = None
        y.backward(dy, retain_graph=True)

    def verify():
        got = (x.grad, w.grad, b.grad)
        want = torch.autograd.grad(y_torch, leaves, dy, retain_graph=True)
        for g, r, name in zip(got, want, ("dx", "dweight", "dbias")):
            if g is None:
                return "%s is None" % name
            why = wb_pytest.mismatch(g, r, 1e-3, 1e-3)
            if why:
                return "%s: %s" % (name, why)
        return None

    def fresh():
        with torch.no_grad():
            dy.copy_(uniform((m, n), -1, 1, gen, dev))
        for t in leaves:
            t.grad = None

    return wb_bench.measure(lambda: run(y_mine), lambda: run(y_torch), work=3 * m * n * 4, unit="GB/s", yard="TORCH",
                            verify=verify, fresh=fresh, name="%d x %d" % (m, n))


@pytest.mark.checkpoint("w42.backward-speed")
def test_backward_speed(dev, gen, speed):
    """Judged at 8192 x 4096 (x and dy 128 MiB each); 4096 x 8192 printed beside it."""
    wb_pytest.need_compiled()
    ex = wb_pytest.exercise("layernorm")
    side = backward_figure(ex, 4096, 8192, gen, dev)
    speed.note("%s (printed, not judged)%s" % (side["detail"], " INVALID: " + side["invalid"] if side["invalid"] else ""))
    speed.record(backward_figure(ex, 8192, 4096, gen, dev))
