#!/usr/bin/env bash
# instructor/tests/judge_w21.sh — week 21's judge without a GPU (instructor/
# README.md, "The judge and the runner"; instructor/judge_w21.c). Its first
# checkpoint, w21.tflops, runs on the CPU (naive_gemm_tflops, a host
# function, called by a runner that opens no GPU): full marks for the
# reference, 0 for the starter and for `overflow` (the reference but for
# M * N * K in int, which the test's large cases catch), judged and linked
# alike; the other four need a GPU: SKIP, never PASS. Graded with --judge 1
# (the runner linked in the sandbox from each student's naive.o,
# coalesced.o and cublas_rm.o, the week's given support/yard_naive.o and
# cuBLAS, started there, the record written by the judge) the cells are
# those of the same class graded without it; the judge lists all five
# (none left to the linked test); the runners hold the week's functions and
# the given naive kernel, the yard runner beside the judge the given naive
# kernel and none of the student's; the judge by itself over the
# reference's and the starter's runners, as a plain child and in the
# sandbox, writes pass (reference) or fail (starter) and four SKIP;
# calibration without a GPU says w21.coalesced-speed was not run. Needs
# libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 21 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w21

label="week 21 judged outside the student's process, without a GPU"
grading_or_skip "$label"
log=$BUILD/instructor/judge-w21-test
c=$log/class
judge_class "$log" phase5/week21 phase5/week21/solution/*.cu
bad=
m=$c/overflow/phase5/week21
mkdir -p "$m" && cp "$c/correct/phase5/week21/"*.cu "$m/"
sed -i 's/return 2.0 \* (double)M \* (double)N \* (double)K \/ (ms \* 1e-3) \/ 1e12;/return 2.0 * (double)(M * N * K) \/ (ms * 1e-3) \/ 1e12;/' \
  "$m/naive.cu"
grep -q '(double)(M \* N \* K)' "$m/naive.cu" || bad="$bad overflow's naive.cu was not made;"
judge_grade_twice 21 phase5/week21 "$c" "$log" ||
  { t_fail "$label" "judge-w21 or the grader does not build (see $log/build.log)"; t_end; }
# the five checkpoints in week.txt's order: tflops (CPU), naive, coalesced, cublas, coalesced-speed
bad="$bad$(cpu_first_cells 5 "$log" correct starter overflow)"
grep -q "phase5/week21: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 21, leaving nothing to the test program;"
bad="$bad$(learner_runner_lacks "$log" phase5/week21 naive_gemm_tflops naive_sgemm coalesced_sgemm cublas_rm_sgemm \
  yard_naive_sgemm)"
bad="$bad$(runners_hold phase5/week21 naive_gemm_tflops naive_sgemm coalesced_sgemm cublas_rm_sgemm yard_naive_sgemm)"
y=$BUILD/instructor/judge-gemm-yard-runner
[ -x "$y" ] || bad="$bad no $y beside the judge;"
nm "$y" 2>/dev/null | grep -q " T yard_naive_sgemm\$" || bad="$bad the yard runner lacks the given yard_naive_sgemm;"
for s in naive_sgemm coalesced_sgemm cublas_rm_sgemm naive_gemm_tflops; do
  nm "$y" 2>/dev/null | grep -q " T $s\$" && bad="$bad the yard runner holds the student's $s;"
done
[ "$("$BUILD/instructor/judge-w21" --list | tr '\n' ' ')" = "w21.tflops w21.naive w21.coalesced w21.cublas w21.coalesced-speed " ] ||
  bad="$bad judge-w21 --list: $("$BUILD/instructor/judge-w21" --list | tr '\n' ' ');"
# the judge by itself: tflops judged through a runner that opens no GPU, the rest skip, plain and sandboxed
for impl in solution starter; do
  want=$([ $impl = solution ] && echo pass || echo fail),skip,skip,skip,skip
  for how in plain sandbox; do
    got=$(judge_alone 21 phase5/week21 $impl $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w21 over the $impl's runner ($how): $got, expected $want;"
  done
done
grep -q "naive_gemm_tflops(4096, 4096, 4096, 2.68) = 0," "$log/alone-w21-starter-plain.tsv.out" ||
  bad="$bad the starter's tflops FAIL does not name the figure;"
c21=$(bash instructor/judge_calibrate.sh "$BUILD" phase5/week21)
[[ $c21 == *"w21.coalesced-speed not run"* ]] || bad="$bad calibration of week 21 without a GPU: '$c21';"
if [ -z "$bad" ]; then t_pass "$label" "all five checkpoints listed by the judge; tflops judged on the CPU (reference full marks, starter and overflow 0), the rest SKIP without a GPU, judged and linked alike; the runners linked with the week's functions, the given naive kernel and cuBLAS, the yard runner with the given naive kernel alone; the judge alone the same, plain and sandboxed; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
