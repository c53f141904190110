#!/usr/bin/env bash
# instructor/tests/judge.sh — the grader's --judge 1 path without a GPU
# (instructor/README.md, "The judge and the runner"): week 01 graded by
# build/instructor/judge-w01, the runner linked in the sandbox from each
# student's objects and started there, the record written by the judge
# beside the scratch workbook. Without a GPU the judge still checks
# devquery's peak formulas (CPU functions) through the runner, as the
# week's test does: the fixture `correct` is SKIP on every checkpoint, a
# submission of no files (the starter) FAILs w01.devquery. The same class
# graded without --judge is the control: the same cells. The lying runners
# are test_judge's (sandbox.sh). Needs libarchive and a working bwrap.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge

label="grade --judge 1: week 01 judged outside the student's process, without a GPU"
have_libarchive || { t_skip "$label" "libarchive's headers are missing"; t_end; }
if ! why=$(mkdir -p "$BUILD" && sandbox_ok "$PWD/$BUILD"); then t_skip "$label" "$why"; t_end; fi
log=$BUILD/instructor/judge-test
rm -rf "$log" && mkdir -p "$log/class/correct" "$log/class/starter/phase0/week01" "$log/scratch"
chmod 755 "$log" "$log/scratch"
cp -R instructor/fixtures/class/correct/. "$log/class/correct/"
touch "$log/class/starter/phase0/week01/notes.txt"
# loud: the correct files, but dq_peak_gbps (a CPU function the judge calls through the runner,
# GPU or not) prints 64 MiB: the runner's sandbox stops it at its output limit, and the feedback
# must say so in the linked test's words, not "early exit" (the judge only sees the runner go)
mkdir -p "$log/class/loud" && cp -R instructor/fixtures/class/correct/. "$log/class/loud/"
sed -i 's|^    return 2.0 \* mem_clock_khz|    { static char b[1 << 16]; memset(b, 120, sizeof b); for (int i = 0; i < 1024; i++) fwrite(b, 1, sizeof b, stdout); }\n&|' \
  "$log/class/loud/phase0/week01/devquery.cu"
grep -q fwrite "$log/class/loud/phase0/week01/devquery.cu" || { t_fail "$label" "loud's devquery.cu was not made"; t_end; }
if ! $MAKE -s judge-w01 "$GRADE_BIN" "$BUILD/phase0/week01/starter/test" >"$log/build.log" 2>&1; then
  tail -n 20 "$log/build.log"; t_fail "$label" "judge-w01 or the grader does not build (see $log/build.log)"; t_end
fi
# shellcheck disable=SC2046
grade() { WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$log/class" --weeks phase0/week01 --gradebook "$log/$1.csv" \
  --seed "$SEED" --limit 60 --jobs 2 --scratch "$log/scratch/$1" $(grade_make_args) "${@:2}" >"$log/$1.log" 2>&1; }
cells() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 "," $4 }' "$log/$1.csv"; }
mkdir -p "$log/scratch/judged" "$log/scratch/linked" && chmod 755 "$log/scratch/judged" "$log/scratch/linked"
grade judged --judge 1; grade linked
bad=
for who in correct starter; do
  want=$([ $who = correct ] && echo SKIP,SKIP,SKIP || echo 0.00,SKIP,SKIP)
  [ "$(cells judged $who)" = "$want" ] || bad="$bad $who: judged $(cells judged $who), expected $want;"
  [ "$(cells linked $who)" = "$want" ] || bad="$bad $who: without --judge $(cells linked $who), expected $want;"
done
grep -q "judged outside the student's process" "$log/judged.log" || bad="$bad the grader did not say it judges week 01;"
grep -q "dq_peak_gbps" "$log/judged-feedback/starter.md" 2>/dev/null || bad="$bad the starter's FAIL does not name dq_peak_gbps;"
for how in judged linked; do
  [ "$(cells $how loud)" = "0.00,SKIP,SKIP" ] || bad="$bad loud: $how $(cells $how loud), expected 0.00,SKIP,SKIP;"
  grep -q "output limit: the run printed too much" "$log/$how-feedback/loud.md" 2>/dev/null ||
    bad="$bad loud: the $how feedback does not say \"output limit\";"
done
# judge_calibrate.sh (run by make grade before a judged week 01): the reference's judged figure
# against this GPU's target, a warning under the 10 % margin; records written here, no GPU run
cal() { # ratio target -> the script's line for a passing record of that figure
  printf '#wb-results 2\nweek\tcheckpoint\tstatus\treason\tvalue\tunit\tyardstick\tyard_value\tratio\ttarget\tseed\tgpu\ttests\tfailed\tskipped\tdetail\tmessage\n' >"$log/cal.tsv"
  printf 'phase0/week01\tw01.vecadd-bw\tpass\t-\t3646\tGB/s\tCOPY\t4179\t%s\t%s\t1\tNVIDIA H200\t1\t0\t0\t-\t-\n' "$1" "$2" >>"$log/cal.tsv"
  JUDGE_CALIBRATE_RECORD=$log/cal.tsv bash instructor/judge_calibrate.sh "$BUILD"; }
c1=$(cal 0.873 0.79); c2=$(cal 0.873 0.85); c3=$(bash instructor/judge_calibrate.sh "$BUILD")
[[ $c1 == *"margin +11 %"* && $c1 != *WARNING* ]] || bad="$bad calibration at 0.873 against 0.79: '$c1';"
[[ $c2 == *WARNING*"under the 10 % margin"* ]] || bad="$bad calibration at 0.873 against 0.85 gave no warning: '$c2';"
[[ $c3 == *"not run"* ]] || bad="$bad calibration without a GPU: '$c3';"
if [ -z "$bad" ]; then t_pass "$label" "correct SKIP (no GPU), the starter FAILs devquery, loud is stopped at the output limit and told so, as without --judge"
else t_fail "$label" "$bad (see $log)"; fi
t_end
