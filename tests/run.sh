#!/usr/bin/env bash
# tests/run.sh — the workbook's own test suite (`make test`): every step
# below is a script that also runs alone, with its own closing line.
#   tests/harness.sh        the harness's unit tests and the checkpoint logic
#   tests/learner.sh        a learner's mistakes each get a line saying what to type
#   tests/weeks.sh          every week: starters derive from solutions, both
#                           build, the solution passes, the starter fails
#                           (TEST_WEEKS="phase0/week01 ..." for some weeks)
#   phase*/week*/test_*.sh  a week's own extra checks (week 20's install)
#   instructor/tests/run.sh the grader, release and quiz tools (authors' tree;
#                           not with `make phaseP/weekNN test`, ONE_WEEK=1)
#   tests/multicast.sh      NVLink multicast off everywhere
#   tests/python.sh         Phase 7's Python files and results writer
#   tests/roofline.sh       the roofline plot renders
# One ledger (build/test-ledger.tsv) collects every line; the last line
# printed is "N passed, N failed, N skipped", and the exit status is 1 when
# anything failed.
. "$(dirname "$0")/lib.sh"
export LEDGER=$WB_ROOT/$BUILD/test-ledger.tsv
mkdir -p "$BUILD" && rm -f "$LEDGER"
$MAKE -s "$WB" >/dev/null || { echo ">>> $WB does not build: make $WB shows why"; exit 2; }

bash tests/harness.sh
bash tests/learner.sh
bash tests/weeks.sh
for t in phase[0-9]/week[0-9][0-9]/test_*.sh; do
  # `make phaseP/weekNN test` (ONE_WEEK): that week's own only
  [ -n "${ONE_WEEK:-}" ] && [[ " $TEST_WEEKS " != *" $(dirname "$t") "* ]] && continue
  [ -f "$t" ] && [ -f "$(dirname "$t")/week.txt" ] && bash "$t"
done
if [ -n "${ONE_WEEK:-}" ]; then
  echo "(one week's tests: the grader's, release and quiz tools' tests run with the whole suite, make test)"
else
  [ -f instructor/tests/run.sh ] && bash instructor/tests/run.sh
fi
bash tests/multicast.sh
bash tests/python.sh
bash tests/roofline.sh
echo
"$WB" ledger "$LEDGER"
