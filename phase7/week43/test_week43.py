"""Week 43's checkpoints: Triton kernels against torch on the same GPU.

Run by `make phase7/week43 check` (phase7/common/wb_pyrun.py, with the
workbook's pytest plugin phase7/common/wb_pytest.py): never by hand. The
exercise files come from the folder under test (your week folder, the
reference, or the untouched starter) through wb_pytest.exercise(name).
Where torch or triton cannot be imported, or torch sees no GPU, every
checkpoint is SKIP with the reason.
"""

import pytest

import wb_bench
import wb_pytest

torch = wb_pytest.need("torch")
triton = wb_pytest.need("triton")

NAN = float("nan")


def uniform(shape, lo, hi, gen, dev):
    return torch.rand(shape, generator=gen, device=dev) * (hi - lo) + lo


# ---------------------------------------------------------------- w43.add

ADD_SIZES = [0, 1, 3, 1000, 1024, 1025, 98317, 1 << 24]


@pytest.mark.checkpoint("w43.add")
@pytest.mark.parametrize("n", ADD_SIZES)
def test_add_sizes(n, dev, gen):
    ex = wb_pytest.exercise("add")
    x, y = uniform(n, -1, 1, gen, dev), uniform(n, -1, 1, gen, dev)
    out = wb_pytest.Out((n,), dev)
    ex.add(x, y, out.t)
    out.expect(x + y, 0, 0, "add, n=%d" % n)


@pytest.mark.checkpoint("w43.add")
@pytest.mark.parametrize("n", [1, 4097, 100003])
def test_add_misaligned(n, dev, gen):
    """Views that start 4, 12 and 4 bytes past an aligned address: Triton
    specialises on 16-byte alignment and must still be right without it."""
    ex = wb_pytest.exercise("add")
    xb, yb = uniform(n + 1, -1, 1, gen, dev), uniform(n + 3, -1, 1, gen, dev)
    x, y = xb[1:], yb[3:]
    out = wb_pytest.Out((n,), dev, lead=1)
    ex.add(x, y, out.t)
    out.expect(x + y, 0, 0, "add on misaligned views, n=%d" % n)


# ---------------------------------------------------------------- w43.fused

FUSED_SHAPES = [(1, 1), (3, 5), (127, 1000), (64, 4097), (1024, 4096), (0, 7)]


@pytest.mark.checkpoint("w43.fused")
@pytest.mark.parametrize("m,n", FUSED_SHAPES)
def test_fused_shapes(m, n, dev, gen):
    ex = wb_pytest.exercise("fused")
    x, b = uniform((m, n), -8, 8, gen, dev), uniform(n, -2, 2, gen, dev)
    out = wb_pytest.Out((m, n), dev)
    ex.bias_silu(x, b, out.t)
    out.expect(torch.nn.functional.silu(x + b), 1e-6, 1e-5, "bias + SiLU, %d x %d" % (m, n))


@pytest.mark.checkpoint("w43.fused")
def test_fused_extremes(dev, gen):
    """+-1e4 (exp overflows to inf: the result must still be 1e4 and -0) and NaN, which torch propagates."""
    ex = wb_pytest.exercise("fused")
    m, n = 33, 257
    x, b = uniform((m, n), -8, 8, gen, dev), uniform(n, -2, 2, gen, dev)
    x[0, :50] = 1e4
    x[1, :50] = -1e4
    x[2, 7] = NAN
    b[9] = NAN
    out = wb_pytest.Out((m, n), dev)
    ex.bias_silu(x, b, out.t)
    out.expect(torch.nn.functional.silu(x + b), 1e-6, 1e-5, "bias + SiLU with +-1e4 and NaN")


# ---------------------------------------------------------------- w43.softmax

SOFTMAX_SHAPES = [(1, 1), (7, 1), (5, 3), (1, 1000), (33, 1024), (17, 1025), (256, 4096), (8, 8191), (0, 64),
                  (3, 0)]


@pytest.mark.checkpoint("w43.softmax")
@pytest.mark.parametrize("m,n", SOFTMAX_SHAPES)
def test_softmax_shapes(m, n, dev, gen):
    ex = wb_pytest.exercise("softmax")
    x = uniform((m, n), -5, 5, gen, dev)
    out = wb_pytest.Out((m, n), dev)
    ex.softmax(x, out.t)
    out.expect(torch.softmax(x, dim=1), 1e-6, 1e-5, "softmax, %d x %d" % (m, n))


@pytest.mark.checkpoint("w43.softmax")
def test_softmax_strided(dev, gen):
    """Rows 13 elements apart in memory beyond their length: the row stride is not the row length."""
    ex = wb_pytest.exercise("softmax")
    big = uniform((65, 1013), -5, 5, gen, dev)
    x = big[:, :1000]
    out = wb_pytest.Out((65, 1000), dev)
    ex.softmax(x, out.t)
    out.expect(torch.softmax(x, dim=1), 1e-6, 1e-5, "softmax of a strided 65 x 1000 view")


@pytest.mark.checkpoint("w43.softmax")
def test_softmax_extremes(dev, gen):
    """+-1e4 (exp without the max subtracted overflows) and a NaN (its row is NaN in torch)."""
    ex = wb_pytest.exercise("softmax")
    x = uniform((9, 777), -5, 5, gen, dev)
    x[0, 5] = 1e4
    x[1, :] = -1e4
    x[1, 400] = -1e4 + 3
    x[2, 100] = NAN
    x[3, 776] = 1e4
    out = wb_pytest.Out((9, 777), dev)
    ex.softmax(x, out.t)
    out.expect(torch.softmax(x, dim=1), 1e-6, 1e-5, "softmax with +-1e4 and NaN")


# ---------------------------------------------------------------- w43.softmax-speed

def softmax_figure(ex, m, n, gen, dev):
    """The learner's softmax on one (m, n) FP32 input against a device-to-device copy of x (COPY: the same
    2 * m * n * 4 bytes a call), torch.softmax timed beside it."""
    x = uniform((m, n), -4, 4, gen, dev)
    out = torch.full((m, n), NAN, device=dev)

    def verify():
        return wb_pytest.mismatch(out, torch.softmax(x, dim=1), 1e-6, 1e-5)

    def fresh():
        x.copy_(uniform((m, n), -4, 4, gen, dev))
        out.fill_(NAN)

    return wb_bench.measure(lambda: ex.softmax(x, out), wb_bench.copy_yard(x), work=2 * m * n * 4, unit="GB/s",
                            yard="COPY", verify=verify, fresh=fresh, name="%d x %d" % (m, n),
                            beside=[("torch.softmax", lambda: torch.softmax(x, dim=1))])


@pytest.mark.checkpoint("w43.softmax-speed")
def test_softmax_speed(dev, gen, speed):
    """Judged at 8192 x 4096 (256 MiB moved a call, five times the L2) against COPY; torch.softmax and
    32768 x 1024 are printed beside it."""
    wb_pytest.need_compiled()
    ex = wb_pytest.exercise("softmax")
    side = softmax_figure(ex, 32768, 1024, gen, dev)
    speed.note("%s (printed, not judged)%s" % (side["detail"], " INVALID: " + side["invalid"] if side["invalid"] else ""))
    speed.record(softmax_figure(ex, 8192, 4096, gen, dev))
