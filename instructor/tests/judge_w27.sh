#!/usr/bin/env bash
# instructor/tests/judge_w27.sh — week 27 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w27.c,
# judge_hgemm.c). Every checkpoint of week 27 needs a GPU but for
# w27.cutlass3's contract (cutlass3_hgemm's answers on NULL pointers, as
# the test's CPU case), whose failure stands without one: graded with
# --judge 1 (the runner linked in the sandbox from each student's three
# objects) the cells are those of the same class graded without it, the
# reference's all SKIP, the starter's w27.cutlass3 0 and the rest SKIP;
# the judge lists all five (none left to the linked test); the runners
# (the learners' in the sandbox too) hold the week's
# three functions, the yard runner beside the judge holds cublasGemmEx's
# call and week 26's reference hgemm_mma and none of the three; the judge
# by itself as a plain child and in the sandbox writes five SKIP records
# over the reference's runner, and over the starter's four SKIP and
# w27.cutlass3 FAIL (its shape_ok refuses the empty shapes the contract
# accepts); calibration without a GPU says both speed checkpoints were
# not run. Needs libarchive and a working bwrap. On a GPU: the commands in
# instructor/README.md's week 27 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w27

label="week 27 judged outside the student's process, without a GPU"
judged_week_begin 27 phase5/week27 "$label" phase5/week27/solution/*.cu
fns="hgemm_tiled cutlass_hgemm cutlass3_hgemm"
bad=
# the five checkpoints in week.txt's order: tiled tiled-speed cutlass cutlass3 cutlass3-speed; the
# starter's cutlass3 contract FAILs on the CPU, both ways
bad="$bad$(cells_both 5 "$log" correct=SKIP,SKIP,SKIP,SKIP,SKIP starter=SKIP,SKIP,SKIP,0.00,SKIP)"
grep -q "phase5/week27: judged outside the student's process (--judge 1)$" "$log/judged.log" ||
  bad="$bad the grader did not say it judges week 27, leaving nothing to the test program;"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" phase5/week27 $fns)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold phase5/week27 $fns)"
bad="$bad$(yard_runner_only 27 hgemm_mma "$fns")"
nm "$BUILD/instructor/judge-w27-yard-runner" | grep -q " U cublasGemmEx" ||
  bad="$bad the yard runner does not call cublasGemmEx;"
for s in $fns hgemm_mma; do
  nm "$BUILD/instructor/judge-w27" | grep -q " [TU] $s\$" && bad="$bad the judge links $s;"
done
# the judge by itself, plain and sandboxed: the reference's runner all SKIP, the starter's FAILs the contract
for how in plain sandbox; do
  for pair in solution=skip,skip,skip,skip,skip starter=skip,skip,skip,fail,skip; do
    impl=${pair%%=*} want=${pair#*=}
    got=$(judge_alone 27 phase5/week27 "$impl" $how "$log")
    [ "$got" = "$want" ] || bad="$bad judge-w27 over the $impl's runner ($how): $got, expected $want;"
  done
done
grep -q "w27.cutlass3 fail: M=0 N=8 K=8 is a shape the contract accepts" "$log/alone-w27-starter-plain.tsv.out" ||
  bad="$bad the starter's w27.cutlass3 failure does not name the first empty shape;"
bad="$bad$(judge_lists_uncalibrated 27 phase5/week27 "w27.tiled w27.tiled-speed w27.cutlass w27.cutlass3 w27.cutlass3-speed" "w27.tiled-speed w27.cutlass3-speed")"
if [ -z "$bad" ]; then t_pass "$label" "all five checkpoints listed by the judge, without a GPU judged and linked alike (the reference's all SKIP, the starter's w27.cutlass3 0 and the rest SKIP); the judge alone SKIP over the reference's runner and the starter's but w27.cutlass3's contract (FAIL), plain and sandboxed, the runners holding the week's three functions, the yard runner cuBLAS and week 26's reference alone, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
