#!/usr/bin/env bash
# instructor/tests/judge_w27.sh — week 27's judge by itself without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w27.c,
# judge_hgemm.c). The judge is staged: written and tested here, not yet
# used by the grader (not in JUDGED_WEEKS), so this tests it alone, not
# against the grader. Every checkpoint of week 27 needs a GPU but for
# w27.cutlass3's contract (cutlass3_hgemm's answers on NULL pointers, as
# the test's CPU case), whose failure stands without one: the judge lists
# all five (none left to the linked test); the runners hold the week's
# three functions, the yard runner beside the judge holds cublasGemmEx's
# call and week 26's reference hgemm_mma and none of the three; the judge
# by itself as a plain child and in the sandbox writes five SKIP records
# over the reference's runner, and over the starter's four SKIP and
# w27.cutlass3 FAIL (its shape_ok refuses the empty shapes the contract
# accepts); calibration without a GPU says both speed checkpoints were
# not run. Needs a working bwrap. On a GPU: the commands in
# instructor/README.md's week 27 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w27

label="week 27's judge alone, without a GPU"
staged_judge_begin 27 "$label"
fns="hgemm_tiled cutlass_hgemm cutlass3_hgemm"
bad=
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
if [ -z "$bad" ]; then t_pass "$label" "all five checkpoints listed, without a GPU SKIP over the reference's runner and the starter's but w27.cutlass3's contract (FAIL), plain and sandboxed, the runners holding the week's three functions, the yard runner cuBLAS and week 26's reference alone, calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
