"""wb_results.py — the workbook's results record, written from Python.

Phase 7's weeks test their PyTorch and Triton glue with pytest. Their
checkpoints are recorded, graded and counted like every other week's
because the Python side writes the same file the C harness writes: the
format is defined once, in common/include/wb_results.h, and read by one
reader (common/src/wb_results.c). This module is only a writer.

    from wb_results import Result, write
    write(path, [Result(week="phase7/week41", id="w41.forward", status="pass",
                        value=812.0, unit="GB/s", yard="TORCH", yard_value=790.0,
                        target=1.0, seed=20261122, gpu="NVIDIA H100 80GB HBM3",
                        tests=3, detail="812 GB/s vs TORCH 790 GB/s")])

A skipped checkpoint says why in `reason` ("nogpu", "notselected" or "env");
a pass ("-") and a fail ("code") take theirs from the status.

The standard library only: it must run where torch is absent.
"""

import math
import os
import tempfile

MAGIC = "#wb-results 2"
COLUMNS = ("week", "checkpoint", "status", "reason", "value", "unit", "yardstick", "yard_value", "ratio", "target",
           "seed", "gpu", "tests", "failed", "skipped", "detail", "message")
STATUSES = ("pass", "fail", "skip")
# The reasons each status takes (wb_results.h): a pass needs none, a fail is
# the code's, a skip says which of these kept the checkpoint from running.
REASONS = {"pass": ("-",), "fail": ("code",), "skip": ("nogpu", "notselected", "env")}


class Result:
    """One checkpoint's record (the fields of wb_result in wb_results.h)."""

    def __init__(self, week, id, status, value=None, unit="", yard="", yard_value=None, ratio=None,
                 target=None, seed=0, gpu="", tests=0, failed=0, skipped=0, detail="", message="", reason=None):
        if status not in STATUSES:
            raise ValueError("status must be one of %s, not %r" % (STATUSES, status))
        if not id:
            raise ValueError("a record needs a checkpoint id")
        if reason is None and status != "skip":
            reason = REASONS[status][0]
        if reason not in REASONS[status]:
            raise ValueError("a %s takes reason %s, not %r" % (status, " or ".join(REASONS[status]), reason))
        if ratio is None and value is not None and yard_value:
            ratio = value / yard_value
        self.fields = (week, id, status, reason, value, unit, yard, yard_value, ratio, target, int(seed), gpu,
                       int(tests), int(failed), int(skipped), detail, message)

    def get(self, column):
        """The field under `column` (a name of COLUMNS)."""
        return self.fields[COLUMNS.index(column)]


def _text(s):
    s = "" if s is None else str(s)
    s = s.replace("\t", " ").replace("\r", " ").replace("\n", " ")
    return s if s else "-"


def _num(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return repr(float(v))  # the shortest text that reads back as the same double


def _line(r):
    (week, id, status, reason, value, unit, yard, yard_value, ratio, target, seed, gpu, tests, failed, skipped,
     detail, message) = r.fields
    if seed < 0:
        raise ValueError("a seed is a non-negative integer")
    return "\t".join([_text(week), _text(id), status, reason, _num(value), _text(unit), _text(yard), _num(yard_value),
                      _num(ratio), _num(target if target and target > 0 else None), str(seed), _text(gpu),
                      str(tests), str(failed), str(skipped), _text(detail), _text(message)]) + "\n"


HEADER = MAGIC + "\n" + "\t".join(COLUMNS) + "\n"


def _write_whole(path, head, results):
    """`head` then a line per record into a temporary file beside `path`,
    renamed over it: a reader sees the old file or the new one, never half."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(head + "".join(_line(r) for r in results))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write(path, results):
    """Write the whole record: a temporary file beside `path`, renamed over it."""
    _write_whole(path, HEADER, results)


def append(path, results):
    """Add records to the record at `path` (the C test's, when the week has
    one), or start it: the old lines are kept as they are, and the whole file
    is written beside it and renamed over it."""
    old = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
        if old and not old.startswith(MAGIC + "\n"):
            raise ValueError("%s is not a results record (its first line is not %r)" % (path, MAGIC))
    if not old:
        old = HEADER
    elif not old.endswith("\n"):
        old += "\n"
    _write_whole(path, old, results)


def ids_in(path):
    """The checkpoint ids the record at `path` holds (none when it is absent)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return [ln.split("\t")[1] for ln in lines[2:] if ln.count("\t") >= 1]
