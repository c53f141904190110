#!/usr/bin/env bash
# instructor/tests/judge_w12.sh — week 12's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w12.c). All six of
# its checkpoints need a GPU, so without one each must be SKIP, never PASS:
# graded with --judge 1 (the runner linked in the sandbox from each
# student's ilp.o, graph.o and fuse.o and the week's given support objects,
# started there, the record written by the judge) the cells are those of
# the same class graded without it; the judge lists all six (none left to
# the linked test); the runners hold the given tiny_add their graph_create
# captures, and the yard runner beside the judge holds the given eager
# launches and three-kernel chain and none of the student's functions; the
# judge by itself over the reference's and the starter's runners, as a
# plain child and in the sandbox, writes six SKIP records; calibration
# without a GPU says each speed checkpoint was not run. Needs libarchive and
# a working bwrap. On a GPU: the commands at the end of instructor/
# README.md's week 12 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w12

label="week 12 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w12-test
c=$log/class
judge_class "$log" phase2/week12 phase2/week12/solution/*.cu
bad=
judge_grade_twice 12 phase2/week12 "$c" "$log" ||
  { t_fail "$label" "judge-w12 or the grader does not build (see $log/build.log)"; t_end; }
# the six checkpoints in week.txt's order: ilp ilp-bw graph graph-speed fuse fuse-speed
bad="$bad$(all_skip_both 6 "$log")"
grep -q "phase2/week12: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 12, leaving nothing to the test program;"
bad="$bad$(learner_runner_lacks "$log" phase2/week12 ilp_scale graph_create graph_launch fused_chain tiny_add)"
# the runners: the student's functions and the given tiny_add; the yard runner: the given code alone
bad="$bad$(runners_hold phase2/week12 tiny_add)"
bad="$bad$(yard_runner_only 12 "yard_tiny_eager yard_unfused_chain tiny_add" "ilp_scale graph_create graph_launch fused_chain")"
[ "$("$BUILD/instructor/judge-w12" --list | tr '\n' ' ')" = "w12.ilp w12.ilp-bw w12.graph w12.graph-speed w12.fuse w12.fuse-speed " ] ||
  bad="$bad judge-w12 --list: $("$BUILD/instructor/judge-w12" --list | tr '\n' ' ');"
# the judge by itself: six SKIP records, plain and sandboxed, whoever's runner
bad="$bad$(judge_alone_each 12 phase2/week12 skip,skip,skip,skip,skip,skip "$log")"
c12=$(bash instructor/judge_calibrate.sh "$BUILD" phase2/week12)
for id in w12.ilp-bw w12.graph-speed w12.fuse-speed; do
  [[ $c12 == *"$id not run"* ]] || bad="$bad calibration of $id without a GPU: '$c12';"
done
if [ -z "$bad" ]; then t_pass "$label" "all six checkpoints listed by the judge, SKIP without a GPU judged and linked alike, the runners linked with the given tiny_add, the yard runner the given eager launches and chain alone, the judge alone the same, plain and sandboxed, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
