#!/usr/bin/env bash
# instructor/judge_calibrate.sh BUILD [WEEK...] — before a week with a judge
# is graded with it (JUDGE=1, make grade's default): the week's judge over
# the reference's runner (the instructor's own code, started as a plain
# child), once for each of the week's speed checkpoints, on this host's GPU.
# It prints the reference's judged figure against this GPU's target and
# warns when that leaves less than the workbook's 10 % margin: the judge
# times through a runner, and its figure for the reference has been lower
# than the linked test's (on an H200, before COPY went through the yard
# runner: week 01 0.87-0.89 of COPY against 1.04, week 03's copy 0.81;
# since: 1.04 and 1.01, fma-peak 0.90), so on a GPU whose target
# was set from the linked test, correct work could lose speed credit. It
# never stops the grading; the instructor decides (JUDGE=0, or a target for
# this GPU model in week.txt, AUTHORING.md "Speed targets").
# WEEK: phase0/week01 (the default), phase0/week03, phase0/week04, phase1/week05,
# phase1/week06, phase1/week07, phase2/week09, phase2/week10, phase2/week11, phase2/week12, phase3/week13,
# phase3/week14 to week16, phase4/week17 to week20, phase5/week21 to week28, phase6/week30 to
# week32, phase6/week34 to week38, phase5/week53 to week56, phase6/week57, phase6/week58 or phase6/week60
# to week62
# (w11.polyt-speed: against the given kernel, which the judge times itself through its yard runner, not
# COPY; week 07's against CUB and the given naive key count, week 10's w10.volkov-speed against the given
# full-occupancy kernel, week 12's w12.graph-speed and w12.fuse-speed against the given eager launches and
# three-kernel chain, the same way; week 13's w13.shfl-cub and w13.scan-speed against CUB; weeks 22's, 23's
# and 24's against cuBLAS FP32, pedantic, week 21's against the reference naive kernel; week 26's
# w26.mma-speed and w26.tc-wins against cublasGemmEx and the given FP32 CUDA-core GEMM, week 25's
# w25.wmma-speed against cublasGemmEx, the same way; week 19's w19.nbody-peak against the FP32 datasheet
# peak, a constant of the GPU, as w03.fma-peak; week 28's w28.fused-speed against cuBLASLt's RELU_BIAS and
# week 27's w27.tiled-speed and w27.cutlass3-speed against week 26's reference kernel and cublasGemmEx,
# the same way as week 26's; week 30's w30.speed against COPY and w30.cudnn against cudnnSoftmaxForward,
# the worst of six row lengths, each timed through its yard runner the same way; week 31's
# w31.layernorm-bw and w31.rmsnorm-bw against COPY, the slowest of four hidden sizes; week 32's
# w32.dx-bw and w32.dgb-bw against COPY, the worst of three widths; week 34's w34.softmax-bw, week 35's
# w35.dropout-bw and week 36's three against COPY; week 37's w37.flash-speed against the given cuBLAS
# attention and week 38's w38.fwd-speed against cuDNN's fused attention, each through its yard runner;
# week 53's w53.tma-copy-bw against COPY; week 62's w62.fwd-speed against cuDNN's fused attention through
# week 38's yard runner, the lower ratio of its non-causal and causal shapes; week 17's w17.conv-bw and
# w17.pipeline-speed against COPY and w17.conv-speed against cuDNN's fastest convolution algorithm through
# its yard runner; week 14's w14.tf32-speed against cuBLAS in TF32 mode and
# w14.strided-speed against a loop of cublasSgemm, through its yard runner, and w14.sort-speed against
# CUB's all-bits SortPairs through the same yard runner; week 18's
# w18.layer-speed and w18.bf16-speed against cuBLASLt's fused layer (RELU_BIAS epilogue, FP32 and BF16) through
# its yard runner; week 20's w20.standardize-speed, staged, against XFER (the copy up and back down between the
# same pinned host buffers) through its yard runner; week 16's w16.pipeline-speed, staged, against SERIAL (the
# given yard_serial, the same chunks on one stream) through its yard runner).
b=${1:-build}
shift
[ $# -gt 0 ] || set -- phase0/week01
# A Slurm grading (make grade SCHEDULER=slurm sets JUDGE_CALIBRATE_SLURM=1): its tasks judge on the
# nodes' GPUs, not this host's (a login node's, often none), so a calibration here would measure another
# GPU, or say "no GPU here; every GPU checkpoint is SKIP" of a grading whose checkpoints run on GPUs.
# Said once, with how to calibrate on a node instead.
if [ "${JUDGE_CALIBRATE_SLURM:-}" = 1 ]; then
  echo "judge calibration: not run on this host (SCHEDULER=slurm: the tasks judge on the nodes' GPUs, not" \
       "this host's); to calibrate on a node: srun --gres=gpu:1 [your SBATCH options] bash instructor/judge_calibrate.sh $b $*"
  exit 0
fi
speed_ids() { case $1 in
  phase0/week01) echo w01.vecadd-bw ;;
  phase0/week03) echo w03.copy-bw w03.fma-peak ;;
  phase0/week04) echo w04.saxpy-bw ;;
  phase1/week05) echo w05.gridstride-bw ;;
  phase1/week06) echo w06.transpose-bw ;;
  phase1/week07) echo w07.reduce-bw w07.scan-bw w07.hist-bw w07.keycount-speed ;;
  phase2/week09) echo w09.roof-low w09.roof-high ;;
  phase2/week11) echo w11.polyt-speed ;;
  phase2/week12) echo w12.ilp-bw w12.graph-speed w12.fuse-speed ;;
  phase2/week10) echo w10.volkov-speed ;;
  phase3/week15) echo w15.gelu-speed w15.l2norm-speed w15.softmax-speed w15.smooth-speed ;;
  phase3/week16) echo w16.pipeline-speed ;;
  phase3/week13) echo w13.shfl-speed w13.shfl-cub w13.reduce-bw w13.gemv-bw w13.scan-speed ;;
  phase5/week26) echo w26.mma-speed w26.tc-wins ;;
  phase5/week25) echo w25.wmma-speed ;;
  phase5/week23) echo w23.tile2d-speed ;;
  phase5/week24) echo w24.warptile-speed ;;
  phase5/week22) echo w22.tiled-speed ;;
  phase5/week21) echo w21.coalesced-speed ;;
  phase4/week19) echo w19.nbody-peak w19.stencil-speed ;;
  phase5/week28) echo w28.fused-speed ;;
  phase5/week27) echo w27.tiled-speed w27.cutlass3-speed ;;
  phase6/week30) echo w30.speed w30.cudnn ;;
  phase6/week31) echo w31.layernorm-bw w31.rmsnorm-bw ;;
  phase6/week32) echo w32.dx-bw w32.dgb-bw ;;
  phase6/week34) echo w34.softmax-bw ;;
  phase6/week35) echo w35.dropout-bw ;;
  phase6/week36) echo w36.smx-speed w36.split-speed w36.model ;;
  phase6/week37) echo w37.flash-speed ;;
  phase6/week38) echo w38.fwd-speed ;;
  phase5/week53) echo w53.tma-copy-bw ;;
  phase6/week57) echo w57.decode-speed ;;
  phase6/week60) echo w60.fp8-speed ;;
  phase6/week58) echo w58.decode-speed w58.prefill-speed ;;
  phase5/week54) echo w54.gemm-speed ;;
  phase5/week55) echo w55.gemm-speed ;;
  phase5/week56) echo w56.multicast-bw ;;
  phase6/week61) echo w61.sparse-speed ;;
  phase3/week14) echo w14.tf32-speed w14.strided-speed w14.sort-speed ;;
  phase6/week62) echo w62.fwd-speed ;;
  phase4/week17) echo w17.conv-bw w17.conv-speed w17.pipeline-speed ;;
  phase4/week18) echo w18.layer-speed w18.bf16-speed ;;
  phase4/week20) echo w20.standardize-speed ;;
esac; }
for week in "$@"; do
  nn=${week##*week}
  for id in $(speed_ids "$week"); do
    rec=$b/instructor/judge-calibrate-$id.tsv log=$b/instructor/judge-calibrate-$id.log
    if [ -n "${JUDGE_CALIBRATE_RECORD:-}" ]; then rec=$JUDGE_CALIBRATE_RECORD   # tests: a record given, no run
    elif [ -x "$b/instructor/judge-w$nn" ] && ! "$b/instructor/judge-w$nn" --list | grep -qxF "$id"; then
      # a speed checkpoint this build of the judge does not list (one staged behind a switch, as week 14's
      # w14.sort-speed was until 2026-11-29): the linked test times it
      echo "judge calibration: $id not formed by judge-w$nn (left to the linked test)"
      continue
    else
      rm -f "$rec"
      "$b/instructor/judge-w$nn" --record "$rec" --checkpoint "$id" --week-dir "$week" \
        "$b/$week/solution/judge-runner" >"$log" 2>&1
    fi
    row=$(awk -F'\t' -v id="$id" '$2 == id { print $3 "\t" $4 "\t" $7 "\t" $9 "\t" $10 "\t" $12 }' "$rec" 2>/dev/null)
    IFS=$'\t' read -r status reason yard ratio target gpu <<<"$row"
    case "$status" in
      pass|fail)
        if awk -v r="$ratio" -v t="$target" 'BEGIN { exit !(r >= 1.1 * t) }'; then
          echo "judge calibration: the reference's $id judged at $ratio of $yard on $gpu, target $target: margin $(awk -v r="$ratio" -v t="$target" 'BEGIN { printf "%+.0f %%", (r / t - 1) * 100 }')"
        else
          echo "judge calibration: WARNING: the reference's $id judged at $ratio of $yard on $gpu, target $target:" \
               "under the 10 % margin, so correct work may lose speed credit under the judge on this GPU." \
               "Grade with JUDGE=0, or give this GPU model its own target in $week/week.txt ($log)"
        fi ;;
      skip) echo "judge calibration: $id not run ($reason: no GPU here; every GPU checkpoint is SKIP)" ;;
      *) echo "judge calibration: the judge gave no figure for the reference's $id (see $log)" ;;
    esac
  done
done
exit 0
