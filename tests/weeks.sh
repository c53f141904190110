#!/usr/bin/env bash
# tests/weeks.sh — every week (or TEST_WEEKS="phase0/week01 ..."):
#   - its starters derive from its solutions (`wb drift`);
#   - its test program builds from the solution and from the untouched starter;
#   - the solution passes every checkpoint it can run (GPU ones SKIP with no GPU);
#   - the untouched starter fails every checkpoint a GPU could run.
# A week with solution/ (the authors' tree) runs its solution and starter; a
# week without (a student copy, `make release`) builds the learner's code
# and the starter and runs the starter only: the learner's own code is
# `make WEEK check`'s. The ledger lines come from each run's results record,
# never from printed lines.
. "$(dirname "$0")/lib.sh"
t_begin weeks

weeks=$(canon_weeks "${TEST_WEEKS:-$(all_weeks)}") || exit 2

# Everything at once first, in parallel; the per-week steps below then find it built.
targets=
for w in $weeks; do
  has_c_test "$w" || continue
  [ -d "$w/solution" ] && first=solution || first=learner
  targets="$targets $BUILD/$w/$first/test $BUILD/$w/starter/test"
done
echo "Building $(echo $weeks | wc -w) week(s) (solution or your code, and the starter), $NPROC jobs; log in $BUILD/build-all.log"
[ -z "$targets" ] || $MAKE -k -j"$NPROC" $targets >"$BUILD/build-all.log" 2>&1 || true

# py_check WEEK IMPL RESULTS LABEL: the week's Python tests into RESULTS.
py_check() { $MAKE -s py-check PYW="$1" PYI="$2" PYR="$3" PYL="$4"; }

for w in $weeks; do
  t0=$SECONDS
  hasc=$(has_c_test "$w" && echo 1)
  hasp=$(has_py_test "$w" && echo 1)
  log=$BUILD/build-${w//\//-}
  if [ -d "$w/solution" ]; then
    impls="solution starter"
    if "$WB" drift "$w"; then t_pass "$w starters derive from solutions"
    else t_fail "$w starters derive from solutions" "see above"; fi
  else
    impls="learner starter"
    if "$WB" drift "$w" 2>/dev/null; then t_pass "$w starters match .starter/"
    else t_skip "$w starters match .starter/" "you have edited them (make $w reset restores them)"; fi
  fi
  if [ -n "$hasc" ]; then
    for i in $impls; do
      if $MAKE "$BUILD/$w/$i/test" >"$log-$i.log" 2>&1; then t_pass "$w $i compiles and links"
      else cat "$log-$i.log"; t_fail "$w $i compiles and links" "see the log above"; fi
    done
  fi

  r=$BUILD/$w/results-solution.tsv
  rm -f "$r"; ran=
  if [ -d "$w/solution" ]; then
    if [ -n "$hasc" ] && [ -x "$BUILD/$w/solution/test" ]; then
      WB_WEEK_DIR=$w WB_IMPL="reference solution" WB_RESULTS=$r "$BUILD/$w/solution/test"; ran=1
    fi
    if [ -n "$hasp" ]; then py_check "$w" solution "$r" "reference solution"; ran=1; fi
  fi
  [ -n "$ran" ] && "$WB" ledger-results "$LEDGER" "$r" "$w reference solution" pass

  r=$BUILD/$w/results-starter.tsv
  rm -f "$r"; ran=
  slog=$BUILD/starter-${w//\//-}.log
  if [ -n "$hasc" ] && [ -x "$BUILD/$w/starter/test" ]; then
    WB_WEEK_DIR=$w WB_IMPL="untouched starter" WB_RESULTS=$r "$BUILD/$w/starter/test" >"$slog" 2>&1; ran=1
  fi
  if [ -n "$hasp" ]; then py_check "$w" starter "$r" "untouched starter" >>"$slog" 2>&1; ran=1; fi
  if [ -n "$ran" ]; then
    "$WB" ledger-results "$LEDGER" "$r" "$w untouched starter" fail
    "$WB" results "$r" "  starter: "
  fi
  echo "  ($w: $((SECONDS - t0)) s)"
done

t_end
