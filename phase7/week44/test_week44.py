"""Week 44's checkpoints: an autotuned Triton matmul and a Triton LayerNorm,
against torch on the same GPU, the table of when the Triton LayerNorm,
torch's and week 31's CUDA kernel win, and a fused attention forward against
torch's scaled_dot_product_attention (its cuDNN or flash backend, forced and
named).

Run by `make phase7/week44 check` (phase7/common/wb_pyrun.py, with the
workbook's pytest plugin phase7/common/wb_pytest.py): never by hand. The
exercise files come from the folder under test (your week folder, the
reference, or the untouched starter) through wb_pytest.exercise(name).
Week 31's kernel is built from phase6/week31 (its reference where this copy
of the workbook has one, else your own layernorm.cu) with this week's
support/ln31_binding.cu, by wb_ext. Where torch or triton cannot be
imported, or torch sees no GPU, every checkpoint is SKIP with the reason.

Under TRITON_INTERPRET=1 the matmul and the attention run on FP32 tensors:
the interpreter computes on the CPU with numpy, which has no BF16.
"""

import math
import os

import pytest

import wb_bench
import wb_ext
import wb_pytest

torch = wb_pytest.need("torch")
triton = wb_pytest.need("triton")
F = torch.nn.functional

NAN = float("nan")
HERE = os.path.dirname(os.path.abspath(__file__))


def uniform(shape, lo, hi, gen, dev, dtype=None):
    x = torch.rand(shape, generator=gen, device=dev) * (hi - lo) + lo
    return x if dtype is None else x.to(dtype)


# ---------------------------------------------------------------- w44.matmul

def mm_dtype():
    """BF16, as the issue asks; FP32 under the interpreter (numpy has no BF16)."""
    return torch.float32 if wb_pytest.interpreted() else torch.bfloat16


# The output is rounded to BF16 once (a relative error of at most 2^-9);
# the FP32 sums differ from the reference's only in their order, far below
# that. rtol 2^-8 allows both; atol covers sums that cancel to near 0. A
# K-block skipped or counted twice moves an element by about 1.
MM_ATOL, MM_RTOL = 1e-2, 1.0 / 256

MM_SHAPES = [(1, 1, 1), (2, 3, 4), (17, 33, 70), (127, 255, 1000), (64, 64, 64), (3, 5, 0), (0, 7, 5),
             (1000, 1030, 1100)]


def mm_reference(a, b):
    """a @ b summed in FP32 (FP64 on the CPU) from the same rounded inputs."""
    if a.is_cuda:
        return a.float() @ b.float()
    return a.double() @ b.double()


def check_matmul(ex, a, b, what):
    m, n = a.shape[0], b.shape[1]
    out = wb_pytest.Out((m, n), a.device, dtype=a.dtype)
    ex.matmul(a, b, out.t)
    out.expect(mm_reference(a, b), MM_ATOL, MM_RTOL, what)


@pytest.mark.checkpoint("w44.matmul")
@pytest.mark.parametrize("m,n,k", MM_SHAPES)
def test_matmul_shapes(m, n, k, dev, gen):
    """Odd M, N, K; K not a multiple of any BLOCK_K; 1 x 1 x 1; K = 0 (out is 0); M = 0."""
    ex = wb_pytest.exercise("matmul")
    dt = mm_dtype()
    a, b = uniform((m, k), -1, 1, gen, dev, dt), uniform((k, n), -1, 1, gen, dev, dt)
    check_matmul(ex, a, b, "matmul %d x %d x %d" % (m, n, k))


@pytest.mark.checkpoint("w44.matmul")
def test_matmul_strided(dev, gen):
    """b a transposed view (stride(0) == 1), a a slice of wider rows: the kernel must use the strides."""
    ex = wb_pytest.exercise("matmul")
    dt = mm_dtype()
    m, n, k = 129, 97, 300
    a = uniform((m, k + 11), -1, 1, gen, dev, dt)[:, :k]
    b = uniform((n, k), -1, 1, gen, dev, dt).t()
    check_matmul(ex, a, b, "matmul of a strided a and a transposed b, %d x %d x %d" % (m, n, k))


# ---------------------------------------------------------------- w44.matmul-speed

@pytest.mark.checkpoint("w44.matmul-speed")
def test_matmul_speed(dev, gen, speed):
    """4096^3 BF16, 2 M N K flops a call, against torch.matmul (cuBLAS) on the same tensors."""
    wb_pytest.need_compiled()
    ex = wb_pytest.exercise("matmul")
    m = n = k = 4096
    a = uniform((m, k), -1, 1, gen, dev, torch.bfloat16)
    b = uniform((k, n), -1, 1, gen, dev, torch.bfloat16)
    out = torch.full((m, n), NAN, dtype=torch.bfloat16, device=dev)

    def verify():
        return wb_pytest.mismatch(out, a.float() @ b.float(), MM_ATOL, MM_RTOL)

    def fresh():
        a.copy_(uniform((m, k), -1, 1, gen, dev))
        b.copy_(uniform((k, n), -1, 1, gen, dev))
        out.fill_(NAN)

    # the first call autotunes (every config compiled and timed): it is one of the warm-up runs
    speed.record(wb_bench.measure(lambda: ex.matmul(a, b, out), lambda: torch.matmul(a, b), work=2 * m * n * k,
                                  unit="TFLOP/s", yard="TORCH", verify=verify, fresh=fresh,
                                  name="%d x %d x %d BF16" % (m, n, k)))
    best = getattr(getattr(ex, "matmul_kernel", None), "best_config", None)
    if best is not None:
        speed.note("w44.matmul-speed: autotune chose %s" % best)


# ---------------------------------------------------------------- w44.layernorm

LN_EPS = 1e-5
LN_ATOL, LN_RTOL = 1e-5, 1e-5
LN_SHAPES = [(1, 1), (7, 1), (5, 3), (1, 1000), (33, 1024), (17, 1025), (256, 4096), (8, 8191), (4, 16384),
             (3, 20000), (0, 64), (3, 0)]


def ln_reference(x, w, b):
    """layer_norm in FP64 from the FP32 inputs."""
    n = x.shape[1]
    return F.layer_norm(x.double(), (n,), w.double(), b.double(), LN_EPS)


def ln_params(n, gen, dev):
    return uniform(n, 0.5, 1.5, gen, dev), uniform(n, -1, 1, gen, dev)


@pytest.mark.checkpoint("w44.layernorm")
@pytest.mark.parametrize("m,n", LN_SHAPES)
def test_layernorm_shapes(m, n, dev, gen):
    ex = wb_pytest.exercise("layernorm")
    x = uniform((m, n), -5, 5, gen, dev)
    w, b = ln_params(n, gen, dev)
    out = wb_pytest.Out((m, n), dev)
    ex.layernorm(x, w, b, LN_EPS, out.t)
    out.expect(ln_reference(x, w, b), LN_ATOL, LN_RTOL, "layernorm, %d x %d" % (m, n))


@pytest.mark.checkpoint("w44.layernorm")
def test_layernorm_strided(dev, gen):
    """Rows 13 elements apart in memory beyond their length: the row stride is not the row length."""
    ex = wb_pytest.exercise("layernorm")
    x = uniform((65, 1013), -5, 5, gen, dev)[:, :1000]
    w, b = ln_params(1000, gen, dev)
    out = wb_pytest.Out((65, 1000), dev)
    ex.layernorm(x, w, b, LN_EPS, out.t)
    out.expect(ln_reference(x, w, b), LN_ATOL, LN_RTOL, "layernorm of a strided 65 x 1000 view")


@pytest.mark.checkpoint("w44.layernorm")
@pytest.mark.parametrize("n", [777, 20000])
def test_layernorm_extremes(n, dev, gen):
    """Rows of U(-1e4, 1e4) (scale must not matter), a row holding a NaN and one holding -Inf
    (torch: the whole row NaN), at n = 777 (in registers) and 20000 (in chunks)."""
    ex = wb_pytest.exercise("layernorm")
    x = uniform((6, n), -5, 5, gen, dev)
    x[0] = uniform(n, -1e4, 1e4, gen, dev)
    x[1] = uniform(n, -1e4, 1e4, gen, dev)
    x[2, n // 3] = NAN
    x[4, n - 1] = -float("inf")
    w, b = ln_params(n, gen, dev)
    out = wb_pytest.Out((6, n), dev)
    ex.layernorm(x, w, b, LN_EPS, out.t)
    out.expect(ln_reference(x, w, b), LN_ATOL, LN_RTOL, "layernorm with rows of +-1e4, NaN and -Inf, n=%d" % n)


@pytest.mark.checkpoint("w44.layernorm")
@pytest.mark.parametrize("n", [777, 20000])
def test_layernorm_offset(n, dev, gen):
    """Rows of +-1e4 + U(-1, 1): the variance (1/3) is 1e-9 of the mean squared. From the deviations
    it keeps its digits; E[x^2] - mean^2 in FP32 loses all of them. The FP32 mean itself is good to a
    few steps of 1e4 (about 1e-3 each), which, divided by the std (0.58), sets atol."""
    ex = wb_pytest.exercise("layernorm")
    x = uniform((4, n), -1, 1, gen, dev)
    x[0] += 1e4
    x[1] -= 1e4
    x[2] += 1e4
    w, b = ln_params(n, gen, dev)
    out = wb_pytest.Out((4, n), dev)
    ex.layernorm(x, w, b, LN_EPS, out.t)
    out.expect(ln_reference(x, w, b), 2e-2, LN_RTOL, "layernorm of rows of +-1e4 + U(-1, 1), n=%d" % n)


# ---------------------------------------------------------------- w44.ln-table

TABLE_HIDDEN = [256, 512, 1024, 2048, 4096, 8192, 16384]
TABLE_ELEMS = 1 << 25  # x is 128 MiB of FP32 at every hidden size, y as much: 5 times the 50 MB L2


def week31_source():
    """The week-31 layernorm.cu to build, and how to name it in the table."""
    w31 = os.path.join(wb_ext.ROOT, "phase6", "week31")
    sol = os.path.join(w31, "solution", "layernorm.cu")
    if os.path.isfile(sol):
        return sol, "week 31's reference (phase6/week31/solution/layernorm.cu)"
    mine = os.path.join(w31, "layernorm.cu")
    if os.path.isfile(mine):
        return mine, "your week 31 (phase6/week31/layernorm.cu)"
    return None, "phase6/week31/layernorm.cu is not in this copy"


def week31_ext():
    """(the built extension or None, what the table's header says about it)."""
    src, label = week31_source()
    if src is None:
        return None, label
    try:
        ext = wb_ext.load("wb44_ln31", [os.path.join(HERE, "support", "ln31_binding.cu"), src],
                          include_dirs=[os.path.join(wb_ext.ROOT, "phase6", "week31")])  # layernorm.h
    except Exception as e:  # ExtBuildError, or no compiler: the column says so, the checkpoint does not fail
        return None, "%s did not build: %s" % (label, str(e).splitlines()[0] if str(e) else type(e).__name__)
    return ext, label


def gbps(rows, cols, ms):
    return 2 * rows * cols * 4 / (ms * 1e-3) / 1e9


@pytest.mark.checkpoint("w44.ln-table")
def test_ln_table(dev, gen, speed):
    """Triton vs torch vs week 31 at hidden 256 .. 16384, 128 MiB of x each: printed, not judged.
    It passes when every Triton output in it verifies, so the table means something."""
    wb_pytest.need_compiled()
    ex = wb_pytest.exercise("layernorm")
    # the table needs a right kernel: check that first, before building anything
    x = uniform((64, TABLE_HIDDEN[0]), -4, 4, gen, dev)
    w, b = ln_params(TABLE_HIDDEN[0], gen, dev)
    out = torch.full_like(x, NAN)
    ex.layernorm(x, w, b, LN_EPS, out)
    why = wb_pytest.mismatch(out, ln_reference(x, w, b), LN_ATOL, LN_RTOL)
    if why:
        pytest.fail("your layernorm is wrong (w44.layernorm says where), so the table would mean nothing: " + why,
                    pytrace=False)
    ext, label = week31_ext()
    speed.note("w44.ln-table: LayerNorm forward FP32, x of %d MiB (and y): GB/s = 8 bytes an element over the "
               "median time; week 31 = %s" % (TABLE_ELEMS * 4 >> 20, label))
    speed.note("  hidden    rows   Triton GB/s   torch GB/s   week-31 GB/s   fastest")
    wrong = []
    for n in TABLE_HIDDEN:
        m = TABLE_ELEMS // n
        x = uniform((m, n), -4, 4, gen, dev)
        w, b = ln_params(n, gen, dev)
        out = torch.full_like(x, NAN)

        def verify(y=out):
            return wb_pytest.mismatch(y, F.layer_norm(x, (n,), w, b, LN_EPS), 2 * LN_ATOL, 2 * LN_RTOL)

        def fresh():
            x.copy_(uniform((m, n), -4, 4, gen, dev))
            out.fill_(NAN)

        fig = wb_bench.measure(lambda: ex.layernorm(x, w, b, LN_EPS, out), lambda: F.layer_norm(x, (n,), w, b, LN_EPS),
                               work=2 * m * n * 4, unit="GB/s", yard="TORCH", verify=verify, fresh=fresh)
        if fig["invalid"]:
            wrong.append("hidden %d: %s" % (n, fig["invalid"]))
        cells = {"Triton": fig["value"], "torch": fig["yard_value"]}
        w31 = "-"
        if ext is not None:
            y31, mean31, rstd31 = torch.full_like(x, NAN), torch.empty(m, device=dev), torch.empty(m, device=dev)
            try:
                ms, _ = wb_bench.time_ms(lambda: ext.welford(x, w, b, LN_EPS, y31, mean31, rstd31))
                bad = verify(y31)
                if bad:
                    w31 = "wrong output"  # the untouched week-31 starter writes nothing
                else:
                    cells["week 31"] = gbps(m, n, ms)
                    w31 = "%.0f" % cells["week 31"]
            except RuntimeError as e:
                w31 = "error: %s" % str(e).splitlines()[0]
        best = max(cells, key=cells.get)
        speed.note("  %6d %7d %13.0f %12.0f %14s   %s%s" % (n, m, fig["value"], fig["yard_value"], w31, best,
                                                           "  (Triton INVALID)" if fig["invalid"] else ""))
    if wrong:
        pytest.fail("the table's Triton outputs are wrong: " + "; ".join(wrong), pytrace=False)


# ---------------------------------------------------------------- w44.attention

def at_dtypes():
    """FP16 and BF16 on the GPU; FP32 under the interpreter (numpy has no BF16)."""
    if os.environ.get("TRITON_INTERPRET", "") == "1":
        return [torch.float32]
    return [torch.float16, torch.bfloat16]


# What the kernel rounds: p to the input type before p @ v (2^-11 relative in FP16,
# 2^-8 in BF16) and the output once. An emulation of those roundings in torch (FP32
# scores from the same inputs, p rounded, FP32 sums) against FP64 needed atol 2.4e-4
# (FP16) and 1.8e-3 (BF16) at rtol 2^-10 and 2^-8 on this file's shapes; these leave
# three times that. A wrong scale, a missed tile, a causal mask off by one or a
# rescale left out move an element by 1e-2 to 1 on the ragged shapes.
AT_TOL = {torch.float16: (1e-3, 2.0 ** -9), torch.bfloat16: (6e-3, 2.0 ** -7), torch.float32: (1e-5, 1e-4)}

AT_CASES = [  # B, H, S_q, S_k, D, causal: lengths not multiples of any block
    (1, 1, 1, 1, 64, False), (1, 2, 1, 1, 128, True), (2, 3, 100, 100, 64, True), (1, 2, 257, 257, 128, True),
    (2, 2, 77, 300, 64, False), (1, 2, 129, 65, 128, False), (1, 4, 600, 600, 64, True),
    (1, 2, 1000, 1000, 128, False)]


def at_reference(q, k, v, causal, scale=None, dtype=torch.float64):
    """softmax(q k^T * scale (+ mask)) v in `dtype` from the same rounded inputs, a few heads at a time."""
    s_q, s_k, d = q.shape[2], k.shape[2], q.shape[3]
    scale = 1.0 / math.sqrt(d) if scale is None else scale
    mask = torch.ones(s_q, s_k, dtype=torch.bool, device=q.device).triu(1) if causal else None
    out = torch.empty(q.shape, dtype=dtype, device=q.device)
    for b in range(q.shape[0]):
        s = (q[b].to(dtype) @ k[b].to(dtype).transpose(-2, -1)) * scale
        if mask is not None:
            s.masked_fill_(mask, float("-inf"))
        out[b] = torch.softmax(s, dim=-1) @ v[b].to(dtype)
        del s
    return out


def at_inputs(b, h, s_q, s_k, d, dtype, gen, dev):
    q = torch.randn((b, h, s_q, d), generator=gen, device=dev).to(dtype)
    k = torch.randn((b, h, s_k, d), generator=gen, device=dev).to(dtype)
    v = torch.randn((b, h, s_k, d), generator=gen, device=dev).to(dtype)
    return q, k, v


def at_name(dtype):
    return str(dtype).split(".")[-1]


@pytest.mark.checkpoint("w44.attention")
@pytest.mark.parametrize("dt", at_dtypes(), ids=lambda t: str(t).split(".")[-1])
@pytest.mark.parametrize("case", AT_CASES, ids=lambda c: "B%d-H%d-Sq%d-Sk%d-D%d%s" % (
    c[0], c[1], c[2], c[3], c[4], "-causal" if c[5] else ""))
def test_attention_shapes(case, dt, dev, gen):
    """Ragged lengths (1, 65, 77, 100, 129, 257, 300, 600, 1000), causal and not, D 64 and 128."""
    ex = wb_pytest.exercise("attention")
    b, h, s_q, s_k, d, causal = case
    q, k, v = at_inputs(b, h, s_q, s_k, d, dt, gen, dev)
    out = wb_pytest.Out((b, h, s_q, d), dev, dtype=dt)
    ex.attention(q, k, v, out.t, causal=causal)
    out.expect(at_reference(q, k, v, causal), *AT_TOL[dt], "attention %s %s" % (case, at_name(dt)))


@pytest.mark.checkpoint("w44.attention")
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_attention_strided(causal, dev, gen):
    """q, k, v as views of (B, S, H, D) tensors (what a projection's reshape gives), out a view of
    another, and an explicit sm_scale of 0.3: the kernel must use every stride and the scale."""
    dt = at_dtypes()[-1]
    ex = wb_pytest.exercise("attention")
    b, h, s, d = 2, 3, 150, 64
    q, k, v = (torch.randn((b, s, h, d), generator=gen, device=dev).to(dt).transpose(1, 2) for _ in range(3))
    buf = torch.full((b, s, h, d), NAN, dtype=dt, device=dev)
    out = buf.transpose(1, 2)
    ex.attention(q, k, v, out, causal=causal, sm_scale=0.3)
    why = wb_pytest.mismatch(out, at_reference(q, k, v, causal, scale=0.3), *AT_TOL[dt])
    if why:
        pytest.fail("attention of strided (B, S, H, D) views, sm_scale 0.3, %s: %s"
                    % ("causal" if causal else "not causal", why), pytrace=False)


@pytest.mark.checkpoint("w44.attention")
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_attention_every_config(causal, dev, gen):
    """Every config autotune may choose, each launched directly at a ragged length: the small shapes
    above run one config (autotune's pruning), the speed checkpoints another."""
    ex = wb_pytest.exercise("attention")
    kernel = getattr(ex.attention_kernel, "fn", ex.attention_kernel)  # the JIT function under autotune
    dt = at_dtypes()[-1]
    b, h, s, d = 1, 2, 300, 128 if causal else 64
    s_k = s if causal else 333
    q, k, v = at_inputs(b, h, s, s_k, d, dt, gen, dev)
    want = at_reference(q, k, v, causal)
    from triton.runtime.errors import OutOfResources
    ran = 0
    for cfg in ex.CONFIGS:
        out = torch.full((b, h, s, d), NAN, dtype=dt, device=dev)
        grid = (triton.cdiv(s, cfg.kwargs["BLOCK_M"]), b * h)
        try:
            kernel[grid](q, k, v, out, ex.LOG2E / math.sqrt(d), *q.stride(), *k.stride(), *v.stride(),
                         *out.stride(), h, b * h, s, s_k, HEAD_DIM=d, CAUSAL=causal, num_warps=cfg.num_warps,
                         num_stages=cfg.num_stages, **cfg.kwargs)
        except OutOfResources:  # too much shared memory at this D: autotune skips it too
            continue
        ran += 1
        why = wb_pytest.mismatch(out, want, *AT_TOL[dt])
        if why:
            pytest.fail("attention with config %s, %d warps, %d stages, S %d x %d, D %d, %s: %s" % (
                cfg.kwargs, cfg.num_warps, cfg.num_stages, s, s_k, d, "causal" if causal else "not causal", why),
                pytrace=False)
    if not ran:
        pytest.fail("no config of CONFIGS fits this GPU at D %d" % d, pytrace=False)


# ---------------------------------------------------------------- w44.attention-speed, w44.attention-causal-speed

# B4 H16 S4096 D128 BF16: 4 B H S^2 D flops (q k^T and p v), half of them causal.
# The targets (week.txt) are the reference's ratios on the H200 less the workbook's
# 10 % margin: >= 0.62 of SDPA not causal (0.683, 0.688), >= 0.60 causal (0.682,
# then 0.662), against cuDNN, 2026-11-28 (README, "Why the attention's target").
AT_SPEED = dict(b=4, h=16, s=4096, d=128)


def sdpa_choice(q, k, v, causal):
    """The backend of F.scaled_dot_product_attention the yardstick forces: cuDNN's fused attention,
    else FlashAttention, whichever runs first on these tensors. Returns (name, SDPBackend)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    tried = []
    for name, be in (("cuDNN", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION)):
        try:
            with sdpa_kernel([be]):
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            torch.cuda.synchronize()
            return name, be
        except RuntimeError as e:
            tried.append("%s: %s" % (name, (str(e).strip().splitlines() or ["?"])[0][:150]))
    pytest.fail("the yardstick cannot run: neither cuDNN nor flash attention takes these tensors (%s); not your "
                "code" % "; ".join(tried), pytrace=False)


def attention_speed(causal, dev, gen, speed):
    wb_pytest.need_compiled()
    from torch.nn.attention import sdpa_kernel
    ex = wb_pytest.exercise("attention")
    s = AT_SPEED
    dt = torch.bfloat16
    q, k, v = at_inputs(s["b"], s["h"], s["s"], s["s"], s["d"], dt, gen, dev)
    out = torch.full(q.shape, NAN, dtype=dt, device=dev)
    name, be = sdpa_choice(q, k, v, causal)

    def verify():
        return wb_pytest.mismatch(out, at_reference(q, k, v, causal, dtype=torch.float32), *AT_TOL[dt])

    def fresh():
        for t in (q, k, v):
            t.copy_(torch.randn(t.shape, generator=gen, device=dev))
        out.fill_(NAN)

    work = 4 * s["b"] * s["h"] * s["s"] * s["s"] * s["d"] // (2 if causal else 1)
    label = "B%d H%d S%d D%d BF16 %s" % (s["b"], s["h"], s["s"], s["d"], "causal" if causal else "not causal")
    with sdpa_kernel([be]):  # the yardstick is this backend alone: it cannot fall back to another
        fig = wb_bench.measure(lambda: ex.attention(q, k, v, out, causal=causal),
                               lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal),
                               work=work, unit="TFLOP/s", yard="SDPA", verify=verify, fresh=fresh,
                               name=label + ", SDPA backend %s" % name)
        bad = wb_pytest.mismatch(F.scaled_dot_product_attention(q, k, v, is_causal=causal),
                                 at_reference(q, k, v, causal, dtype=torch.float32), *AT_TOL[dt])
    speed.record(fig)
    speed.note("%s: the yardstick ran F.scaled_dot_product_attention's %s backend (forced with "
               "torch.nn.attention.sdpa_kernel)%s" % (speed.cp, name,
                                                     "; its own output differs from FP32: %s" % bad if bad else ""))
    best = getattr(getattr(ex, "attention_kernel", None), "best_config", None)
    if best is not None:
        speed.note("%s: autotune chose %s" % (speed.cp, best))


@pytest.mark.checkpoint("w44.attention-speed")
def test_attention_speed(dev, gen, speed):
    """Not causal, B4 H16 S4096 D128 BF16, against SDPA (cuDNN, else flash) on the same tensors."""
    attention_speed(False, dev, gen, speed)


@pytest.mark.checkpoint("w44.attention-causal-speed")
def test_attention_causal_speed(dev, gen, speed):
    """Causal, B4 H16 S4096 D128 BF16, against SDPA (cuDNN, else flash) with is_causal=True."""
    attention_speed(True, dev, gen, speed)
