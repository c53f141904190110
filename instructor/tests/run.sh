#!/usr/bin/env bash
# instructor/tests/run.sh — the instructor tools' tests, without a GPU
# (on a machine with a GPU too: lib.sh hides it, WB_NO_GPU=1)
# (`make instructor-test`; make test runs them after the weeks): each step
# is a script of this folder that also runs alone (slurm: grading through a
# single-node Slurm cluster it starts, where slurm-wlm and munge are installed).
. "$(dirname "$0")/lib.sh"
t_begin instructor
for step in unit sandbox judge judge02 judge_w04 judge_w05 judge_w06 judge_w07 judge_w08 judge_w09 judge_w11 judge_w12 judge_w10 judge_w15 judge_w16 judge_w13 judge_w26 judge_w25 judge_w23 judge_w24 judge_w22 judge_w21 judge_w19 judge_w28 judge_w29 judge_w30 judge_w31 judge_w32 judge_w33 judge_w34 judge_w35 judge_w36 judge_w37 judge_w38 judge_w39 judge_w40 judge_w41 judge_w42 judge_w53 judge_w57 judge_w60 judge_w62 judge_w18 judge_w20 judge_w17 judge_w14 judge_w54 judge_w55 judge_w59 judge_w58 judge_w56 judge_w61 judge_w27 grade_uses grade_cudnn grade_refs fixtures slurm quizzes release; do
  bash instructor/tests/$step.sh
done
t_end
