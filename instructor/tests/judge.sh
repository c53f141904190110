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
# Week 03 the same way (build/instructor/judge-w03): its roofline checkpoint
# (CPU functions) is judged through the runner without a GPU, PASS for the
# reference, FAIL for the starter and for a rl_analyse that writes *p before
# refusing its arguments; its GPU checkpoints SKIP, never PASS; the judge
# is also run by itself over the reference's and the starter's runners, as
# a plain child and in the sandbox.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge

label="grade --judge 1: week 01 judged outside the student's process, without a GPU"
have_libarchive || { t_skip "$label" "libarchive's headers are missing"; t_end; }
if ! why=$(mkdir -p "$BUILD" && sandbox_ok "$PWD/$BUILD"); then t_skip "$label" "$why"; t_end; fi
log=$BUILD/instructor/judge-test
rm -rf "$log" && mkdir -p "$log/class/correct" "$log/class/starter/phase0/week01" "$log/scratch"
chmod 755 "$log" "$log/scratch"
cp -R instructor/fixtures/class/correct/. "$log/class/correct/"
put_starters phase0/week01 "$log/class/starter/phase0/week01"
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

# ---------------------------------------------------------------- week 03
label3="grade --judge 1: week 03 judged outside the student's process, without a GPU"
bad3=
c3d=$log/class3
mkdir -p "$c3d/correct/phase0/week03" "$c3d/starter/phase0/week03" "$c3d/touchy/phase0/week03" "$log/scratch/judged3" \
  "$log/scratch/linked3" && chmod 755 "$log/scratch/judged3" "$log/scratch/linked3"
cp phase0/week03/solution/copy.cu phase0/week03/solution/fmachain.cu phase0/week03/solution/roofline.cu "$c3d/correct/phase0/week03/"
put_starters phase0/week03 "$c3d/starter/phase0/week03"
# touchy: the reference, but rl_analyse writes *p before it refuses its arguments (roofline_edges: "*p must be left
# alone"): the judge must see the write through the runner, as the linked test sees it
cp "$c3d/correct/phase0/week03/"*.cu "$c3d/touchy/phase0/week03/"
sed -i 's|^    /\* written so that NaN fails every test|    p->fraction = 0;\n&|' "$c3d/touchy/phase0/week03/roofline.cu"
grep -q 'p->fraction = 0;' "$c3d/touchy/phase0/week03/roofline.cu" || bad3="touchy's roofline.cu was not made;"
if ! $MAKE -s judge-w03 "$BUILD/phase0/week03/starter/test" >"$log/build3.log" 2>&1; then
  tail -n 20 "$log/build3.log"; t_fail "$label3" "judge-w03 does not build (see $log/build3.log)"; t_end
fi
# shellcheck disable=SC2046
grade3() { WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$c3d" --weeks phase0/week03 --gradebook "$log/$1.csv" \
  --seed "$SEED" --limit 60 --jobs 2 --scratch "$log/scratch/$1" $(grade_make_args) "${@:2}" >"$log/$1.log" 2>&1; }
cells5() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 "," $4 "," $5 "," $6 }' "$log/$1.csv"; }
grade3 judged3 --judge 1; grade3 linked3
for who in correct starter touchy; do
  # w03.copy, copy-bw, fma, fma-peak SKIP (no GPU); w03.roofline a CPU checkpoint: the reference's full marks, else 0
  want=$([ $who = correct ] && echo "SKIP,SKIP,SKIP,SKIP,*" || echo "SKIP,SKIP,SKIP,SKIP,0.00")
  for how in judged3 linked3; do
    got=$(cells5 $how $who)
    # shellcheck disable=SC2053
    [[ $got == $want && ($who != correct || $got != *,0.00) ]] || bad3="$bad3 $who: $how $got, expected $want;"
  done
  [ "$(cells5 judged3 $who)" = "$(cells5 linked3 $who)" ] || bad3="$bad3 $who: judged $(cells5 judged3 $who) but linked $(cells5 linked3 $who);"
done
grep -q "phase0/week03: judged outside the student's process" "$log/judged3.log" || bad3="$bad3 the grader did not say it judges week 03;"
# A judge that forms fewer checkpoints than week.txt has (judge-wNN --list): the grader leaves the
# others to the linked test program, and says which. judge-w03 behind a wrapper that lists all but
# w03.roofline: the same cells as both gradings above, roofline's record the test program's.
j=$BUILD/instructor/judge-w03
if mv "$j" "$j.real"; then
  printf '#!/bin/sh\nif [ "$1" = --list ]; then "$0.real" --list | grep -vx w03.roofline; exit 0; fi\nexec "$0.real" "$@"\n' >"$j"
  chmod +x "$j"
  grade3 part3 --judge 1 --keep-scratch 1
  mv -f "$j.real" "$j"
  grep -q "phase0/week03: judged outside the student's process (--judge 1); left to its test program (the API cannot cross a process): w03.roofline$" \
    "$log/part3.log" || bad3="$bad3 the grader did not say w03.roofline is left to the test program;"
  for who in correct starter touchy; do
    [ "$(cells5 part3 $who)" = "$(cells5 linked3 $who)" ] || bad3="$bad3 $who: partly judged $(cells5 part3 $who) but linked $(cells5 linked3 $who);"
  done
  ls "$log"/scratch/part3/*/judge-results-*w03.roofline* >/dev/null 2>&1 && bad3="$bad3 w03.roofline was judged though the judge does not list it;"
  ls "$log"/scratch/part3/*/judge-results-*w03.copy-* >/dev/null 2>&1 || bad3="$bad3 the listed checkpoints were not judged;"
else
  bad3="$bad3 judge-w03 could not be wrapped;"
fi
grep -q "vecadd(1e6): bytes 0" "$log/judged3-feedback/starter.md" 2>/dev/null || bad3="$bad3 the starter's FAIL does not name the cost;"
grep -q "must be left alone" "$log/judged3-feedback/touchy.md" 2>/dev/null || bad3="$bad3 touchy's FAIL does not say *p must be left alone;"
# the judge by itself: the reference's runner and the starter's, plain and sandboxed; every GPU checkpoint SKIP
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 03 phase0/week03 $impl $how "$log")
    want=$([ $impl = solution ] && echo skip,skip,skip,skip,pass || echo skip,skip,skip,skip,fail)
    [ "$got" = "$want" ] || bad3="$bad3 judge-w03 over the $impl's runner ($how): $got, expected $want;"
  done
done
bad="$bad$bad3"
if [ -z "$bad" ]; then t_pass "$label" "correct SKIP (no GPU), the starter FAILs devquery, loud is stopped at the output limit and told so, as without --judge; week 03: the roofline judged through the runner (the reference PASSes, the starter and touchy FAIL, as linked), its GPU checkpoints SKIP, the judge alone the same, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
