#!/usr/bin/env bash
# tests/python.sh — Phase 7's Python side: every Python file of the workbook
# compiles (syntax errors caught here, where torch may be absent; bytecode
# goes to build/), and a results record written from Python is one the C
# reader takes (phase7/common/check_wb_results.py), and the Python twin of
# the target parser (phase7/common/wb_targets.py) reads every case of
# common/tests/target_cases.tsv and every week's targets as the C one does
# (phase7/common/check_wb_targets.py). Where python3 is missing
# both are SKIP, never PASS. A copy without Phase 7 has nothing to test.
. "$(dirname "$0")/lib.sh"
t_begin python

[ -f phase7/common/check_wb_results.py ] || t_end
if ! command -v python3 >/dev/null; then
  t_skip "results record written from Python" "python3 not installed"
  t_end
fi
files=$(ls phase7/common/*.py phase[78]/week*/*.py phase[78]/week*/solution/*.py phase[78]/week*/support/*.py 2>/dev/null | sort)
if PYTHONPYCACHEPREFIX=$BUILD/pycache python3 -m py_compile $files >"$BUILD/python-compile.log" 2>&1; then
  t_pass "every Python file compiles (py_compile)" "$(echo $files | wc -w) files"
else
  cat "$BUILD/python-compile.log"; t_fail "every Python file compiles (py_compile)" "see $BUILD/python-compile.log"
fi
if PYTHONDONTWRITEBYTECODE=1 python3 phase7/common/check_wb_results.py "$WB" >"$BUILD/python-results.log" 2>&1; then
  t_pass "results record written from Python, read by the C reader" "$(tail -n1 "$BUILD/python-results.log")"
else
  cat "$BUILD/python-results.log"; t_fail "results record written from Python" "see $BUILD/python-results.log"
fi
if [ ! -f phase7/common/check_wb_targets.py ]; then :
elif PYTHONDONTWRITEBYTECODE=1 python3 phase7/common/check_wb_targets.py "$WB" >"$BUILD/python-targets.log" 2>&1; then
  t_pass "per-GPU targets: the Python twin reads week.txt's target fields as the C reader does" "$(tail -n1 "$BUILD/python-targets.log")"
else
  cat "$BUILD/python-targets.log"; t_fail "per-GPU targets: the Python twin reads as the C reader" "see $BUILD/python-targets.log"
fi

# A learner's Python exercise with a syntax error is a FAIL that names the file and line, even where
# torch, pytest or a GPU is missing (all of which would make it SKIP): it compiles before anything imports it.
if [ -f phase7/week41/layernorm.py ]; then
  d=$(mktemp -d "$BUILD/pysyntax-XXXXXX")
  sed 's/^\(    def forward(x, weight, bias, eps)\):$/\1/' phase7/week41/layernorm.py > "$d/layernorm.py"
  out=$(PYTHONDONTWRITEBYTECODE=1 python3 phase7/common/wb_pyrun.py "$WB" phase7/week41 "$d" "$d/results.tsv" 2>&1)
  if ! cmp -s phase7/week41/layernorm.py "$d/layernorm.py" &&
     grep -q "^phase7/week41	w41.forward	fail	.*layernorm.py does not compile (line [0-9]*: expected ':')" "$d/results.tsv" &&
     ! grep -q '	skip	' "$d/results.tsv" && grep -q 'layernorm.py:[0-9]*: SyntaxError' <<<"$out"; then
    t_pass "a Python exercise that does not compile is FAIL with its line, torch or not"
  else
    t_fail "a Python exercise that does not compile is FAIL with its line, torch or not" "$(tail -c 300 <<<"$out")"
  fi
  rm -rf "$d"
fi

# CK_RUN_CASE naming no checkpoint of a Python-only week is refused by name, with the week's checkpoints, as the
# C harness refuses one (before, every checkpoint was "not selected" and nothing said the name was wrong)
if [ -f phase7/week43/week.txt ] && ! ls phase7/week43/test_*.c >/dev/null 2>&1; then
  d=$(mktemp -d "$BUILD/pysel-XXXXXX")
  out=$(CK_RUN_CASE=w43.nosuch PYTHONDONTWRITEBYTECODE=1 python3 phase7/common/wb_pyrun.py "$WB" phase7/week43 phase7/week43 "$d/results.tsv" 2>&1)
  rc=$?
  if [ $rc = 2 ] && [ ! -e "$d/results.tsv" ] &&
     grep -q '^CK_RUN_CASE=w43.nosuch is not a checkpoint of phase7/week43; its checkpoints are: w43\.' <<<"$out"; then
    t_pass "a CK_RUN_CASE that is no checkpoint of a Python week is refused by name"
  else
    t_fail "a CK_RUN_CASE that is no checkpoint of a Python week is refused by name" "exit $rc: $(tail -c 300 <<<"$out")"
  fi
  rm -rf "$d"
fi

t_end
