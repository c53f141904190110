#!/usr/bin/env bash
# instructor/tests/judge_w29.sh — week 29 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w29.c).
# w29.limit is a CPU function, judged through a runner that opens no GPU:
# full marks for the reference, 0 for the starter; the three GPU
# checkpoints SKIP without a GPU, never PASS. The class: the reference and
# the starter, graded with --judge 1 (the runner linked in the sandbox from
# each student's naive.o and stable.o) and without it: the same cells. The
# judge lists all four (none left to the linked test); the runners hold
# the week's three functions and the judge none of them. The judge alone
# over the reference's and the starter's runners, as a plain child and in
# the sandbox: w29.limit PASS and FAIL, the other three SKIP. With
# JUDGE_W29_HOST_CHECKS=1 (the judge's own test only; the grader never sets
# it) the judge gives the runner host buffers and runs the three GPU
# checkpoints' cases too, where only a FAIL stands (a call that returns an
# error, as every kernel launch does here, leaves the checkpoint SKIP). So
# over the reference's runner w29.limit PASS, the other three SKIP, never
# PASS; over the starter's (its functions return cudaSuccess and write
# nothing, its naive_limit 0.0) all four FAIL, each for the reason a GPU
# run gives (the poison left in y where 1 is due; row 0 of the overflow
# case never written). Over judge-w29-host-runner (the week's functions on
# the CPU, instructor/judge_w29_host.c), the variable set, the judge's
# checks themselves are tested: right, no case fails; with each of its six
# bugs (an element off in the longest rows, the max subtracted in the naive
# version, the NaN rows left unwritten, a write past y or past the sums, a
# table of the test's limits) the checkpoint a GPU run would fail FAILs
# with the test's words, the others stay SKIP (PASS for w29.limit); without
# the variable the same bug leaves them SKIP. No speed checkpoint: nothing
# to calibrate. Needs libarchive and a working bwrap. On a GPU: the commands
# in instructor/README.md's week 29 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w29

label="week 29 judged outside the student's process, without a GPU"
w=phase6/week29
judged_week_begin 29 $w "$label" $w/solution/*.cu
$MAKE -s "$BUILD/instructor/judge-w29-host-runner" "$BUILD/$w/solution/judge-runner" "$BUILD/$w/starter/judge-runner" \
  >>"$log/build.log" 2>&1 || { t_fail "$label" "the runners do not build (see $log/build.log)"; t_end; }
bad=
# the four checkpoints in week.txt's order: limit (CPU) full marks for the reference, 0 for the starter, the rest SKIP
bad="$bad$(cpu_first_cells 4 "$log" correct starter)"
grep -q "$w: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 29, leaving nothing to the test program;"
grep -q "naive_limit(1) = 0.000000, expected ln(FLT_MAX / 1) = 88.722839" "$log/judged-feedback/starter.md" 2>/dev/null ||
  bad="$bad the starter's judged w29.limit FAIL does not name naive_limit(1);"
fns="naive_softmax naive_limit stable_softmax"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" $w $fns)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold $w $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w29" | grep -q " [TU] $s\$" && bad="$bad the judge links the student's $s;"
done
# the judge by itself, plain and sandboxed: w29.limit decided, the three GPU checkpoints SKIP
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip starter=fail,skip,skip,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 29 $w "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w29 over the $impl's runner ($how): $got, expected $want;"
  done
done
# with JUDGE_W29_HOST_CHECKS=1: the GPU checkpoints' cases on host buffers too, the starter FAILs all four
hc=$log/host-checks
mkdir -p "$hc" && chmod 755 "$hc"
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip starter=fail,fail,fail,fail; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(JUDGE_W29_HOST_CHECKS=1 judge_alone 29 $w "$impl" $how "$hc")
    [ "$got" = "$want" ] || bad="$bad judge-w29 over the $impl's runner ($how, host checks): $got, expected $want;"
  done
done
out=$hc/alone-w29-starter-plain.tsv.out
for want in "w29.limit fail: naive_limit(1) = 0.000000, expected ln(FLT_MAX / 1) = 88.722839" \
  "w29.naive fail: naive, rows=1 cols=1, x+0 y+0, logits in \[-10, 10\]: y\[0\] expected 1 got -\?nan (judged without a GPU" \
  "w29.overflow fail: naive, 8 rows x 1 cols: row 0 (small): 1 of 1 elements never written (still the poison)" \
  "w29.stable fail: stable, rows=1 cols=1, x+0 y+0: y\[0\] expected 1 got -\?nan (judged without a GPU"; do
  grep -q "$want" "$out" || bad="$bad the starter's record with host checks does not say '$want';"
done
grep -q "$SEED" "$out" && bad="$bad the judge's messages name the seed;"
# the judge over the week's functions on the CPU (judge-w29-host-runner, instructor code): right, no case
# fails (SKIP stands: every case ran, since the calls return cudaSuccess); each bug of judge_w29_host.c fails
# where a GPU run of the test would, the cases before it passed
host_run() { # BUG WANT PATTERN: the judge over the host runner with W29_HOST_BUG=BUG, host checks on
  local rec=$log/host-${1:-right}.tsv got
  JUDGE_W29_HOST_CHECKS=1 W29_HOST_BUG=$1 WB_NO_GPU=1 "$BUILD/instructor/judge-w29" --record "$rec" --checkpoint all --seed "$SEED" \
    "$BUILD/instructor/judge-w29-host-runner" >"$rec.out" 2>&1
  got=$(awk -F'\t' 'NR > 2 { printf "%s%s", sep, $3; sep = "," }' "$rec" 2>/dev/null)
  [ "$got" = "$2" ] || printf ' the host runner with bug "%s": %s, expected %s;' "$1" "$got" "$2"
  [ -z "$3" ] || grep -q -- "$3" "$rec.out" || printf ' the host runner with bug "%s": no "%s" in %s;' "$1" "$3" "$rec.out"
}
bad="$bad$(host_run "" pass,skip,skip,skip "")"
bad="$bad$(host_run long pass,fail,skip,fail "w29.stable fail: stable, rows=3 cols=100003, x+0 y+0: y\[100002\] expected")"
bad="$bad$(host_run maxsub pass,skip,fail,skip "row 1 (near +1e4): 1 of 1 elements right, expected none")"
bad="$bad$(host_run nanrows pass,skip,skip,fail "y\[4\], where NaN is expected, was never written")"
bad="$bad$(host_run outside pass,skip,skip,fail "w29.stable fail: stable, rows=1 cols=1, x+0 y+0: written outside y")"
bad="$bad$(host_run sums pass,fail,fail,skip "w29.naive fail: naive, rows=1 cols=1, x+0 y+0, logits in \[-10, 10\]: written outside sums")"
bad="$bad$(host_run table fail,skip,skip,skip "w29.limit fail: naive_limit([0-9]*) = 0.000000")"
# without the variable the same bug's GPU checkpoints are SKIP, as every judge's without a GPU
rec=$log/host-long-off.tsv
W29_HOST_BUG=long WB_NO_GPU=1 "$BUILD/instructor/judge-w29" --record "$rec" --checkpoint all --seed "$SEED" \
  "$BUILD/instructor/judge-w29-host-runner" >"$rec.out" 2>&1
got=$(awk -F'\t' 'NR > 2 { printf "%s%s", sep, $3; sep = "," }' "$rec" 2>/dev/null)
[ "$got" = pass,skip,skip,skip ] || bad="$bad the host runner with bug \"long\", no host checks: $got, expected pass,skip,skip,skip;"
# The runner's environment holds no secret of the judge's: a reference whose naive_limit answers wrong
# when WB_SEED= or CK_RUN_CASE= is among its process's environment strings (read off the stack upward,
# no getenv or environ for the object check to see, as a determined student would: the hidden seed,
# encoded in a wrong result, would reach the feedback) keeps its full marks when judged.
ec=$log/envclass
rm -rf "$ec" && mkdir -p "$ec/class/envprobe/$w" "$ec/scratch" && chmod 755 "$ec" "$ec/scratch" &&
  cp $w/solution/stable.cu "$ec/class/envprobe/$w/" &&
  awk '/^double naive_limit\(int cols\)/ { while ((getline l < probe) > 0) print l }
       /return log\(\(double\)FLT_MAX\) - log\(\(double\)cols\);/ { sub(/return /, "return told() ? 0.0 : ") } { print }' \
    probe=instructor/fixtures/envprobe.inc $w/solution/naive.cu > "$ec/class/envprobe/$w/naive.cu"
WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$ec/class" --weeks $w --gradebook "$ec/g.csv" --seed "$SEED" --limit 60 \
  --jobs 1 --scratch "$ec/scratch" $(grade_make_args) --judge 1 >"$ec/log" 2>&1
got=$(awk -F, '$1 == "envprobe" { print $2 }' "$ec/g.csv" 2>/dev/null)
[ "$got" = "10.00" ] || bad="$bad envprobe (answers wrong when the runner's environment names the seed or the checkpoint): w29.limit '$got', expected 10.00 (see $ec);"
# basicfile (instructor/fixtures/basicfile.inc): a wrong naive_limit that forges a record of four passes
# through std::__basic_file and stops the test program's runner with junk on its pipe: linked (the
# record's route) it earns nothing, the object check naming the C++ file access
bc=$log/bfclass
rm -rf "$bc" && mkdir -p "$bc/class/basicfile/$w" "$bc/scratch" && chmod 755 "$bc" "$bc/scratch" &&
  cp $w/solution/stable.cu "$bc/class/basicfile/$w/" &&
  { sed 's/^double naive_limit(int cols)$/static double real_limit(int cols)/' $w/solution/naive.cu;
    cat instructor/fixtures/basicfile.inc; } > "$bc/class/basicfile/$w/naive.cu"
grep -q '^static double real_limit' "$bc/class/basicfile/$w/naive.cu" || bad="$bad basicfile's naive.cu was not made;"
WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$bc/class" --weeks $w --gradebook "$bc/g.csv" --seed "$SEED" --limit 60 \
  --jobs 1 --scratch "$bc/scratch" $(grade_make_args) --judge 0 >"$bc/log" 2>&1
got=$(awk -F, '$1 == "basicfile" { print $2 }' "$bc/g.csv" 2>/dev/null)
[ "$got" = "0.00" ] || bad="$bad basicfile (a record forged through std::__basic_file, linked): w29.limit '$got', expected 0.00 (see $bc);"
grep -q "12__basic_file.*C++ file or filesystem access" "$bc/log" || bad="$bad basicfile: the object check did not name std::__basic_file (see $bc/log);"
bad="$bad$(judge_lists_uncalibrated 29 $w "w29.limit w29.naive w29.overflow w29.stable" "")"
if [ -z "$bad" ]; then t_pass "$label" "all four checkpoints listed by the judge; w29.limit judged through the runner (the reference full marks, the starter 0), the three GPU ones SKIP, judged and linked alike; the judge alone the same, plain and sandboxed; with JUDGE_W29_HOST_CHECKS=1 the starter FAILs all four (its GPU checkpoints' calls claim cudaSuccess on host buffers and leave the poison), over the week's functions on the CPU no case fails and each of six bugs fails where a GPU run would; the runners hold the week's three functions, the judge none"
else t_fail "$label" "$bad (see $log)"; fi
t_end
