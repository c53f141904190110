#!/usr/bin/env bash
# instructor/tests/judge_w07.sh — week 07 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; build/instructor/judge-w07).
# Week 07 has no CPU checkpoint: without a GPU every checkpoint the judge
# lists is SKIP, never PASS, graded with --judge 1 as without it (the
# same cells, for the reference and the starter). judge-w07 --list names
# all ten (none left to the test program). The judge by itself over the
# reference's and the starter's runners, plain and in the sandbox: every
# checkpoint SKIP.
# Needs libarchive and a working bwrap.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w07

label="grade --judge 1: week 07 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w07-test
rm -rf "$log" && mkdir -p "$log/scratch/judged" "$log/scratch/linked" && chmod 755 "$log" "$log/scratch" "$log/scratch/judged" "$log/scratch/linked"
c=$log/class
bad=
mkdir -p "$c/correct/phase1/week07" "$c/starter/phase1/week07"
cp phase1/week07/solution/*.cu "$c/correct/phase1/week07/"
touch "$c/starter/phase1/week07/notes.txt"
if ! $MAKE -s judge-w07 "$GRADE_BIN" "$BUILD/phase1/week07/starter/test" >"$log/build.log" 2>&1; then
  tail -n 20 "$log/build.log"; t_fail "$label" "judge-w07 or the grader does not build (see $log/build.log)"; t_end
fi
# shellcheck disable=SC2046
grade() { WB_NO_GPU=1 "$GRADE_BIN" --root . --submissions "$c" --weeks phase1/week07 --gradebook "$log/$1.csv" \
  --seed "$SEED" --limit 60 --jobs 2 --scratch "$log/scratch/$1" $(grade_make_args) "${@:2}" >"$log/$1.log" 2>&1; }
# the ten checkpoints in week.txt's order: reduce reduce-bw scan scan-bw hist hist-bw compact keycount keycount-speed matmul
cells() { awk -F, -v who="$2" '$1 == who { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 }' "$log/$1.csv"; }
grade judged --judge 1; grade linked
want="SKIP,SKIP,SKIP,SKIP,SKIP,SKIP,SKIP,SKIP,SKIP,SKIP"
for who in correct starter; do
  for how in judged linked; do
    got=$(cells $how $who)
    [ "$got" = "$want" ] || bad="$bad $who: $how $got, expected $want;"
  done
done
grep -q "phase1/week07: judged outside the student's process (--judge 1)$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 07 (and leaves none of it to the test program);"
# the judge by itself: the reference's runner and the starter's, plain and sandboxed; every checkpoint SKIP
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 07 phase1/week07 $impl $how "$log")
    [ "$got" = "skip,skip,skip,skip,skip,skip,skip,skip,skip,skip" ] || bad="$bad judge-w07 over the $impl's runner ($how): $got, expected ten skip;"
  done
done
[ "$("$BUILD/instructor/judge-w07" --list | tr '\n' ' ')" = "w07.reduce w07.reduce-bw w07.scan w07.scan-bw w07.hist w07.hist-bw w07.compact w07.keycount w07.keycount-speed w07.matmul " ] ||
  bad="$bad judge-w07 --list: $("$BUILD/instructor/judge-w07" --list | tr '\n' ' ');"
c7=$(bash instructor/judge_calibrate.sh "$BUILD" phase1/week07)
[[ $c7 == *"w07.reduce-bw not run"*"w07.scan-bw not run"*"w07.hist-bw not run"*"w07.keycount-speed not run"* ]] || bad="$bad calibration of week 07 without a GPU: '$c7';"
if [ -z "$bad" ]; then t_pass "$label" "every checkpoint the judge lists SKIPs without a GPU, judged as linked, for the reference and the starter, none left to the test program; the judge alone the same, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
