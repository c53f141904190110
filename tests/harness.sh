#!/usr/bin/env bash
# tests/harness.sh — the harness's own tests (common/tests/test_harness: one
# ledger line a test) and each phase's (phaseP/common/tests/test_*.c), then the checkpoint logic run as a week's test is run
# (common/tests/test_runner.c on week 01's week.txt):
#   - a test's wb_skip is SKIP, a target without a figure is FAIL, and
#     multicast is off inside a test even when the caller turned it on;
#   - a week.txt `pycheckpoint:` needs no C test and stays out of the C
#     test's record;
#   - a test whose process exits with status 0 mid-test fails its checkpoint;
#   - after a test runs to its time limit (or crashes), its checkpoint's later
#     tests fail at once: one time limit, not one a test; the checkpoint
#     fails, the others run, and no marker outlives the run.
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

# wb margins: a results record as the notes' table, speed margins named
label0="wb margins: every checkpoint a row, the margin ratio / target - 1, short and failed speed checkpoints named"
m=$BUILD/common/tests/margins.tsv
mkdir -p "$(dirname "$m")"
{ printf '#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\tseed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n'
  printf 'phase0/week01\tw01.vecadd\tpass\t-\t-\t-\t-\t-\t-\t-\t1\tGPU A\t3\t0\t0\t-\t-\n'
  printf 'phase0/week01\tw01.a-bw\tpass\t-\t3120\tGB/s\tCOPY\t3300\t0.945\t0.85\t1\tGPU A\t1\t0\t0\t-\t-\n'
  printf 'phase0/week01\tw01.b-bw\tpass\t-\t2900\tGB/s\tCOPY\t3300\t0.879\t0.85\t1\tGPU A\t1\t0\t0\t-\t-\n'
  printf 'phase0/week01\tw01.c-bw\tfail\tcode\t1650\tGB/s\tCOPY\t3300\t0.5\t0.85\t1\tGPU A\t1\t1\t0\t-\tslow\n'
  printf 'phase0/week01\tw01.d-bw\tskip\tnogpu\t-\t-\tCOPY\t-\t-\t0.85\t1\t-\t0\t0\t1\t-\tno GPU\n'
  printf 'phase0/week01\tw01.e-speed\tpass\t-\t-\t-\tcuDNN\t-\t0.956\t0.80\t1\tGPU A\t1\t0\t0\tS4096 non-causal: 410 TFLOP/s, cuDNN 429, 0.956 | one\t-\n'; } >"$m"
out=$("$WB" margins "$m" 2>&1); rc=$?
want_rows="| phase0/week01 | w01.vecadd | PASS | - | - | - | - | - |
| phase0/week01 | w01.a-bw | PASS | 3120 GB/s | COPY 3300 GB/s | 0.945 | >= 0.85 COPY | +11.2 % |
| phase0/week01 | w01.b-bw | PASS | 2900 GB/s | COPY 3300 GB/s | 0.879 | >= 0.85 COPY | +3.4 % short |
| phase0/week01 | w01.c-bw | FAIL | 1650 GB/s | COPY 3300 GB/s | 0.500 | >= 0.85 COPY | -41.2 % |
| phase0/week01 | w01.d-bw | SKIP | - | COPY | - | >= 0.85 COPY | - |
| phase0/week01 | w01.e-speed | PASS | S4096 non-causal: 410 TFLOP/s, cuDNN 429, 0.956 \\| one | cuDNN | 0.956 | >= 0.80 cuDNN | +19.5 % |"
want_sum="5 speed checkpoints: 2 passed by 10 % or more; 1 passed by less: w01.b-bw; 2 not passed: w01.c-bw, w01.d-bw"
if [ $rc = 0 ] && [ "$(grep '^| phase0' <<<"$out")" = "$want_rows" ] && grep -qxF "$want_sum" <<<"$out" &&
   grep -qxF "GPU: GPU A" <<<"$out" && ! "$WB" margins "$m.absent" >/dev/null 2>&1; then t_pass "$label0"
else t_fail "$label0" "got (exit $rc): $out"; fi

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

# w01.devquery is four tests that never end (WB_RUNNER_HANG=loop), or whose first
# crashes (crash); the time limit is 2 s: without the markers, 8 s and 6 s.
for mode in loop crash; do
  label4="harness: a checkpoint whose test $( [ $mode = loop ] && echo 'runs to its time limit' || echo crashes ) fails its later tests at once, the other checkpoints run"
  r=$BUILD/common/tests/runner-hang-$mode.tsv
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-hang-XXXXXX")
  rm -f "$r"
  t0=$(date +%s%N)
  TMPDIR=$tmp WB_RUNNER_HANG=$mode WB_TEST_TIMEOUT=2 WB_SLOW_NOTE_S=0 WB_WEEK_DIR=phase0/week01 WB_RESULTS=$r \
    "$RUNNER_TEST" >"$BUILD/common/tests/runner-hang-$mode.log" 2>&1
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  got=$(got_of "$r")
  first=$([ $mode = loop ] && echo 'Test timeout expired' || echo 'Received signal 11')
  later=$([ $mode = loop ] && echo 'it ran to the 2 s time limit' || echo 'it crashed \(signal 11\)')
  max=$([ $mode = loop ] && echo 5000 || echo 3000)
  if [ "$got" = "w01.devquery=fail w01.vecadd=pass w01.vecadd-bw=fail " ] && [ "$ms" -lt "$max" ] &&
     grep -q "$first" "$r" && grep -qE "3 of them at once, not run: an earlier test of w01.devquery did not finish: $later" \
       "$BUILD/common/tests/runner-hang-$mode.log" && [ -z "$(ls -A "$tmp")" ]; then t_pass "$label4"
  else cat "$BUILD/common/tests/runner-hang-$mode.log"; t_fail "$label4" "got: $got in $ms ms (under $max expected); left in TMPDIR: $(ls -A "$tmp")"; fi
  rm -rf "$tmp"
done

# CK_TIMEOUT_MULTIPLIER=0 is Check's "no time limit": a test that fails a check leaves its marker, and the
# next test must not read it as one that ran to a 0 s limit (before: "3 of them at once, not run: ... it ran
# to the 0 s time limit", three tests that pass reported failed)
label5="harness: with CK_TIMEOUT_MULTIPLIER=0 (no limit) a test that fails a check does not fail its checkpoint's later tests"
r=$BUILD/common/tests/runner-fail-nolimit.tsv
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-hang-XXXXXX")
rm -f "$r"
CK_TIMEOUT_MULTIPLIER=0 TMPDIR=$tmp WB_RUNNER_HANG=fail WB_TEST_TIMEOUT=2 WB_SLOW_NOTE_S=0 WB_WEEK_DIR=phase0/week01 \
  WB_RESULTS=$r timeout 60 "$RUNNER_TEST" >"$BUILD/common/tests/runner-fail-nolimit.log" 2>&1
got=$(got_of "$r")
if [ "$got" = "w01.devquery=fail w01.vecadd=pass w01.vecadd-bw=fail " ] &&
   ! grep -q "not run" "$BUILD/common/tests/runner-fail-nolimit.log" && [ -z "$(ls -A "$tmp")" ]; then t_pass "$label5"
else cat "$BUILD/common/tests/runner-fail-nolimit.log"; t_fail "$label5" "got: $got"; fi
rm -rf "$tmp"

t_end
