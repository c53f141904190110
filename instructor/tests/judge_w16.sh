#!/usr/bin/env bash
# instructor/tests/judge_w16.sh — week 16 graded with its judge without a GPU
# (instructor/README.md, "The judge and the runner"; instructor/judge_w16.c).
# The week is judged by the grader (JUDGED_WEEKS): its class of two (the
# reference and the starter) graded without a GPU with --judge 1 and
# without gives the same cells (w16.slab full marks for the reference and
# 0 for the starter, the rest SKIP), and the grader says it judges the
# week and leaves the ten checkpoints on the student's own allocations to
# the test program. The judge lists the four checkpoints it forms
# (w16.zerocopy, w16.slab, w16.pipeline, w16.pipeline-speed); the runners
# hold the student's slab, zero-copy and pipeline functions and no results
# writer; the yard runner beside the judge holds the given yard_serial and
# w16_work and none of the student's functions, the judge none of them
# either; the judge by itself over the reference's and the starter's
# runners, as a plain child and in the sandbox: w16.slab (a CPU
# checkpoint, judged through a runner that opens no GPU) PASS over the
# reference's runner, 27 checks, and FAIL over the starter's (its
# slab_init carves no block: "capacity 0, expected 100" first), every
# other checkpoint SKIP, never PASS; calibration without a GPU says
# w16.pipeline-speed was not run. Needs libarchive and a working bwrap.
# On a GPU: the commands in instructor/README.md's week 16 entry.
. "$(dirname "$0")/lib.sh"
t_begin instructor-judge-w16

label="week 16 judged outside the student's process, without a GPU"
judged_week_begin 16 phase3/week16 "$label" phase3/week16/solution/*.cu
w=phase3/week16
fns="slab_init slab_create slab_alloc slab_free slab_capacity slab_in_use hm_alloc_pinned hm_device_ptr hm_zc_scale
  pipeline_run"
bad=
# the fourteen cells in week.txt's order: w16.slab full marks for the reference and 0 for the starter,
# every other SKIP without a GPU but the starter's w16.hostregister, 0 (the linked test's: the starter's
# hostregister_pin does not refuse an unaligned start before asking the driver); the same both ways
sk="SKIP,SKIP,SKIP,SKIP"
bad="$bad$(cells_both 14 "$log" "correct=$sk,10.00,SKIP,$sk,$sk" "starter=$sk,0.00,$sk,SKIP,0.00,SKIP,SKIP,SKIP")"
bad="$bad$(grader_says_judged 16 $w "w16.pool, w16.pool-speed, w16.pinned, w16.slab-device, w16.managed, w16.managed-speed, w16.hostregister, w16.hostregister-speed, w16.growbuf, w16.growbuf-speed")"
# shellcheck disable=SC2086
bad="$bad$(learner_runner_lacks "$log" $w $fns)"
# shellcheck disable=SC2086
bad="$bad$(runners_hold $w $fns)"
bad="$bad$(yard_runner_only 16 "yard_serial w16_work" "$fns")"
judge_syms=$(nm "$BUILD/instructor/judge-w16")
for s in $fns yard_serial; do grep -q " [TU] $s\$" <<<"$judge_syms" && bad="$bad the judge links $s;"; done
for r in "$BUILD"/$w/{solution,starter}/judge-runner; do
  nm "$r" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' && bad="$bad $r links a results writer or the test harness;"
done
# the judge by itself, plain and sandboxed: w16.slab's status, its checks and failures, the rest SKIP
for run in solution:plain:pass:0 solution:sandbox:pass:0 starter:plain:fail:some starter:sandbox:fail:some; do
  IFS=: read -r impl how slab failed <<<"$run"
  got=$(judge_alone 16 $w "$impl" "$how" "$log")
  [ "$got" = "skip,$slab,skip,skip" ] || bad="$bad judge-w16 over the $impl's runner ($how): $got, expected skip,$slab,skip,skip;"
  n=$(awk -F'\t' '$2 == "w16.slab" { print $13 "/" ($14 > 0 ? "some" : 0) }' "$log/alone-w16-$impl-$how.tsv")
  [ "$n" = "27/$failed" ] || bad="$bad the $impl's w16.slab ($how): tests/failed $n;"
  ! grep -q "$SEED" "$log/alone-w16-$impl-$how.tsv.out" || bad="$bad the class seed is in the $impl's output ($how);"
done
grep -q "w16.slab fail: block 1, align 1, 100 bytes at base+0: capacity 0, expected 100" \
  "$log/alone-w16-starter-plain.tsv.out" || bad="$bad the starter's w16.slab failure does not name the first layout;"
bad="$bad$(judge_lists_uncalibrated 16 $w "w16.zerocopy w16.slab w16.pipeline w16.pipeline-speed" "w16.pipeline-speed")"
if [ -z "$bad" ]; then t_pass "$label" "judged and linked cells alike, the ten checkpoints on the student's own allocations left to the linked test; four checkpoints listed; w16.slab PASS over the reference's runner (27 checks) and FAIL over the starter's, the GPU ones SKIP, plain and sandboxed; the runners holding the week's functions and no results writer, the yard runner the given yard_serial and none of them; calibration not run"
else t_fail "$label" "$bad (see $log)"; fi
t_end
