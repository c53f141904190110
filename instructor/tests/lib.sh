# instructor/tests/lib.sh — what the instructor tools' tests share, on top of
# the workbook's tests/lib.sh (the ledger, MAKE, BUILD).
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/lib.sh"

# These are the tests of the CPU path (make test's instructor part): on a
# machine with a GPU they hide it (WB_NO_GPU=1, which the harness, the grader
# and every judge honour), so they expect the same SKIPs and calibration
# notes there as in CI. The GPU is tested by .ci/gpu-acceptance and by the
# two scripts that set WB_TEST_GPU=1 before sourcing this file
# (probe-ipc-gpu.sh, slurm-gpu.sh).
if [ "${WB_TEST_GPU:-0}" != 1 ] && command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  export WB_NO_GPU=1
fi

GRADE_BIN=$BUILD/instructor/grade
SB_RUN=$BUILD/sandbox/sb-run
FIXTURE_WEEK=phase0/week01
SEED=${SEED:-20261122}
JOBS=${JOBS:-8}
GPU_SHARE=${GPU_SHARE:-4}
# NVCC and CHECK_DIR as the Makefile takes them (a command-line NVCC= or
# CHECK_DIR= of make reaches a recipe's environment), CHECK_DIR made absolute.
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ABS_CHECK_DIR=${CHECK_DIR:+$(realpath -m -- "$CHECK_DIR")}

# put_starters WEEK DIR: the week's starters as a learner who changed nothing would
# submit them (build/wb strip of each solution file, as the grader derives them) into
# DIR. A submission with no file of a week is not graded at all (every cell 0.00, "not
# submitted"), so a class's "starter" student submits these.
put_starters() {
  [ -x "$WB" ] || $MAKE -s "$WB" >/dev/null 2>&1 || return 1
  mkdir -p "$2" || return 1
  local f
  for f in "$1"/solution/*.cu "$1"/solution/*.py; do
    [ -f "$f" ] || continue
    "$WB" strip "$f" >"$2/${f##*/}" || return 1
  done
}

# Grading needs libarchive (to build the grader) and a working bwrap (to run
# it): without either, its steps are SKIP with the reason, never PASS.
have_libarchive() { printf '#include <archive.h>\n' | ${CC:-gcc} -E -x c - >/dev/null 2>&1; }
# sandbox_ok [PATH]...: the sandbox program builds, bwrap works here and the
# sandbox's user can reach each PATH (a root grader's sandbox cannot pass a
# folder only its owner may enter); else prints why.
sandbox_ok() {
  $MAKE -s "$SB_RUN" >/dev/null 2>&1 || { echo "the sandbox program does not build (make $SB_RUN)"; return 1; }
  "$SB_RUN" --check "$@" 2>&1
}
# judge_alone NN WEEK IMPL plain|sandbox DIR: build/instructor/judge-wNN by itself, without a GPU, over
# build/WEEK/IMPL/judge-runner (a plain child, or in a sandbox under DIR), every checkpoint at $SEED;
# prints the record's statuses in its order, comma-separated (the record and output in DIR).
judge_alone() {
  local rec=$5/alone-w$1-$3-$4.tsv box=$5/alone-w$1-$3
  local how=("$BUILD/$2/$3/judge-runner")
  rm -f "$rec"
  [ "$4" = sandbox ] && mkdir -p "$box" && chmod 755 "$box" && how=(--sandbox "$box" "${how[@]}")
  WB_NO_GPU=1 "$BUILD/instructor/judge-w$1" --record "$rec" --checkpoint all --seed "$SEED" "${how[@]}" >"$rec.out" 2>&1
  awk -F'\t' 'NR > 2 { printf "%s%s", sep, $3; sep = "," }' "$rec" 2>/dev/null
}
# judge_grade_twice NN WEEK CLASS DIR: build judge-wNN, the grader and WEEK's starter test program, then
# grade CLASS's WEEK without a GPU at $SEED twice, with --judge 1 (DIR/judged.{csv,log}, its scratch kept in
# DIR/scratch/judged) and without (DIR/linked.*); 1 with DIR/build.log's tail printed when the build failed.
judge_grade_twice() {
  if ! $MAKE -s "judge-w$1" "$GRADE_BIN" "$BUILD/$2/starter/test" >"$4/build.log" 2>&1; then tail -n 20 "$4/build.log"; return 1; fi
  local how
  for how in judged linked; do
    # shellcheck disable=SC2046
    WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$3" --weeks "$2" --gradebook "$4/$how.csv" --seed "$SEED" \
      --limit 60 --jobs 2 --scratch "$4/scratch/$how" --keep-scratch 1 $(grade_make_args) $([ $how = judged ] && echo --judge 1) \
      >"$4/$how.log" 2>&1
  done
  return 0
}
# judge_class DIR WEEK FILE...: DIR made afresh (0755, with DIR/scratch/judged and DIR/scratch/linked)
# and in DIR/class a class of two for WEEK: correct (the FILEs, the reference's) and starter (the
# derived starters, put_starters).
judge_class() {
  local d=$1 w=$2
  shift 2
  rm -rf "$d" && mkdir -p "$d/scratch/judged" "$d/scratch/linked" "$d/class/correct/$w" "$d/class/starter/$w" &&
    chmod 755 "$d" "$d/scratch" "$d/scratch/judged" "$d/scratch/linked" && cp "$@" "$d/class/correct/$w/" &&
    put_starters "$w" "$d/class/starter/$w"
}
# judged_week_begin NN WEEK LABEL FILE...: a registered week's test begins: ends the step with LABEL SKIP unless
# grading can run here (grading_or_skip); else DIR (build/instructor/judge-wNN-test) made afresh with the class
# of two (judge_class: the FILEs, the reference's, and the starter), graded without a GPU with --judge 1 and
# without (judge_grade_twice), the step ending with LABEL FAIL when the judge or the grader does not build.
# Sets log to DIR.
judged_week_begin() {
  local nn=$1 week=$2 label=$3
  shift 3
  grading_or_skip "$label"
  log=$BUILD/instructor/judge-w$nn-test
  judge_class "$log" "$week" "$@"
  judge_grade_twice "$nn" "$week" "$log/class" "$log" ||
    { t_fail "$label" "judge-w$nn or the grader does not build (see $log/build.log)"; t_end; }
}
# grader_says_judged NN WEEK [LEFT]: after judge_grade_twice, prints the lack with ';' after it unless the
# grader's log ($log/judged.log) says it judges WEEK and leaves to the test program LEFT (ids, ", " between)
# or nothing.
grader_says_judged() {
  local want="$2: judged outside the student's process (--judge 1)"
  [ -n "${3:-}" ] && want="$want; left to its test program (the API cannot cross a process): $3"
  grep -qxF "$want" "$log/judged.log" ||
    printf ' the grader did not say it judges week %s, leaving %s to the test program;' "$1" "${3:-nothing}"
}
# judge_alone_each NN WEEK WANT DIR: judge_alone over the solution's and the starter's runners, plain
# and sandboxed; prints "judge-wNN over the IMPL's runner (HOW): GOT, expected WANT;" for each that differs.
judge_alone_each() {
  local impl how got
  for impl in solution starter; do
    for how in plain sandbox; do
      got=$(judge_alone "$1" "$2" $impl $how "$4")
      [ "$got" = "$3" ] || printf ' judge-w%s over the %s'"'"'s runner (%s): %s, expected %s;' "$1" $impl $how "$got" "$3"
    done
  done
}
# cells_both N DIR WHO=WANT...: after judge_grade_twice, each student WHO whose N cells (the week's checkpoints),
# judged or linked, are not WANT (comma-separated, as the gradebook has them), printed with ';' after it.
cells_both() {
  local n=$1 dir=$2 pair who want how got
  shift 2
  for pair in "$@"; do
    who=${pair%%=*} want=${pair#*=}
    for how in judged linked; do
      got=$(awk -F, -v who="$who" -v n="$n" '$1 == who { s = $2; for (i = 3; i <= n + 1; i++) s = s "," $i; print s }' "$dir/$how.csv")
      [ "$got" = "$want" ] || printf ' %s: %s %s, expected %s;' "$who" "$how" "$got" "$want"
    done
  done
}
# all_skip_both N DIR: after judge_grade_twice, each student (correct, starter) whose N cells (the week's
# checkpoints) are not all SKIP, judged or linked, printed with ';' after it.
all_skip_both() {
  local want
  want=$(printf 'SKIP%.0s,' $(seq "$1")) && want=${want%,}
  cells_both "$1" "$2" correct="$want" starter="$want"
}
# cpu_first_cells N DIR WHO...: after judge_grade_twice, for a week whose first checkpoint runs on the CPU and whose
# other N-1 need a GPU: each WHO's N cells, judged and linked, must be the first the reference's full marks (WHO
# correct) or 0 (any other WHO), then SKIP, and the same both ways; prints each that is not, with ';' after it.
cpu_first_cells() {
  local n=$1 dir=$2 who how want skips got=() i
  shift 2
  skips=$(printf ',SKIP%.0s' $(seq $((n - 1))))
  for who in "$@"; do
    want=$([ "$who" = correct ] && echo "*$skips" || echo "0.00$skips")
    i=0
    for how in judged linked; do
      got[i]=$(awk -F, -v who="$who" -v n="$n" '$1 == who { s = $2; for (i = 3; i <= n + 1; i++) s = s "," $i; print s }' \
        "$dir/$how.csv")
      # shellcheck disable=SC2053
      [[ -n ${got[i]} && ${got[i]} == $want && ($who != correct || ${got[i]} != 0.00,*) && ${got[i]} != SKIP,* ]] ||
        printf ' %s: %s %s, expected %s;' "$who" $how "${got[i]}" "$want"
      i=$((i + 1))
    done
    [ "${got[0]}" = "${got[1]}" ] || printf ' %s: judged %s but linked %s;' "$who" "${got[0]}" "${got[1]}"
  done
}
# learner_runner_lacks DIR WEEK SYMBOL...: the runners the grader linked in the sandbox for the students correct
# and starter (after judge_grade_twice: its kept scratch under DIR/scratch/judged): prints each that is missing
# or lacks a SYMBOL (nm, text), with ';' after it.
learner_runner_lacks() {
  local dir=$1 week=$2 who r s
  shift 2
  for who in correct starter; do
    r=$dir/scratch/judged/$who/wb/build/$week/learner/judge-runner
    if [ ! -x "$r" ]; then printf ' %s: no learner judge-runner in the scratch build;' "$who"; continue; fi
    for s in "$@"; do nm "$r" | grep -q " T $s\$" || printf ' %s: the learner'"'"'s runner lacks %s;' "$who" "$s"; done
  done
}
# runners_hold WEEK SYMBOL...: the instructor's builds of the solution's and the starter's runners
# (build/WEEK/IMPL/judge-runner) each hold every SYMBOL (nm, text): prints each lack, with ';' after it.
runners_hold() {
  local week=$1 impl s
  shift
  for impl in solution starter; do
    for s in "$@"; do
      nm "$BUILD/$week/$impl/judge-runner" 2>/dev/null | grep -q " T $s\$" || printf ' the %s'"'"'s runner lacks %s;' $impl "$s"
    done
  done
}
# yard_runner_only NN "GIVEN..." "STUDENT...": build/instructor/judge-wNN-yard-runner, beside the judge,
# holds every GIVEN symbol (nm, text) and none of the STUDENT ones: prints what is wrong, with ';' after it.
yard_runner_only() {
  local y=$BUILD/instructor/judge-w$1-yard-runner s
  [ -x "$y" ] || { printf ' no %s beside the judge;' "$y"; return; }
  for s in $2; do nm "$y" | grep -q " T $s\$" || printf ' the yard runner lacks the given %s;' "$s"; done
  for s in $3; do nm "$y" | grep -q " T $s\$" && printf ' the yard runner holds the student'"'"'s %s;' "$s"; done
  return 0
}
# gemm_judged NN WEEK DIR "IDS" "SYMBOLS" WANT: after judge_grade_twice (DIR) for a phase 5 SGEMM week (weeks
# 21-24, instructor/judge_gemm.c), what each of their tests asks: the grader says it judges WEEK, leaving nothing
# to the test program; the learners' runners and the instructor's hold every SYMBOL (nm, text); the yard runner the
# four judges share (judge-gemm-yard-runner) holds none of them; judge-wNN --list is IDS (in order); the judge
# alone over both runners, plain and sandboxed, gives WANT (judge_alone_each); calibration without a GPU says the
# last of IDS (the speed checkpoint) was not run. Prints each that is not so, with ';' after it.
gemm_judged() {
  local nn=$1 week=$2 dir=$3 ids=$4 syms=$5 want=$6 y=$BUILD/instructor/judge-gemm-yard-runner s cal
  grep -q "$week: judged outside the student's process (--judge 1)\$" "$dir/judged.log" ||
    printf ' the grader did not say it judges %s, leaving nothing to the test program;' "$week"
  # shellcheck disable=SC2086
  learner_runner_lacks "$dir" "$week" $syms
  # shellcheck disable=SC2086
  runners_hold "$week" $syms
  [ -x "$y" ] || printf ' no %s beside the judge;' "$y"
  for s in $syms; do nm "$y" 2>/dev/null | grep -q " T $s\$" && printf ' the yard runner holds the student'"'"'s %s;' "$s"; done
  [ "$("$BUILD/instructor/judge-w$nn" --list | tr '\n' ' ')" = "$ids " ] ||
    printf ' judge-w%s --list: %s;' "$nn" "$("$BUILD/instructor/judge-w$nn" --list | tr '\n' ' ')"
  judge_alone_each "$nn" "$week" "$want" "$dir"
  cal=$(bash instructor/judge_calibrate.sh "$BUILD" "$week")
  [[ $cal == *"${ids##* } not run"* ]] || printf ' calibration of %s without a GPU: %s;' "$week" "$cal"
  return 0
}
# The grader's make arguments as mk/instructor.mk gives them (NVCC, ARCH, CHECK_DIR, SECCOMP).
grade_make_args() { $MAKE -s --no-print-directory --eval 'build/.grade-make-args: ; @echo $(GRADE_MAKE_ARGS)' build/.grade-make-args; }
# grading_or_skip LABEL: end the step with LABEL SKIP, and why, unless grading can run here
# (libarchive's headers, and a sandbox that works and reaches $BUILD).
grading_or_skip() {
  have_libarchive || { t_skip "$1" "libarchive's headers are missing"; t_end; }
  local why
  if ! why=$(mkdir -p "$BUILD" && sandbox_ok "$PWD/$BUILD"); then t_skip "$1" "$why"; t_end; fi
}
# sandbox_python LABEL: grading a Phase 7 week needs a python3 the sandbox's uid can run (the grader probes it
# and refuses the whole class otherwise): python3 on PATH when it and its base live under /usr, else
# /usr/bin/python3 put first on PATH (exported); with neither, the step ends with LABEL SKIP.
sandbox_python() {
  local pre p b
  pre=$(python3 -c 'import sys; print(sys.prefix, sys.base_prefix)' 2>/dev/null)
  read -r p b <<<"$pre"
  case $p in /usr | /usr/*) case $b in /usr | /usr/*) return 0 ;; esac ;; esac
  if [ -x /usr/bin/python3 ]; then PATH=/usr/bin:$PATH; export PATH; return 0; fi
  t_skip "$1" "no python3 under /usr for the sandbox to run (python3 on PATH: ${pre:-none})"
  t_end
}
# staged_judge_begin NN LABEL: for a staged judge's test (the judge alone, not yet used by the grader): end
# the step with LABEL SKIP unless the sandbox works here; else DIR (build/instructor/judge-wNN-test) made
# afresh and `make judge-wNN` built into it, ending the step with LABEL FAIL when it does not build.
# Sets log to DIR.
staged_judge_begin() {
  local why
  why=$(mkdir -p "$BUILD" && sandbox_ok "$PWD/$BUILD") || { t_skip "$2" "$why"; t_end; }
  log=$BUILD/instructor/judge-w$1-test
  rm -rf "$log" && mkdir -p "$log" && chmod 755 "$log"
  $MAKE -s "judge-w$1" >"$log/build.log" 2>&1 || { t_fail "$2" "judge-w$1 does not build (see $log/build.log)"; t_end; }
}
# judge_lists_uncalibrated NN WEEK "IDS" "SPEED-IDS": judge-wNN --list is IDS (in order), and calibration
# without a GPU says each of SPEED-IDS was not run; prints each that is not so, with ';' after it.
judge_lists_uncalibrated() {
  local got cal id
  got=$("$BUILD/instructor/judge-w$1" --list | tr '\n' ' ')
  [ "$got" = "$3 " ] || printf ' judge-w%s --list: %s;' "$1" "$got"
  cal=$(bash instructor/judge_calibrate.sh "$BUILD" "$2")
  for id in $4; do [[ $cal == *"$id not run"* ]] || printf ' calibration of %s without a GPU: %s;' "$2" "$cal"; done
  return 0
}

# greedy_w04 DIR: week 04's reference (saxpylib.cu, cli.cu, mytest.cu) in DIR, whose mt_check_saxpy runs
# 1100 SAXPYs it ignores before the reference's checks. Judged, each SAXPY it is handed is the judge's
# work: past 1024 in one call (W04_MT_MAX_SAXPYS) the call ends and w04.mytest fails, saying why; linked,
# its own process does the work and it passes (judge_w04.sh, slurm.sh). Status 0 when it was made.
greedy_w04() {
  mkdir -p "$1" && cp phase0/week04/solution/saxpylib.cu phase0/week04/solution/cli.cu phase0/week04/solution/mytest.cu "$1/" ||
    return 1
  sed -i 's/^int mt_check_saxpy(mt_saxpy_fn saxpy, uint64_t seed, FILE \*log)$/static int mt_honest(mt_saxpy_fn saxpy, uint64_t seed, FILE *log)/' "$1/mytest.cu"
  cat >>"$1/mytest.cu" <<'EOF2'
int mt_check_saxpy(mt_saxpy_fn saxpy, uint64_t seed, FILE *log)
{
    float x[4] = { 1, 2, 3, 4 }, y[4] = { 0, 0, 0, 0 };
    for (int k = 0; k < 1100; k++) (void)saxpy(0.5f, x, y, 4);
    return mt_honest(saxpy, seed, log);
}
EOF2
  grep -q 'static int mt_honest' "$1/mytest.cu"
}
