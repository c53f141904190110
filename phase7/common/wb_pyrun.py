"""wb_pyrun.py — run a week's Python tests and add their checkpoints to the results record.

    python3 phase7/common/wb_pyrun.py WB WEEK CODE_DIR RESULTS

`make WEEK check` and `make test` run this after the week's C test (if it
has one). WB is the workbook's `wb` tool, WEEK the week folder, CODE_DIR the
folder whose exercise files are tested (the week folder for your code,
WEEK/solution for the reference, build/WEEK/starter-src for the untouched
starter), RESULTS the record the C test wrote (or none yet).

The checkpoints come from `wb week-info WEEK checkpoints` (week.txt has one
reader, the C one; a line's target fields, `>= 0.89 COPY | H200 >= 0.64`,
are read by wb_targets.py, the C parser's twin, and each record gets the
target for the GPU it names); this run judges those the record does not hold
yet. It
runs pytest in a child process with the workbook's plugin (wb_pytest.py),
which writes what it found to a file of its own; this process checks it and
appends the records to RESULTS (whole file written beside it and renamed).
A child that dies (a crash in the interpreter, os._exit, a signal) leaves
no file: every checkpoint of the run is then FAIL, never missing. Each
exercise file is compiled first (no import, no bytecode): one that does not
compile makes every checkpoint of the run FAIL, naming its line, whatever
is installed. Where pytest cannot be imported every checkpoint is SKIP with
the reason.

The standard library only: it must run where torch and pytest are absent.
Exit status: 0 when no checkpoint failed, 1 when one did, 2 on a usage error.
"""

import glob
import importlib.util
import json
import os
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from wb_results import Result, append, ids_in  # noqa: E402
import wb_targets  # noqa: E402

DEFAULT_SEED = 20261122  # WB_DEFAULT_SEED, common/include/wb_rand.h
MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}


def base_seed():
    """The run's seed as the C harness settles it: WB_SEED (decimal, or
    'random' for a fresh one), else the fixed default."""
    e = os.environ.get("WB_SEED", "")
    if not e:
        return DEFAULT_SEED
    if e == "random":
        return int.from_bytes(os.urandom(8), "little") % 1000000007
    if not all(c in "0123456789" for c in e) or len(e) > 20 or int(e) > 2 ** 64 - 1:
        raise ValueError("WB_SEED='%s' is not a seed: give a decimal number (0 to 18446744073709551615) or 'random'"
                         % e)
    return int(e)


def checkpoints(wb, week):
    out = subprocess.run([wb, "week-info", week, "checkpoints"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("`%s week-info %s checkpoints` failed: %s" % (wb, week, out.stderr.strip()))
    cps = []
    for line in out.stdout.splitlines():
        cid, target, yard, spec = line.split("\t")
        if spec != "-":
            try:
                wb_targets.parse(spec)
            except ValueError as e:  # the C reader took it: the twin disagrees
                raise RuntimeError("%s %s: wb_targets.py refuses '%s', which wb read: %s" % (week, cid, spec, e))
        # [id, default target or None, yardstick or "", every target field or ""]
        cps.append([cid, None if target == "-" else float(target), "" if yard == "-" else yard,
                    "" if spec == "-" else spec])
    return cps


def targets_of(spec):
    return wb_targets.parse(spec) if spec else None


def pyexercises(wb, week):
    out = subprocess.run([wb, "week-info", week, "pyexercises"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("`%s week-info %s pyexercises` failed: %s" % (wb, week, out.stderr.strip()))
    return [line for line in out.stdout.split() if line]


def compile_error(path):
    """None when PATH compiles as Python, else its error in one line (file,
    line, what), with the offending line and a caret printed for people.
    Nothing is imported and no bytecode is written: torch is not needed, so
    a syntax error is a FAIL even where the checkpoints would be SKIP."""
    try:
        with open(path, "rb") as f:
            compile(f.read(), path, "exec", dont_inherit=True)
    except SyntaxError as e:  # IndentationError and TabError are SyntaxErrors
        text = (e.text or "").rstrip("\n")
        print("%s:%s: %s: %s" % (path, e.lineno, type(e).__name__, e.msg))
        if text:
            print("    " + text)
            if e.offset:
                print("    " + " " * max(e.offset - 1, 0) + "^")
        return "%s does not compile (line %s: %s)" % (path, e.lineno, e.msg)
    except (OSError, ValueError) as e:  # unreadable, or a NUL byte in the source
        return "%s cannot be read as Python: %s" % (path, e)
    return None


def how_it_ended(rc):
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "signal %d" % -rc
        return "killed by %s%s" % (name, ", a segmentation fault" if -rc == signal.SIGSEGV else "")
    return "exit status %d" % rc


def run_pytest(week, code, tests, owned, known, seed, out, log):
    env = dict(os.environ)
    env.update(MULTICAST_OFF)
    env["PYTHONPATH"] = HERE + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ in the week folder
    env["WB_PY_DIR"] = os.path.abspath(code)
    env["WB_PY_OUT"] = out
    env["WB_PY_CHECKPOINTS"] = json.dumps(owned)
    env["WB_PY_KNOWN"] = json.dumps(known)
    env["WB_SEED"] = str(seed)
    env["WB_WEEK"] = week
    cmd = [sys.executable, "-m", "pytest", "-q", "--tb=short", "-p", "wb_pytest", "-p", "no:cacheprovider",
           "--import-mode=importlib", "--rootdir", week, "-o", "addopts=", "-o", "python_files=test_*.py"] + tests
    sys.stdout.flush()
    # pytest's own output (a traceback per failed test) goes to the log; the
    # console gets one line per checkpoint, the figures, and where the log is
    with open(log, "w", encoding="utf-8", errors="replace") as f:
        return subprocess.run(cmd, env=env, stdout=f, stderr=subprocess.STDOUT).returncode


def crash_lines(path, n=16):
    """What a dead test process left at the end of its log: Python's fault
    report from its first line (the innermost frame, usually your file, comes
    first), or else the last lines."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    for i, line in enumerate(lines):
        k = line.find("Fatal Python error")  # after pytest's progress dots on the same line
        if k >= 0:
            return [line[k:]] + lines[i + 1:i + n]
    return lines[-n:]


def main(argv):
    if len(argv) != 5:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    wb, week, code, results = argv[1:5]
    tests = sorted(glob.glob(os.path.join(week, "test_*.py")))
    if not tests:
        return 0
    try:
        seed = base_seed()
        cps = checkpoints(wb, week)
    except (ValueError, RuntimeError) as e:
        print(e, file=sys.stderr)
        return 2
    # CK_RUN_CASE=ID runs one checkpoint, as it does in the C harness (the grader runs them one by one); a name
    # that is none of the week's is an error, as there: said here unless the week's C test said it already
    sel = os.environ.get("CK_RUN_CASE", "")
    if sel and sel not in [c[0] for c in cps]:
        if not glob.glob(os.path.join(week, "test_*.c")):
            print("CK_RUN_CASE=%s is not a checkpoint of %s; its checkpoints are: %s"
                  % (sel, week, " ".join(c[0] for c in cps)), file=sys.stderr)
        return 2
    have = set(ids_in(results))
    owned = [c for c in cps if c[0] not in have]
    if not owned:
        print("%s: every checkpoint already has a record; the Python tests have nothing to judge" % week)
        return 0
    os.makedirs(os.path.dirname(os.path.abspath(results)), exist_ok=True)
    notsel = [c for c in owned if sel and c[0] != sel]
    owned = [c for c in owned if not sel or c[0] == sel]
    recs = []
    notes = []
    ran = False  # pytest ran (its log is this run's)
    log = os.path.splitext(os.path.abspath(results))[0] + ".pytest.log"
    # your files compile before anything imports them (a syntax error would
    # otherwise hide behind a SKIP for a missing torch or GPU)
    try:
        broken = [m for m in (compile_error(os.path.join(code, e + ".py")) for e in pyexercises(wb, week)) if m]
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 2
    if not owned:
        pass
    elif broken:
        why = "%s: the line above says where; fix it, then check again" % "; ".join(broken)
        recs = [{"id": c[0], "status": "fail", "message": why, "target": c[1]} for c in owned]
    elif importlib.util.find_spec("pytest") is None:
        why = "pytest not importable: No module named 'pytest'"
        recs = [{"id": c[0], "status": "skip", "reason": "env", "message": why, "target": c[1]} for c in owned]
    else:
        out = os.path.abspath(results) + ".py.json"
        if os.path.exists(out):
            os.unlink(out)
        rc = run_pytest(week, code, tests, owned, [c[0] for c in cps], seed, out, log)
        ran = True
        try:
            with open(out, encoding="utf-8") as f:
                data = json.load(f)
            recs = data["records"]
            notes = [str(n) for n in data.get("notes") or []]
            os.unlink(out)
        except (OSError, ValueError, KeyError, TypeError):
            for line in crash_lines(log):
                print("    | " + line)
            why = ("the Python test process ended without its results (%s): the lines above, from %s, say where"
                   % (how_it_ended(rc), os.path.relpath(log)))
            recs = [{"id": c[0], "status": "fail", "message": why, "target": c[1]} for c in owned]
    recs = list(recs) + [{"id": c[0], "status": "skip", "reason": "notselected",
                          "message": "not selected (CK_RUN_CASE=%s)" % sel} for c in notsel]
    owned = [c for c in cps if c in owned or c in notsel]  # week.txt's order
    # One record per checkpoint of this run, whatever the file said.
    by_id = {r.get("id"): r for r in recs if isinstance(r, dict)}
    final = []
    for cid, target, yard, spec in owned:
        r = by_id.get(cid) or {"status": "fail", "message": "the Python tests wrote no record for it"}
        status = r.get("status") if r.get("status") in ("pass", "fail", "skip") else "fail"
        if spec:  # the target for the GPU the record names (the default without one), as the plugin judged it
            target = wb_targets.target_for(targets_of(spec), r.get("gpu") or "")[0]
        final.append(Result(week, cid, status, reason=r.get("reason") if status == "skip" else None,
                            value=r.get("value"), unit=r.get("unit") or "",
                            yard=r.get("yard") or "", yard_value=r.get("yard_value"), ratio=r.get("ratio"),
                            target=target, seed=seed, gpu=r.get("gpu") or "", tests=r.get("tests") or 0,
                            failed=r.get("failed") or 0, skipped=r.get("skipped") or 0,
                            detail=r.get("detail") or "", message=r.get("message") or ""))
    append(results, final)
    # For people (programs read the record).
    impl = os.environ.get("WB_IMPL", code)
    if notes:
        print("\n%s — figures (printed, not judged)" % week)
        for line in notes:
            print("  " + line)
    print("\n%s — Python checkpoints (%s)" % (week, impl))
    nfail = nskip = npass = 0
    for (cid, target, yard, spec), r in zip(owned, final):
        st = r.get("status")
        fig = ""
        if r.get("ratio") is not None:
            fig = "  [%.3f of %s: %s]" % (r.get("ratio"), r.get("yardstick"), r.get("detail"))
        elif target:
            gpu = r.get("gpu")
            fig = "  [target %s]" % (wb_targets.target_text(targets_of(spec), gpu) if gpu
                                     else wb_targets.targets_all(targets_of(spec)))
        print(("  %s  %-22s%s" % (st.upper(), cid, fig)).rstrip())
        if st != "pass":
            print("        %s" % r.get("message"))
        nfail += st == "fail"
        nskip += st == "skip"
        npass += st == "pass"
    print("  -- %d of %d Python checkpoints passed%s%s (seed %d)" % (
        npass, len(final), ", %d failed" % nfail if nfail else "", ", %d skipped" % nskip if nskip else "", seed))
    if nfail and ran and os.path.exists(log):
        print("  every failed test, with its traceback: %s" % os.path.relpath(log))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
