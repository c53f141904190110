"""wb_bench.py — timing for Phase 7's speed checkpoints, as common/src/wb_bench.c times.

    fig = wb_bench.measure(lambda: ex.softmax(x, out), lambda: torch.softmax(x, dim=1),
                           work=2 * x.numel() * 4, unit="GB/s", yard="TORCH",
                           verify=check_out, fresh=new_inputs)
    speed.record(fig)    # the wb_pytest fixture: the plugin judges it against week.txt's target

time_ms: warm-up runs, then WB_BENCH_SAMPLES (20) samples, each timed with
CUDA events on the current stream after the L2 is flushed (a write of twice
its size, at least 64 MiB), queued back to back with one wait at the end,
the median kept. measure: times the code and the
yardstick on the same data in the same run, then verifies the timed output
(`verify()` returns None, or what is wrong), then runs once more on fresh
inputs (`fresh()` refills the inputs and poisons the output) and verifies
that too, so code that skips work it has done before gets no figure. A
wrong output makes the figure invalid: the plugin fails the checkpoint.

The yardstick of a memory-bound checkpoint is COPY: copy_yard(x) copies x
into a tensor of its own, one device-to-device cudaMemcpyAsync (torch's
copy_ of a contiguous tensor of the same dtype), as common/src/wb_bench.c's
wb_yard_copy_gbps does. A library that is not the gate (torch.softmax where
COPY judges) goes in `beside`: timed after the yardstick in the same run,
its figure and the code's ratio to it printed in the detail, never judged.

torch is imported inside the functions: this module loads where torch is
absent (py_compile, the runner).
"""

import os
import statistics

_FLUSH = None


def _flush_buffer():
    global _FLUSH
    import torch
    if _FLUSH is None:
        l2 = getattr(torch.cuda.get_device_properties(torch.cuda.current_device()), "L2_cache_size", 0) or (50 << 20)
        _FLUSH = torch.empty(max(2 * l2, 64 << 20), dtype=torch.uint8, device="cuda")
    return _FLUSH


def samples():
    try:
        n = int(os.environ.get("WB_BENCH_SAMPLES", "0"))
    except ValueError:
        n = 0
    return n if n > 0 else 20


def time_ms(fn, warmup=3, flush=True):
    """The median time of fn() in milliseconds, and every sample.

    The samples are queued back to back and the host waits once, at the end
    (as triton.testing.do_bench does): while the GPU runs one sample's flush
    and call, Python is already launching the next. Waiting after every
    sample would leave the GPU idle at each start event until Python's
    launch path (an autotuner, an autograd Function) reached the kernel, and
    that host time would be counted as the kernel's."""
    import torch
    buf = _flush_buffer() if flush else None
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    n = samples()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    stops = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    for i in range(n):
        if buf is not None:
            buf.fill_(i & 0xFF)
        starts[i].record()
        fn()
        stops[i].record()
    torch.cuda.synchronize()  # work on another stream than the events' shows up here, not as a figure
    ms = [a.elapsed_time(b) for a, b in zip(starts, stops)]
    return statistics.median(ms), ms


def copy_yard(src):
    """The COPY yardstick for src's bytes: a function that copies src into a
    contiguous tensor of its own (device to device, read + write). A
    checkpoint's `work` then counts the bytes a copy of src moves."""
    import torch
    if not src.is_contiguous():
        raise ValueError("copy_yard: src must be contiguous (a strided copy is a kernel, not cudaMemcpy)")
    dst = torch.empty_like(src)
    return lambda: dst.copy_(src)


def measure(fn, yard_fn, work, unit, yard, verify, fresh=None, name="", beside=()):
    """Time fn and the yardstick yard_fn (same data, same run; the yardstick
    before and after fn, the faster of the two). `work` is
    the bytes moved (unit GB/s) or flops done (unit TFLOP/s) by one call.
    `beside`: (label, function) pairs timed after the yardstick, printed
    with the code's ratio to each, not judged. Returns the figure as a dict:
    value, unit, yard, yard_value, ratio, detail, invalid ("" when the
    output was right), beside (label, value, ratio of the code to it)."""
    scale = 1e9 if unit == "GB/s" else 1e12 if unit == "TFLOP/s" else None
    if scale is None:
        raise ValueError("unit must be GB/s or TFLOP/s, not %r" % unit)
    # the yardstick is timed before the code and again after it, and its
    # faster time is the one used: a slow moment of the GPU (seen once on the
    # H100, a copy at 0.65 of its usual speed) cannot lend the code a ratio
    ty0, _ = time_ms(yard_fn)
    t, _ = time_ms(fn)
    invalid = verify() or ""
    if not invalid and fresh is not None:
        fresh()
        fn()
        invalid = verify() or ""
        if invalid:
            invalid = "on fresh inputs: " + invalid
    ty = min(ty0, time_ms(yard_fn)[0])
    value = work / (t * 1e-3) / scale
    yard_value = work / (ty * 1e-3) / scale
    ratio = value / yard_value
    detail = "%s%.4g %s (%.4f ms) vs %s %.4g %s (%.4f ms)" % (name + ": " if name else "", value, unit, t, yard,
                                                            yard_value, unit, ty)
    rows = []
    for label, other in beside:
        to, _ = time_ms(other)
        rows.append({"label": label, "value": work / (to * 1e-3) / scale, "ratio": to / t})
        detail += "; %s %.4g %s (%.4f ms), %.3f of it (printed, not judged)" % (label, rows[-1]["value"], unit, to,
                                                                               rows[-1]["ratio"])
    return {"value": value, "unit": unit, "yard": yard, "yard_value": yard_value, "ratio": ratio,
            "detail": detail, "invalid": invalid, "beside": rows}
