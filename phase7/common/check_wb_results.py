"""check_wb_results.py — the Python writer's record is one the C reader takes.

Run by `make test` (tests/python.sh) with the path of the workbook's `wb` tool:
writes a record with every kind of field from Python, then has `wb results`
(the C reader, common/src/wb_results.c) read it back, and checks what it
read; then checks that the reason a skip carries is the one the C reader's
users act on (`wb report` counts "notselected" apart from other skips).
Exit 0 when they agree; prints what differs otherwise.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wb_results import Result, write  # noqa: E402


def reasons_agree(wb, folder):
    """The reason column, written from Python: each reason in its place and
    read by the C reader as written. "" when they agree, else what differs."""
    path = os.path.join(folder, "reasons.tsv")
    recs = [Result("phase0/week01", "w01.devquery", "pass", tests=1),
            Result("phase0/week01", "w01.vecadd", "fail", tests=1, failed=1, message="wrong"),
            Result("phase0/week01", "w01.nogpu", "skip", reason="nogpu", skipped=1, message="no NVIDIA GPU here"),
            Result("phase0/week01", "w01.other", "skip", reason="notselected", skipped=1,
                   message="not selected (CK_RUN_CASE=w01.devquery)"),
            Result("phase0/week01", "w01.env", "skip", reason="env", skipped=1, message="gnuplot is not installed")]
    write(path, recs)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    got = [ln.split("\t")[2:4] for ln in lines[2:]]
    want = [["pass", "-"], ["fail", "code"], ["skip", "nogpu"], ["skip", "notselected"], ["skip", "env"]]
    if lines[1].split("\t")[3] != "reason" or got != want:
        return "status and reason columns %s, want %s (header %r)" % (got, want, lines[1])
    out = subprocess.run([wb, "results", path, ""], capture_output=True, text=True)
    if out.returncode != 0 or len(out.stdout.splitlines()) != len(recs):
        return "the C reader refused the reasons: %s" % (out.stdout + out.stderr).strip()
    # `wb report` tells a checkpoint CK_RUN_CASE left out from one that could not run here
    write(path, recs[:1] + recs[3:4])
    out = subprocess.run([wb, "report", path, "phase0/week01"], capture_output=True, text=True)
    if "1 not selected (CK_RUN_CASE)" not in out.stdout:
        return "a notselected skip, as `wb report` read it: %s" % (out.stdout + out.stderr).strip()
    write(path, recs[:1] + recs[2:3])
    out = subprocess.run([wb, "report", path, "phase0/week01"], capture_output=True, text=True)
    if "could not run here (no NVIDIA GPU here)" not in out.stdout:
        return "a nogpu skip, as `wb report` read it: %s" % (out.stdout + out.stderr).strip()
    # a reason that does not go with the status is never written
    for status, reason in (("pass", "env"), ("fail", "nogpu"), ("skip", "-"), ("skip", "code"), ("skip", None),
                           ("skip", "no-gpu")):
        try:
            Result("w", "w01.x", status, reason=reason)
        except ValueError:
            continue
        return "a %s with reason %r was accepted" % (status, reason)
    return ""


def main(wb):
    with tempfile.TemporaryDirectory(prefix="wb-py-results-") as folder:  # removed however the check ends
        return check(wb, folder)


def check(wb, folder):
    path = os.path.join(folder, "results.tsv")
    write(path, [
        Result("phase7/week41", "w41.forward", "pass", value=3027.4, unit="GB/s", yard="TORCH",
               yard_value=2957.0, target=1.0, seed=20261122, gpu="NVIDIA H100 80GB HBM3", tests=3,
               detail="3027 GB/s vs TORCH 2957 GB/s"),
        Result("phase7/week41", "w41.layernorm", "fail", seed=20261122, gpu="NVIDIA H100", tests=4, failed=1,
               message="test_layernorm.py:40: max error 3e-2\tat row 7\n(tolerance 1e-3)"),
        Result("phase7/week41", "w41.bad-input", "skip", seed=20261122, skipped=2, reason="env",
               message="torch is not installed here"),
    ])
    out = subprocess.run([wb, "results", path, "> "], capture_output=True, text=True)
    lines = out.stdout.splitlines()
    want = [
        "> PASS  w41.forward            1.024 of TORCH (3027 GB/s vs TORCH 2957 GB/s)",
        "> FAIL  w41.layernorm          test_layernorm.py:40: max error 3e-2 at row 7 (tolerance 1e-3)",
        "> SKIP  w41.bad-input          torch is not installed here",
    ]
    if out.returncode != 0 or lines != want:
        print("the C reader did not read the Python record as written:")
        print("  exit %d, stderr: %s" % (out.returncode, out.stderr.strip()))
        for w, g in zip(want, lines + [""] * len(want)):
            print("  want: %s\n  got:  %s" % (w, g))
        return 1
    for bad in ("pass", "PASS"):
        try:
            Result("w", "", bad)
        except ValueError:
            continue
        print("a record with no checkpoint id was accepted")
        return 1
    why = reasons_agree(wb, folder)
    if why:
        print("the reason field, Python writer and C reader: " + why)
        return 1
    print("Python writer, C reader: %d records agree" % len(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/wb"))
