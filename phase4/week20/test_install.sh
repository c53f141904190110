#!/usr/bin/env bash
# phase4/week20/test_install.sh — week 20's package as a stranger meets it
# (run by make test after the weeks; alone: bash phase4/week20/test_install.sh):
# `make install` of the reference (your code in a student copy) into build/,
# then the installed copy used without a GPU: the program's usage line, and
# the Python module's version and errors (python/test_wbk.py installed).
. "$(dirname "$0")/../../tests/lib.sh"
t_begin week20-install

w=phase4/week20
[ -f $w/solution/wbk.cu ] && impl=solution || impl=learner
prefix=$WB_ROOT/$BUILD/$w/install-test
log=$BUILD/$w/install-test.log
mkdir -p "$BUILD/$w"; rm -rf "$prefix"
if ! $MAKE install PREFIX="$prefix" IMPL=$impl >"$log" 2>&1; then
  cat "$log"; t_fail "week 20: make install" "see $log"; t_end
fi
if ! "$prefix/bin/wbk-app" --help >>"$log" 2>&1; then
  cat "$log"; t_fail "week 20: make install" "the installed wbk-app does not run (see $log)"; t_end
fi
if ! command -v python3 >/dev/null; then
  t_skip "week 20: installed Python module" "python3 not installed"; t_end
fi
if (cd / && env -u WBK_LIBRARY PYTHONPATH="$prefix/lib/python" \
      python3 -B "$WB_ROOT/$w/python/test_wbk.py" installed "$prefix") >>"$log" 2>&1; then
  t_pass "week 20: make install, then the installed wbk-app and Python module run" "$(tail -n1 "$log")"
elif [ $impl = learner ]; then
  t_skip "week 20: installed Python module" "its argument checks are your wbk.cu's: make $w check first ($log)"
else
  cat "$log"; t_fail "week 20: installed Python module" "see $log"
fi

t_end
