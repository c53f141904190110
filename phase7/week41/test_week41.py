"""Week 41's Python checkpoints: the LayerNorm autograd Function against torch.

Run by `make phase7/week41 check` (phase7/common/wb_pyrun.py with the plugin
phase7/common/wb_pytest.py), never by hand. layernorm.py comes from the
folder under test and builds its extension from that folder's ln_fwd.cu
(wb_ext). Where torch cannot be imported or sees no GPU, every checkpoint is
SKIP with the reason. The kernel itself is judged by test_week41.c (w41.kernel).
"""

import pytest

import wb_bench
import wb_pytest

torch = wb_pytest.need("torch")
F = torch.nn.functional

NAN = float("nan")
EPS = 1e-5


def uniform(shape, lo, hi, gen, dev):
    return torch.rand(shape, generator=gen, device=dev) * (hi - lo) + lo


def params(n, gen, dev):
    return uniform(n, -1.5, 1.5, gen, dev), uniform(n, -1, 1, gen, dev)


def poison_allocator(numel, dev):
    """The Function allocates its own outputs; fill the block the caching
    allocator will hand out next for numel floats with NaN, so an element
    the kernel never writes stays NaN instead of an earlier test's numbers."""
    if numel:
        t = torch.full((numel,), NAN, device=dev)
        del t


def run(ex, x, w, b):
    poison_allocator(x.numel(), x.device)
    y = ex.layer_norm(x, w, b, EPS)
    if not isinstance(y, torch.Tensor):
        pytest.fail("layer_norm returned %s, not a tensor" % type(y).__name__, pytrace=False)
    if y.shape != x.shape:
        pytest.fail("layer_norm returned shape %s for x of shape %s" % (tuple(y.shape), tuple(x.shape)), pytrace=False)
    return y


def expect(got, want, atol, rtol, what):
    why = wb_pytest.mismatch(got, want, atol, rtol)
    if why:
        pytest.fail("%s: %s" % (what, why), pytrace=False)


# ---------------------------------------------------------------- w41.forward

SHAPES = [(1, 1), (7, 1), (5, 3), (10, 5), (9, 33), (33, 1024), (17, 1025), (9, 4097), (8, 8192), (4, 20000),
          (1000, 768), (0, 64)]


@pytest.mark.checkpoint("w41.forward")
@pytest.mark.parametrize("m,n", SHAPES)
def test_forward_shapes(m, n, dev, gen):
    ex = wb_pytest.exercise("layernorm")
    x = uniform((m, n), -5, 5, gen, dev)
    w, b = params(n, gen, dev)
    y = run(ex, x, w, b)
    expect(y, F.layer_norm(x, (n,), w, b, EPS), 2e-5, 2e-5, "layer_norm, %d x %d" % (m, n))


@pytest.mark.checkpoint("w41.forward")
def test_forward_3d_and_strided(dev, gen):
    """A (4, 7, 129) activation, normalised over its last dimension, and a
    transposed (non-contiguous) view."""
    ex = wb_pytest.exercise("layernorm")
    x = uniform((4, 7, 129), -3, 3, gen, dev)
    w, b = params(129, gen, dev)
    expect(run(ex, x, w, b), F.layer_norm(x, (129,), w, b, EPS), 2e-5, 2e-5, "layer_norm of a (4, 7, 129) tensor")
    xt = uniform((300, 50), -3, 3, gen, dev).t()  # (50, 300) whose rows are 1 float apart: not contiguous
    w, b = params(300, gen, dev)
    expect(run(ex, xt, w, b), F.layer_norm(xt, (300,), w, b, EPS), 2e-5, 2e-5, "layer_norm of a transposed view")


@pytest.mark.checkpoint("w41.forward")
def test_forward_extremes(dev, gen):
    """Rows of U(-1e4, 1e4), a constant row (variance 0: y is bias), a row
    with one 1e4 spike, a NaN row (all NaN in torch and here), against torch
    in double."""
    ex = wb_pytest.exercise("layernorm")
    m, n = 12, 1001
    x = uniform((m, n), -5, 5, gen, dev)
    x[0] = uniform(n, -1e4, 1e4, gen, dev)
    x[1] = 3.0
    x[2, 17] = 1e4
    x[3, 500] = NAN
    x[4] = -1e4
    w, b = params(n, gen, dev)
    want = F.layer_norm(x.double(), (n,), w.double(), b.double(), EPS)
    expect(run(ex, x, w, b), want, 1e-4, 1e-4, "layer_norm with +-1e4, constant and NaN rows")


@pytest.mark.checkpoint("w41.forward")
@pytest.mark.parametrize("case", ["double", "cpu", "weight-shape"])
def test_forward_bad_inputs(case, dev, gen):
    """What the kernel cannot take is a ValueError that says so, before any launch."""
    ex = wb_pytest.exercise("layernorm")
    x = uniform((4, 8), -1, 1, gen, dev)
    w, b = params(8, gen, dev)
    if case == "double":
        x, want = x.double(), "float32"
    elif case == "cpu":
        x, want = x.cpu(), "CUDA"
    else:
        w, want = w[:7], "must be (N,)"
    with pytest.raises(ValueError) as e:
        ex.layer_norm(x, w, b, EPS)
    assert want in str(e.value), "the ValueError should say %r, it says %r" % (want, str(e.value))


# ---------------------------------------------------------------- w41.saved

@pytest.mark.checkpoint("w41.saved")
@pytest.mark.parametrize("shape", [(6, 5), (3, 11, 257), (64, 4096), (1, 1)])
def test_saved(shape, dev, gen):
    """What autograd keeps for backward: x (the input itself, not a copy),
    weight, and the per-row mean and rstd, nothing of M x N besides x; mean
    and rstd as torch.var_mean gives them; and then the given backward, which
    reads only those, yields torch's gradients."""
    ex = wb_pytest.exercise("layernorm")
    n = shape[-1]
    rows = 1
    for s in shape[:-1]:
        rows *= s
    x = uniform(shape, -4, 4, gen, dev).requires_grad_()
    w, b = params(n, gen, dev)
    w.requires_grad_()
    b.requires_grad_()
    y = run(ex, x, w, b)
    if y.grad_fn is None:
        pytest.fail("y has no grad_fn: layer_norm must go through LayerNormFn.apply", pytrace=False)
    saved = y.grad_fn.saved_tensors
    if len(saved) != 4:
        pytest.fail("the Function saved %d tensors; the backward reads 4: x, weight, mean, rstd" % len(saved),
                    pytrace=False)
    sx, sw, sm, sr = saved
    assert sx.data_ptr() == x.data_ptr() and sx.shape == x.shape, \
        "saved x is not the input (shape %s): save inputs[0] itself in setup_context" % (tuple(sx.shape),)
    assert sw.data_ptr() == w.data_ptr(), "the second saved tensor is not weight"
    assert sm.shape == (rows,) and sr.shape == (rows,), \
        "mean and rstd should be (%d,), got %s and %s" % (rows, tuple(sm.shape), tuple(sr.shape))
    var, mean = torch.var_mean(x.detach().reshape(rows, n).double(), dim=1, unbiased=False)
    expect(sm, mean, 1e-5, 1e-5, "saved mean against torch.var_mean")
    expect(sr, (var + EPS).rsqrt(), 1e-5, 2e-5, "saved rstd against 1 / sqrt(var + eps)")
    dy = uniform(shape, -1, 1, gen, dev)
    y.backward(dy)
    xr, wr, br = (t.detach().clone().requires_grad_() for t in (x, w, b))
    F.layer_norm(xr, (n,), wr, br, EPS).backward(dy)
    for got, want, name in ((x.grad, xr.grad, "dx"), (w.grad, wr.grad, "dweight"), (b.grad, br.grad, "dbias")):
        if got is None:
            pytest.fail("%s is None after y.backward(dy)" % name, pytrace=False)
        expect(got, want, 1e-4, 1e-4, "%s for %s through the given backward" % (name, tuple(shape)))


# ---------------------------------------------------------------- w41.setup-context

@pytest.mark.checkpoint("w41.setup-context")
def test_setup_context_style(dev, gen):
    """The new-style Function: forward(x, weight, bias, eps) takes no ctx, and
    setup_context(ctx, inputs, output) is the class's own."""
    import inspect
    ex = wb_pytest.exercise("layernorm")
    fn = ex.LayerNormFn
    params_ = list(inspect.signature(fn.forward).parameters)
    if params_[:1] == ["ctx"]:
        pytest.fail("LayerNormFn.forward takes ctx (the old style): forward(x, weight, bias, eps) computes, "
                    "setup_context(ctx, inputs, output) records", pytrace=False)
    if fn.setup_context is torch.autograd.Function.setup_context:
        pytest.fail("LayerNormFn does not define setup_context", pytrace=False)


@pytest.mark.checkpoint("w41.setup-context")
@pytest.mark.parametrize("shape", [(5, 33), (2, 3, 1024)])
def test_func_grad(shape, dev, gen):
    """torch.func.grad through the Function (a transform that needs the new
    style: an old-style Function is an error there) gives torch's dx."""
    ex = wb_pytest.exercise("layernorm")
    n = shape[-1]
    x = uniform(shape, -3, 3, gen, dev)
    w, b = params(n, gen, dev)
    dy = uniform(shape, -1, 1, gen, dev)
    try:
        got = torch.func.grad(lambda t: (ex.layer_norm(t, w, b, EPS) * dy).sum())(x)
    except RuntimeError as e:
        pytest.fail("torch.func.grad through LayerNormFn: %s" % str(e).strip().splitlines()[0][:300], pytrace=False)
    want = torch.func.grad(lambda t: (F.layer_norm(t.double(), (n,), w.double(), b.double(), EPS) * dy).sum())(x)
    expect(got, want, 1e-4, 1e-4, "torch.func.grad's dx for %s" % (tuple(shape),))


# ---------------------------------------------------------------- w41.non-differentiable

@pytest.mark.checkpoint("w41.non-differentiable")
@pytest.mark.parametrize("shape", [(6, 5), (3, 7, 129)])
def test_non_differentiable(shape, dev, gen):
    """LayerNormFn.apply gives (y, mean, rstd); with inputs that require grad, y
    requires grad and mean and rstd do not (ctx.mark_non_differentiable): no
    gradient can flow back through a statistic by mistake; they are still the
    rows' mean and 1 / sqrt(var + eps), and y's gradient is unchanged."""
    ex = wb_pytest.exercise("layernorm")
    n = shape[-1]
    x_rows = 1
    for s in shape[:-1]:
        x_rows *= s
    x = uniform(shape, -4, 4, gen, dev).requires_grad_()
    w, b = params(n, gen, dev)
    w.requires_grad_()
    poison_allocator(x.numel(), dev)
    out = ex.LayerNormFn.apply(x, w, b, EPS)
    if not isinstance(out, tuple) or len(out) != 3:
        pytest.fail("LayerNormFn.apply should give (y, mean, rstd), gave %s" % type(out).__name__, pytrace=False)
    y, mean, rstd = out
    if not y.requires_grad:
        pytest.fail("y does not require grad", pytrace=False)
    for t, name in ((mean, "mean"), (rstd, "rstd")):
        if t.requires_grad:
            pytest.fail("%s requires grad: mark it non-differentiable (ctx.mark_non_differentiable in "
                        "setup_context)" % name, pytrace=False)
        if t.shape != (x_rows,):
            pytest.fail("%s has shape %s, want (%d,)" % (name, tuple(t.shape), x_rows), pytrace=False)
    var, m = torch.var_mean(x.detach().reshape(x_rows, n).double(), dim=1, unbiased=False)
    expect(mean, m, 1e-5, 1e-5, "mean")
    expect(rstd, (var + EPS).rsqrt(), 1e-5, 2e-5, "rstd")
    dy = uniform(shape, -1, 1, gen, dev)
    (gx,) = torch.autograd.grad((y * dy).sum() + mean.sum() + rstd.sum(), (x,))
    xr = x.detach().clone().requires_grad_()
    (want,) = torch.autograd.grad((F.layer_norm(xr, (n,), w, b, EPS) * dy).sum(), (xr,))
    expect(gx, want, 1e-4, 1e-4, "dx of a loss that adds mean and rstd (they carry no gradient)")


# ---------------------------------------------------------------- w41.forward-speed

def forward_figure(ex, m, n, gen, dev):
    """The Function's forward on one (m, n) FP32 input against a device-to-device
    copy of x (COPY: the same bytes, x read and y written, 2 * m * n * 4 a call;
    weight, bias, mean and rstd are below 0.1 %), F.layer_norm timed beside it."""
    x = uniform((m, n), -4, 4, gen, dev)
    w, b = params(n, gen, dev)
    box = [None]

    def mine():
        box[0] = ex.layer_norm(x, w, b, EPS)

    def verify():
        if box[0] is None:
            return "no output"
        return wb_pytest.mismatch(box[0], F.layer_norm(x, (n,), w, b, EPS), 2e-5, 2e-5)

    def fresh():
        x.copy_(uniform((m, n), -4, 4, gen, dev))
        box[0] = None
        poison_allocator(m * n, dev)

    return wb_bench.measure(mine, wb_bench.copy_yard(x), work=2 * m * n * 4, unit="GB/s", yard="COPY",
                            verify=verify, fresh=fresh, name="%d x %d" % (m, n),
                            beside=[("F.layer_norm", lambda: F.layer_norm(x, (n,), w, b, EPS))])


@pytest.mark.checkpoint("w41.forward-speed")
def test_forward_speed(dev, gen, speed):
    """Judged at 8192 x 4096 (256 MiB moved a call, five times the L2) against COPY; F.layer_norm and
    4096 x 8192 printed beside it."""
    wb_pytest.need_compiled()
    ex = wb_pytest.exercise("layernorm")
    side = forward_figure(ex, 4096, 8192, gen, dev)
    speed.note("%s (printed, not judged)%s" % (side["detail"], " INVALID: " + side["invalid"] if side["invalid"] else ""))
    fig = forward_figure(ex, 8192, 4096, gen, dev)
    speed.record(fig)
    binding_alone(ex, 8192, 4096, fig, gen, dev, speed)


def binding_alone(ex, m, n, fig, gen, dev, speed):
    """Printed, not judged: the extension's forward called directly (no
    Function, no checks in Python), timed and verified as the figure was, so
    the gap between the two is what the Python around the kernel costs."""
    try:
        fwd = ex.ext().forward
        x = uniform((m, n), -4, 4, gen, dev)
        w, b = params(n, gen, dev)
        t, _ = wb_bench.time_ms(lambda: fwd(x, w, b, EPS))
        why = wb_pytest.mismatch(fwd(x, w, b, EPS)[0], F.layer_norm(x, (n,), w, b, EPS), 2e-5, 2e-5)
    except Exception as e:  # the learner's module may not have written it yet: no note is no loss
        speed.note("the binding alone, %d x %d: not timed (%s)" % (m, n, str(e).splitlines()[0][:160] if str(e) else
                                                                   type(e).__name__))
        return
    t_fn = 2 * m * n * 4 / (fig["value"] * 1e9) * 1e3
    speed.note("the binding alone, %d x %d: %.4f ms, %.4g GB/s, against %.4f ms through the Function (printed, "
               "not judged)%s" % (m, n, t, 2 * m * n * 4 / (t * 1e-3) / 1e9, t_fn, " INVALID: " + why if why else ""))
