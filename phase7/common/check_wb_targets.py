"""check_wb_targets.py — the Python twin of the target parser agrees with the C one.

Run by `make test` (tests/python.sh) with the path of the workbook's `wb` tool
and no torch: wb_targets.py (the twin of wb_meta.c's wb_target_parse and
wb_target_for) is run on every case of common/tests/target_cases.tsv, the
table test_meta.c runs the C functions on; then every week's checkpoint lines,
as `wb week-info WEEK checkpoints` hands them to wb_pyrun.py, parse back to the
same default target and yardstick. Exit 0 when all agree; prints each case
that differs otherwise.
"""

import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import wb_targets  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))


def cases(path):
    bad, n_parse, n_select = [], 0, 0
    with open(path, encoding="utf-8") as f:
        for lno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            col = line.split("\t")
            where = "target_cases.tsv:%d" % lno
            if col[0] == "parse" and len(col) == 4:
                n_parse += 1
                try:
                    t, err = wb_targets.parse(col[1]), ""
                except ValueError as e:
                    t, err = None, str(e)
                if col[2] == "ok" and t is None:
                    bad.append("%s: '%s' refused: %s" % (where, col[1], err))
                elif col[2] == "ok" and t.spec() != col[3]:
                    bad.append("%s: '%s' read as '%s', expected '%s'" % (where, col[1], t.spec(), col[3]))
                elif col[2] != "ok" and t is not None:
                    bad.append("%s: '%s' accepted" % (where, col[1]))
                elif col[2] != "ok" and col[3] not in err:
                    bad.append("%s: '%s' refused with '%s', expected '%s' in it" % (where, col[1], err, col[3]))
            elif col[0] == "select" and len(col) == 5:
                n_select += 1
                dev = None if col[2] == "-" else col[2]
                v, m = wb_targets.target_for(wb_targets.parse(col[1]), dev)
                if abs(v - float(col[3])) > 1e-12 or (m or "-") != col[4]:
                    bad.append("%s: on '%s' the target is %g (%s), expected %s (%s)"
                               % (where, col[2], v, m or "-", col[3], col[4]))
            else:
                bad.append("%s: unknown case" % where)
    if n_parse < 20 or n_select < 10:
        bad.append("target_cases.tsv: only %d parse and %d select cases" % (n_parse, n_select))
    return bad, n_parse + n_select


def texts():
    """The texts for people, as wb_target_text and wb_targets_all write them
    (test_meta.c checks the same strings)."""
    t = wb_targets.parse(">= 0.89 COPY | H200 >= 0.64")
    got = [wb_targets.target_text(t, "NVIDIA H200"), wb_targets.target_text(t, "NVIDIA H100 80GB HBM3"),
           wb_targets.target_text(wb_targets.parse(">= 0.85 COPY"), "NVIDIA H200"), wb_targets.targets_all(t)]
    want = [">= 0.64 COPY (H200)", ">= 0.89 COPY (default)", ">= 0.85 COPY", ">= 0.89 COPY; H200 >= 0.64"]
    return ["texts: %r, expected %r" % (got, want)] if got != want else []


def weeks(wb):
    bad, n = [], 0
    for wt in sorted(glob.glob(os.path.join(ROOT, "phase[0-9]", "week[0-9][0-9]", "week.txt"))):
        week = os.path.relpath(os.path.dirname(wt), ROOT)
        out = subprocess.run([wb, "week-info", week, "checkpoints"], capture_output=True, text=True, cwd=ROOT)
        if out.returncode != 0:
            bad.append("`wb week-info %s checkpoints` failed: %s" % (week, out.stderr.strip()))
            continue
        for line in out.stdout.splitlines():
            cid, target, yard, spec = line.split("\t")
            if spec == "-":
                continue
            n += 1
            try:
                t = wb_targets.parse(spec)
            except ValueError as e:
                bad.append("%s %s: '%s' refused by the twin: %s" % (week, cid, spec, e))
                continue
            if t.target != float(target) or t.yard != yard or t.spec() != spec:
                bad.append("%s %s: the twin reads '%s' as %s, the C reader as %s %s"
                           % (week, cid, spec, t.spec(), target, yard))
    return bad, n


def main(argv):
    if len(argv) != 2:
        print("usage: check_wb_targets.py WB", file=sys.stderr)
        return 2
    bad, nc = cases(os.path.join(ROOT, "common", "tests", "target_cases.tsv"))
    bad += texts()
    wbad, nw = weeks(os.path.abspath(argv[1]))
    bad += wbad
    for b in bad:
        print(b)
    if bad:
        return 1
    print("%d cases of target_cases.tsv and %d targets of the weeks read alike" % (nc, nw))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
