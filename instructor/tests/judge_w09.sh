#!/usr/bin/env bash
# instructor/tests/judge_w09.sh — week 09 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; build/instructor/judge-w09).
# Its CPU checkpoint, w09.intensity, is judged through the runner with or
# without a GPU (w09_checks.h's two checks on the student's functions, called
# by the runner). The class: the reference (PASS), the starter (FAIL) and
# ridge (the reference with intensity_memory_bound's < made <=: a kernel at
# the ridge point counted memory-bound, so w09.intensity FAILs). Graded with
# --judge 1 and without it: the same cells. The grader says which checkpoint
# it leaves to the test program (w09.plot: judge-w09 --list does not name
# it). The judge by itself over the reference's and the starter's runners,
# plain and in the sandbox: every GPU checkpoint SKIP, never PASS. Needs
# libarchive and a working bwrap.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w09

label="grade --judge 1: week 09 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w09-test
rm -rf "$log" && mkdir -p "$log/scratch/judged" "$log/scratch/linked" && chmod 755 "$log" "$log/scratch" "$log/scratch/judged" "$log/scratch/linked"
c=$log/class
w=phase2/week09
bad=
mkdir -p "$c/correct/$w" "$c/starter/$w" "$c/ridge/$w"
cp $w/solution/intensity.cu $w/solution/sweep.cu "$c/correct/$w/"
put_starters "$w" "$c/starter/$w"
cp "$c/correct/$w/"*.cu "$c/ridge/$w/"
sed -i 's/return ai < intensity_ridge(gbps, peak_gflops);/return ai <= intensity_ridge(gbps, peak_gflops);/' "$c/ridge/$w/intensity.cu"
grep -q 'ai <= intensity_ridge' "$c/ridge/$w/intensity.cu" || bad="$bad ridge's intensity.cu was not made;"
judge_grade_twice 09 $w "$c" "$log" ||
  { t_fail "$label" "judge-w09 or the grader does not build (see $log/build.log)"; t_end; }
# the five checkpoints in week.txt's order: intensity sweep roof-low roof-high plot; the GPU checkpoints SKIP,
# intensity (CPU) full marks for the reference, 0 for the others
bad="$bad$(cpu_first_cells 5 "$log" correct starter ridge)"
grep -q "$w: judged outside the student's process (--judge 1); left to its test program (.*): w09.plot$" \
  "$log/judged.log" || bad="$bad the grader did not say it judges week 09 and leaves w09.plot to the test program;"
grep -q "intensity_memory_bound(20, 3000, 60000) = 1, expected 0" "$log/judged-feedback/ridge.md" 2>/dev/null ||
  bad="$bad ridge's FAIL does not name the ridge point's bound;"
grep -q "intensity_of(10, 4) = 0, expected 2.5" "$log/judged-feedback/starter.md" 2>/dev/null ||
  bad="$bad the starter's FAIL does not name intensity_of;"
# the judge by itself: the reference's runner and the starter's, plain and sandboxed; every GPU checkpoint SKIP
for impl in solution starter; do
  for how in plain sandbox; do
    got=$(judge_alone 09 $w $impl $how "$log")
    want=$([ $impl = solution ] && echo pass,skip,skip,skip || echo fail,skip,skip,skip)
    [ "$got" = "$want" ] || bad="$bad judge-w09 over the $impl's runner ($how): $got, expected $want;"
  done
done
[ "$("$BUILD/instructor/judge-w09" --list | tr '\n' ' ')" = "w09.intensity w09.sweep w09.roof-low w09.roof-high " ] ||
  bad="$bad judge-w09 --list: $("$BUILD/instructor/judge-w09" --list | tr '\n' ' ');"
c9=$(bash instructor/judge_calibrate.sh "$BUILD" $w)
[[ $c9 == *"w09.roof-low not run"*"w09.roof-high not run"* ]] || bad="$bad calibration of week 09 without a GPU: '$c9';"
if [ -z "$bad" ]; then t_pass "$label" "intensity judged through the runner (the reference PASSes; the starter and a <= at the ridge FAIL, as linked), sweep, roof-low and roof-high SKIP, plot left to the test program; the judge alone the same, plain and sandboxed"
else t_fail "$label" "$bad (see $log)"; fi
t_end
