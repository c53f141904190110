#!/usr/bin/env bash
# tests/harness.sh — the harness's own tests (common/tests/test_harness: one
# ledger line a test) and each phase's (phaseP/common/tests/test_*.c), then the checkpoint logic run as a week's test is run
# (common/tests/test_runner.c on week 01's week.txt):
#   - a test's wb_skip is SKIP, a target without a figure is FAIL, and
#     multicast is off inside a test even when the caller turned it on;
#   - a week.txt `pycheckpoint:` needs no C test and stays out of the C
#     test's record;
#   - a test whose process exits with status 0 mid-test fails its checkpoint.
. "$(dirname "$0")/lib.sh"
t_begin harness

HARNESS_TEST=$BUILD/common/tests/test_harness
RUNNER_TEST=$BUILD/common/tests/test_runner
if ! $MAKE -s "$HARNESS_TEST" "$RUNNER_TEST" >"$BUILD/tests-harness-build.log" 2>&1; then
  cat "$BUILD/tests-harness-build.log"
  t_fail "harness: the test programs build" "see the log above"
  t_end
fi

WB_LEDGER=$LEDGER "$HARNESS_TEST" || true
# A phase's own facilities are tested by phaseP/common/tests/test_*.c (common/README.md).
for t in phase[0-9]/common/tests/test_*.c; do
  [ -f "$t" ] || continue
  bin=$BUILD/${t%.c}
  mkdir -p "$(dirname "$bin")"
  if $MAKE -s "$bin" >"$bin.build.log" 2>&1; then
    WB_LEDGER=$LEDGER "$bin" || true
  else
    cat "$bin.build.log"; t_fail "harness: $t builds" "see the log above"
  fi
done

label1="harness: a test's wb_skip is SKIP, a target without a figure is FAIL, multicast is off in a test"
label2="harness: a pycheckpoint needs no C test and is left out of the C test's record"
if [ ! -f phase0/week01/week.txt ]; then
  t_skip "$label1" "it runs on week 01's week.txt, which this copy lacks"
  t_end
fi

want="w01.devquery=skip w01.vecadd=pass w01.vecadd-bw=fail "
got_of() { awk -F'\t' 'NR > 2 { printf "%s=%s ", $2, $3 }' "$1" 2>/dev/null; }

r=$BUILD/common/tests/runner.tsv
rm -f "$r"
NCCL_NVLS_ENABLE=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=0 NVSHMEM_DISABLE_NVLS=0 \
  WB_WEEK_DIR=phase0/week01 WB_RESULTS=$r "$RUNNER_TEST" >"$BUILD/common/tests/runner.log" 2>&1
got=$(got_of "$r")
if [ "$got" = "$want" ]; then t_pass "$label1"
else cat "$BUILD/common/tests/runner.log"; t_fail "$label1" "got: $got"; fi

d=$WB_ROOT/$BUILD/common/tests/pyweek
rm -rf "$d" && mkdir -p "$d/common" "$d/phase0/week01"
cp common/curriculum.txt "$d/common/"
{ cat phase0/week01/week.txt; echo "pycheckpoint: w01.py-only | judged by the week's Python tests alone"; } >"$d/phase0/week01/week.txt"
r=$BUILD/common/tests/runner-py.tsv
rm -f "$r"
WB_WEEK_DIR=$d/phase0/week01 WB_RESULTS=$r "$RUNNER_TEST" >"$BUILD/common/tests/runner-py.log" 2>&1
got=$(got_of "$r")
if [ "$got" = "$want" ] && ! grep -q py-only "$BUILD/common/tests/runner-py.log"; then t_pass "$label2"
else cat "$BUILD/common/tests/runner-py.log"; t_fail "$label2" "got: $got"; fi

label3="harness: a test whose process exits with status 0 before its end fails its checkpoint"
r=$BUILD/common/tests/runner-exit.tsv
rm -f "$r"
WB_RUNNER_EXIT=1 WB_WEEK_DIR=phase0/week01 WB_RESULTS=$r "$RUNNER_TEST" >"$BUILD/common/tests/runner-exit.log" 2>&1
got=$(got_of "$r")
if [ "$got" = "w01.devquery=skip w01.vecadd=fail w01.vecadd-bw=fail " ] &&
   grep -q '1 of 2 tests of w01.vecadd ended before reaching its end' "$r"; then t_pass "$label3"
else cat "$BUILD/common/tests/runner-exit.log"; t_fail "$label3" "got: $got"; fi

t_end
