"""check_wb_results.py — the Python writer's record is one the C reader takes.

Run by `make test` (tests/python.sh) with the path of the workbook's `wb` tool:
writes a record with every kind of field from Python, then has `wb results`
(the C reader, common/src/wb_results.c) read it back, and checks what it
read. Exit 0 when they agree; prints what differs otherwise.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wb_results import Result, write  # noqa: E402


def main(wb):
    folder = tempfile.mkdtemp(prefix="wb-py-results-")
    path = os.path.join(folder, "results.tsv")
    write(path, [
        Result("phase7/week41", "w41.forward", "pass", value=3027.4, unit="GB/s", yard="TORCH",
               yard_value=2957.0, target=1.0, seed=20261122, gpu="NVIDIA H100 80GB HBM3", tests=3,
               detail="3027 GB/s vs TORCH 2957 GB/s"),
        Result("phase7/week41", "w41.layernorm", "fail", seed=20261122, gpu="NVIDIA H100", tests=4, failed=1,
               message="test_layernorm.py:40: max error 3e-2\tat row 7\n(tolerance 1e-3)"),
        Result("phase7/week41", "w41.bad-input", "skip", seed=20261122, skipped=2,
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
    print("Python writer, C reader: %d records agree" % len(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/wb"))
