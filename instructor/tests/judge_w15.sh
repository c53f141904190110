#!/usr/bin/env bash
# instructor/tests/judge_w15.sh — week 15 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w15.c).
# w15.traffic is a CPU checkpoint (the student's traffic_bytes, called by
# the runner, its figures compared by the judge): judged without a GPU, full
# marks for the reference and 0 for the starter; every other checkpoint
# needs a GPU and must be SKIP, never PASS. The class: the reference, the
# starter and minus (the reference but for traffic_bytes of a version that
# does not exist: 0, not -1; the judge must ask what the test asks), graded
# with --judge 1 (the runner linked in the sandbox from
# each student's objects and the week's given support/yard_unfused.o) and
# without it: the same cells. The judge lists all eleven checkpoints (none
# left to the linked test). The judge by itself over the reference's and
# the starter's runners, plain and in the sandbox: traffic pass and fail,
# the rest skip. Calibration without a GPU says the four speed checkpoints
# were not run. Needs libarchive and a working bwrap. On a GPU: the
# commands in instructor/README.md's week 15 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w15

label="week 15 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w15-test
c=$log/class
judge_class "$log" phase3/week15 phase3/week15/solution/*.cu
bad=
m=$c/minus/phase3/week15
mkdir -p "$m" && cp "$c/correct/phase3/week15/"*.cu "$m/"
sed -i 's/if (fused != 0 \&\& fused != 1) return -1;/if (fused != 0 \&\& fused != 1) return 0;/' "$m/traffic.cu"
grep -q 'fused != 1) return 0;' "$m/traffic.cu" || bad="$bad minus's traffic.cu was not made;"
judge_grade_twice 15 phase3/week15 "$c" "$log" ||
  { t_fail "$label" "judge-w15 or the grader does not build (see $log/build.log)"; t_end; }
# the eleven checkpoints in week.txt's order: traffic, then gelu, l2norm, softmax and smooth each with its
# speed checkpoint, linear, normalize; traffic (CPU) full marks for the reference, 0 for the others, the rest SKIP
bad="$bad$(cpu_first_cells 11 "$log" correct starter minus)"
grep -q "a chain or version that does not exist must give -1" "$log/judged-feedback/minus.md" 2>/dev/null ||
  bad="$bad minus's traffic FAIL does not say a version that does not exist gives -1;"
grep -q "phase3/week15: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 15, leaving nothing to the test program;"
# the learner's runners hold the student's functions and the week's given chains
bad="$bad$(learner_runner_lacks "$log" phase3/week15 traffic_bytes gelu_chain_fused norm_l2 normalize_fused softmax_fused \
  smooth_fused linear_sgemm_bias_relu yard_gelu_chain_unfused)"
want_list="w15.traffic w15.gelu w15.gelu-speed w15.l2norm w15.l2norm-speed w15.softmax w15.softmax-speed w15.smooth"
want_list="$want_list w15.smooth-speed w15.linear w15.normalize "
[ "$("$BUILD/instructor/judge-w15" --list | tr '\n' ' ')" = "$want_list" ] ||
  bad="$bad judge-w15 --list: $("$BUILD/instructor/judge-w15" --list | tr '\n' ' ');"
# the judge by itself: traffic judged through a runner that opens no GPU, the rest skip, plain and sandboxed
skips=skip,skip,skip,skip,skip,skip,skip,skip,skip,skip
for impl in solution starter; do
  want=$([ $impl = solution ] && echo pass || echo fail),$skips
  for how in plain sandbox; do
    got=$(judge_alone 15 phase3/week15 $impl $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w15 over the $impl's runner ($how): $got, expected $want;"
  done
done
grep -q "traffic_bytes says 0 bytes an element" "$log/alone-w15-starter-plain.tsv.out" ||
  bad="$bad the starter's traffic FAIL does not name the figure;"
c15=$(bash instructor/judge_calibrate.sh "$BUILD" phase3/week15)
for id in w15.gelu-speed w15.l2norm-speed w15.softmax-speed w15.smooth-speed; do
  [[ $c15 == *"$id not run"* ]] || bad="$bad calibration of week 15 without a GPU: '$c15';"
done
if [ -z "$bad" ]; then t_pass "$label" "all eleven checkpoints listed by the judge; traffic judged through the runner (the reference full marks, the starter and minus 0), every GPU checkpoint SKIP, judged and linked alike; the learner's runners hold the week's functions and given chains; the judge alone the same, plain and sandboxed; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
