#!/usr/bin/env bash
# tests/harness.sh — the harness's own tests (common/tests/test_harness: one
# ledger line a test) and each phase's (phaseP/common/tests/test_*.c), then the checkpoint logic run as a week's test is run
# (common/tests/test_runner.c on week 01's week.txt):
#   - a test's wb_skip is SKIP, a target without a figure is FAIL, and
#     multicast is off inside a test even when the caller turned it on;
#   - a week.txt `pycheckpoint:` needs no C test and stays out of the C
#     test's record;
#   - a test whose process exits with status 0 mid-test fails its checkpoint;
#   - after a test runs to its time limit (or crashes, or is killed), its checkpoint's later
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
# CK_RUN_CASE naming a pycheckpoint (`CK_RUN_CASE=w39.cmake make phase7/week39 check`, as week 39's README
# says) is a checkpoint of the week: the C test records its own as not selected, it does not refuse the name
label2b="harness: CK_RUN_CASE naming a pycheckpoint leaves the C test's checkpoints not selected, not refused"
r=$BUILD/common/tests/runner-pysel.tsv
rm -f "$r"
CK_RUN_CASE=w01.py-only WB_WEEK_DIR=$d/phase0/week01 WB_RESULTS=$r "$RUNNER_TEST" >"$BUILD/common/tests/runner-pysel.log" 2>&1
got=$(awk -F'\t' 'NR > 2 { printf "%s=%s/%s ", $2, $3, $4 }' "$r" 2>/dev/null)
if [ "$got" = "w01.devquery=skip/notselected w01.vecadd=skip/notselected w01.vecadd-bw=skip/notselected " ] &&
   ! grep -q 'is not a checkpoint' "$BUILD/common/tests/runner-pysel.log"; then t_pass "$label2b"
else cat "$BUILD/common/tests/runner-pysel.log"; t_fail "$label2b" "got: $got"; fi
# ... and one that is no checkpoint of the week is refused with all of them, the Python ones too
label2c="harness: a CK_RUN_CASE that is no checkpoint is refused, naming the week's pycheckpoints too"
out=$(CK_RUN_CASE=w01.nosuch WB_WEEK_DIR=$d/phase0/week01 WB_RESULTS=$r "$RUNNER_TEST" 2>&1); rc=$?
if [ $rc = 2 ] && grep -q 'CK_RUN_CASE=w01.nosuch is not a checkpoint of .*: w01.devquery w01.vecadd w01.vecadd-bw w01.py-only$' <<<"$out"
then t_pass "$label2c"; else t_fail "$label2c" "exit $rc: $(tail -c 300 <<<"$out")"; fi

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
# kill: the first is killed by SIGKILL, as by the out-of-memory killer (before, the other three ran to the limit).
for mode in loop crash kill; do
  label4="harness: a checkpoint whose test $(case $mode in loop) echo 'runs to its time limit';; crash) echo crashes;; kill) echo 'is killed (SIGKILL)';; esac) fails its later tests at once, the other checkpoints run"
  r=$BUILD/common/tests/runner-hang-$mode.tsv
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-hang-XXXXXX")
  rm -f "$r"
  t0=$(date +%s%N)
  TMPDIR=$tmp WB_RUNNER_HANG=$mode WB_TEST_TIMEOUT=2 WB_SLOW_NOTE_S=0 WB_WEEK_DIR=phase0/week01 WB_RESULTS=$r \
    "$RUNNER_TEST" >"$BUILD/common/tests/runner-hang-$mode.log" 2>&1
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  got=$(got_of "$r")
  case $mode in
    loop) first='Test timeout expired' later='it ran to the 2 s time limit' max=5000;;
    crash) first='Received signal 11' later='it crashed \(signal 11\)' max=3000;;
    kill) first='Received signal 9' later='it was killed \(signal 9: out of memory\?\)' max=3000;;
  esac
  if [ "$got" = "w01.devquery=fail w01.vecadd=pass w01.vecadd-bw=fail " ] && [ "$ms" -lt "$max" ] &&
     grep -q "$first" "$r" && grep -qE "3 of them at once, not run: an earlier test of w01.devquery did not finish: $later" \
       "$BUILD/common/tests/runner-hang-$mode.log" && [ -z "$(ls -A "$tmp")" ]; then t_pass "$label4"
  else cat "$BUILD/common/tests/runner-hang-$mode.log"; t_fail "$label4" "got: $got in $ms ms (under $max expected); left in TMPDIR: $(ls -A "$tmp")"; fi
  rm -rf "$tmp"
done

# A run stopped while a test runs (Ctrl-C is SIGINT; SIGTERM; SIGKILL, which no process can catch) leaves
# nothing in TMPDIR (before: the markers' folder, the figures' and the ends' files) and no test process
# behind. The run has a session of its own: Check's handler sends the signal on to the run's process group.
# SIGINT is set back to its default (perl) as at a terminal: bash starts a background command with it ignored,
# and Check's handler, restoring that, would let the run go on.
if command -v setsid >/dev/null && command -v perl >/dev/null; then
  for sig in INT TERM KILL; do
    label6="harness: a run stopped by SIG$sig while a test runs leaves nothing in TMPDIR and no test running"
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-stop-XXXXXX")
    TMPDIR=$tmp WB_RUNNER_HANG=loop WB_TEST_TIMEOUT=60 WB_SLOW_NOTE_S=0 WB_WEEK_DIR=phase0/week01 \
      setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' "$RUNNER_TEST" >"$BUILD/common/tests/runner-stop.log" 2>&1 &
    pid=$!
    for i in $(seq 50); do compgen -G "$tmp/wb-running-*/0" >/dev/null && break; sleep 0.1; done
    kill -$sig $pid; wait $pid 2>/dev/null
    for i in $(seq 30); do [ -z "$(ls -A "$tmp")$(ps -o pid= -s $pid)" ] && break; sleep 0.1; done
    left=$(ls -A "$tmp" | tr '\n' ' ') procs=$(ps -o pid= -s $pid | tr -d ' ' | tr '\n' ' ')
    if [ -z "$left$procs" ]; then t_pass "$label6"
    else t_fail "$label6" "left in TMPDIR: ${left:-nothing}; still running: ${procs:-none}"; fi
    for p in $procs; do kill -KILL "$p" 2>/dev/null; done
    rm -rf "$tmp"
  done
else
  t_skip "harness: a run stopped by a signal leaves nothing in TMPDIR" "setsid (util-linux) or perl is not installed"
fi

# The janitor (its own session, a child of the run) killed while the tests run (the out-of-memory killer, a
# test's code): the run still ends as it would, with its summary and record. Before, the byte the run writes
# to the janitor's pipe at its end raised SIGPIPE, and the run died without a word (exit 141).
label7="harness: a run whose janitor process was killed mid-run still prints its summary and writes its record"
r=$BUILD/common/tests/runner-nojanitor.tsv
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-nojan-XXXXXX")
rm -f "$r"
TMPDIR=$tmp WB_RUNNER_HANG=loop WB_TEST_TIMEOUT=2 WB_SLOW_NOTE_S=0 WB_WEEK_DIR=phase0/week01 WB_RESULTS=$r \
  timeout 60 "$RUNNER_TEST" >"$BUILD/common/tests/runner-nojanitor.log" 2>&1 &
pid=$!
runner= janitor=
for i in $(seq 50); do
  runner=$(pgrep -P $pid -x test_runner | head -1)
  [ -n "$runner" ] && janitor=$(ps -o pid=,sid= --ppid "$runner" | awk '$1 == $2 { print $1 }')
  [ -n "$janitor" ] && break; sleep 0.1
done
[ -n "$janitor" ] && kill -KILL "$janitor"
wait $pid; rc=$?
got=$(got_of "$r")
if [ -n "$janitor" ] && [ $rc = 1 ] && [ "$got" = "w01.devquery=fail w01.vecadd=pass w01.vecadd-bw=fail " ] &&
   grep -q -- "-- 1 of 3 checkpoints passed" "$BUILD/common/tests/runner-nojanitor.log" && [ -z "$(ls -A "$tmp")" ]; then
  t_pass "$label7"
else cat "$BUILD/common/tests/runner-nojanitor.log"; t_fail "$label7" "janitor ${janitor:-not found}; exit $rc; got: $got"; fi
rm -rf "$tmp"

# A run started with SIGCHLD blocked (a signal mask survives exec: a parent that blocked it) still notes a
# killed test: before, test_died never ran, the second test ran to the time limit and the rest were said to
# follow a loop that never ends.
if command -v perl >/dev/null; then
  label8="harness: a run started with SIGCHLD blocked still notes a test killed by SIGKILL"
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-mask-XXXXXX")
  t0=$(date +%s%N)
  TMPDIR=$tmp WB_RUNNER_HANG=kill WB_TEST_TIMEOUT=2 WB_SLOW_NOTE_S=0 WB_WEEK_DIR=phase0/week01 \
    timeout 60 perl -e 'use POSIX; sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGCHLD)); exec @ARGV or die' \
    "$RUNNER_TEST" >"$BUILD/common/tests/runner-mask.log" 2>&1
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  if [ "$ms" -lt 3000 ] && grep -qE "3 of them at once, not run: an earlier test of w01.devquery did not finish: it was killed" \
       "$BUILD/common/tests/runner-mask.log" && [ -z "$(ls -A "$tmp")" ]; then t_pass "$label8"
  else cat "$BUILD/common/tests/runner-mask.log"; t_fail "$label8" "${ms} ms"; fi
  rm -rf "$tmp"
else
  t_skip "harness: a run started with SIGCHLD blocked still notes a killed test" "perl is not installed"
fi

# Under CK_FORK=no the tests run in the run's own process, and what they execute (gnuplot, compute-sanitizer,
# python3) inherits its descriptors: the janitor's pipe must not be one of them (close-on-exec), or a program
# that outlives the run keeps the janitor from removing its files. Before: the pipe had no FD_CLOEXEC.
label9="harness: the janitor's pipe is close-on-exec in the run's process (CK_FORK=no: nothing a test executes holds it)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-cloexec-XXXXXX")
CK_FORK=no TMPDIR=$tmp WB_RUNNER_HANG=loop WB_TEST_TIMEOUT=60 WB_SLOW_NOTE_S=0 WB_WEEK_DIR=phase0/week01 \
  "$RUNNER_TEST" >"$BUILD/common/tests/runner-cloexec.log" 2>&1 &
pid=$!
janitor= how=""
for i in $(seq 50); do
  janitor=$(ps -o pid=,sid= --ppid $pid | awk '$1 == $2 { print $1 }')
  [ -n "$janitor" ] && break; sleep 0.1
done
# the janitor closes what it inherited first: then it holds 0-2 (/dev/null) and its pipe's end alone
for i in $(seq 30); do [ -n "$janitor" ] && [ "$(ls /proc/$janitor/fd 2>/dev/null | wc -l)" -le 4 ] && break; sleep 0.1; done
if [ -n "$janitor" ]; then
  for jfd in /proc/$janitor/fd/*; do
    link=$(readlink "$jfd") || continue
    [[ $link == pipe:* ]] || continue
    for fd in /proc/$pid/fd/*; do
      [ "$(readlink "$fd")" = "$link" ] || continue
      fl=$(awk '/^flags:/ { print $2 }' /proc/$pid/fdinfo/${fd##*/})
      how="$how fd ${fd##*/} flags $fl;"
      (( (8#$fl & 8#2000000) != 0 )) || how="$how not close-on-exec;"
    done
  done
fi
kill -KILL $pid; wait $pid 2>/dev/null
for i in $(seq 30); do [ -z "$(ls -A "$tmp")" ] && break; sleep 0.1; done
if [ -n "$how" ] && [[ $how != *"not close-on-exec"* ]] && [ -z "$(ls -A "$tmp")" ]; then t_pass "$label9"
else t_fail "$label9" "janitor ${janitor:-not found};${how:- no pipe shared with it}"; fi
rm -rf "$tmp"

# CK_TIMEOUT_MULTIPLIER=0 is Check's "no time limit": a test that fails a check leaves its marker, and the
# next test must not read it as one that ran to a 0 s limit (before: "3 of them at once, not run: ... it ran
# to the 0 s time limit", three tests that pass reported failed)
# A markers' folder left by an earlier run killed before this change (a marker of a killed test in it) is never
# read: each run makes its own (mkdtemp), and leaves the stale one as it is.
label5="harness: with CK_TIMEOUT_MULTIPLIER=0 (no limit) a test that fails a check does not fail its checkpoint's later tests, nor does a stale markers' folder"
r=$BUILD/common/tests/runner-fail-nolimit.tsv
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-hang-XXXXXX")
mkdir "$tmp/wb-running-stale0" && printf 'started 0\nsignal 9\n' >"$tmp/wb-running-stale0/0"
rm -f "$r"
CK_TIMEOUT_MULTIPLIER=0 TMPDIR=$tmp WB_RUNNER_HANG=fail WB_TEST_TIMEOUT=2 WB_SLOW_NOTE_S=0 WB_WEEK_DIR=phase0/week01 \
  WB_RESULTS=$r timeout 60 "$RUNNER_TEST" >"$BUILD/common/tests/runner-fail-nolimit.log" 2>&1
got=$(got_of "$r")
if [ "$got" = "w01.devquery=fail w01.vecadd=pass w01.vecadd-bw=fail " ] &&
   ! grep -q "not run" "$BUILD/common/tests/runner-fail-nolimit.log" && [ "$(ls -A "$tmp")" = wb-running-stale0 ]; then t_pass "$label5"
else cat "$BUILD/common/tests/runner-fail-nolimit.log"; t_fail "$label5" "got: $got"; fi
rm -rf "$tmp"

t_end
