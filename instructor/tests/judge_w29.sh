#!/usr/bin/env bash
# instructor/tests/judge_w29.sh — week 29's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w29.c).
# The judge is staged: written and tested here, not yet used by the grader
# (not in JUDGED_WEEKS), so this tests it alone, not against the grader. It
# lists all four checkpoints (none left to the linked test); the runners
# hold the week's three functions and the judge none of them. Without a GPU
# the judge gives the runner host buffers: w29.limit (a CPU function) is
# judged in full, and the three GPU checkpoints' cases run too, where only a
# FAIL stands (a call that returns an error, as every kernel launch does
# here, leaves the checkpoint SKIP). So over the reference's runner, as a
# plain child and in the sandbox: w29.limit PASS, the other three SKIP,
# never PASS; over the starter's (its functions return cudaSuccess and
# write nothing, its naive_limit 0.0): all four FAIL, each for the reason
# a GPU run gives (the poison left in y where 1 is due; row 0 of the
# overflow case never written). Over judge-w29-host-runner (the week's
# functions on the CPU, instructor/judge_w29_host.c) the judge's checks
# themselves are tested: right, no case fails; with each of its six bugs
# (an element off in the longest rows, the max subtracted in the naive
# version, the NaN rows left unwritten, a write past y or past the sums, a
# table of the test's limits) the checkpoint a GPU run would fail FAILs
# with the test's words, the others stay SKIP (PASS for w29.limit). No
# speed checkpoint: nothing to calibrate. Needs a working bwrap. On a GPU: the commands in
# instructor/README.md's week 29 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w29

label="week 29's judge alone, without a GPU"
staged_judge_begin 29 "$label"
fns="naive_softmax naive_limit stable_softmax"
bad=
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase6/week29 $fns)"
for s in $fns; do
  nm "$BUILD/instructor/judge-w29" | grep -q " [TU] $s\$" && bad="$bad the judge links the student's $s;"
done
# the judge by itself, plain and sandboxed: the reference's runner PASS then SKIP, the starter's FAIL everywhere
for how in plain sandbox; do
  for pair in solution=pass,skip,skip,skip starter=fail,fail,fail,fail; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 29 phase6/week29 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w29 over the $impl's runner ($how): $got, expected $want;"
  done
done
out=$log/alone-w29-starter-plain.tsv.out
for want in "w29.limit fail: naive_limit(1) = 0.000000, expected ln(FLT_MAX / 1) = 88.722839" \
  "w29.naive fail: naive, rows=1 cols=1, x+0 y+0, logits in \[-10, 10\]: y\[0\] expected 1 got -\?nan (judged without a GPU" \
  "w29.overflow fail: naive, 8 rows x 1 cols: row 0 (small): 1 of 1 elements never written (still the poison)" \
  "w29.stable fail: stable, rows=1 cols=1, x+0 y+0: y\[0\] expected 1 got -\?nan (judged without a GPU"; do
  grep -q "$want" "$out" || bad="$bad the starter's record does not say '$want';"
done
grep -q "$SEED" "$out" && bad="$bad the judge's messages name the seed;"
# the judge over the week's functions on the CPU (judge-w29-host-runner, instructor code): right, no case
# fails (SKIP stands: every case ran, since the calls return cudaSuccess); each bug of judge_w29_host.c fails
# where a GPU run of the test would, the cases before it passed
host_run() { # BUG WANT PATTERN: the judge over the host runner with W29_HOST_BUG=BUG
  local rec=$log/host-${1:-right}.tsv got
  W29_HOST_BUG=$1 WB_NO_GPU=1 "$BUILD/instructor/judge-w29" --record "$rec" --checkpoint all --seed "$SEED" \
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
bad="$bad$(judge_lists_uncalibrated 29 phase6/week29 "w29.limit w29.naive w29.overflow w29.stable" "")"
if [ -z "$bad" ]; then t_pass "$label" "all four checkpoints listed; without a GPU the reference's runner PASS w29.limit and SKIP the rest, the starter's FAIL all four (its GPU checkpoints' calls claim cudaSuccess on host buffers and leave the poison), plain and sandboxed; the runners hold the week's three functions, the judge none; over the week's functions on the CPU no case fails, and each of six bugs fails where a GPU run would"
else t_fail "$label" "$bad (see $log)"; fi
t_end
