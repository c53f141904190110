# shellcheck shell=bash
# instructor/tests/bf16gemm_lib.sh — what the tests of the Hopper-track BF16 GEMM weeks' staged judges
# (judge_w54.sh, judge_w55.sh) share; sourced after lib.sh.
#
# bf16_judge_alone NN WEEK "SYMBOLS" "IDS" STARTER-WORDS: after staged_judge_begin NN (log set): the
# instructor's runners hold every SYMBOL, week 54's yard runner (the one both judges time cuBLAS through)
# calls cublasGemmEx and holds none of them, the judge none, no runner a results writer or the test harness;
# the judge by itself over the reference's and the starter's runners, plain and sandboxed: the first of IDS
# (the week's CPU checkpoint) PASS for the reference and FAIL for the starter, naming STARTER-WORDS, the two
# GPU checkpoints SKIP; judge-wNN --list is IDS and calibration without a GPU says the last was not run.
# Prints each that is not so, with ';' after it.
# shellcheck disable=SC2154 # log: staged_judge_begin's
bf16_judge_alone() {
  local nn=$1 week=$2 syms=$3 ids=$4 words=$5 s impl how want got
  # shellcheck disable=SC2086
  runners_hold "$week" $syms
  yard_runner_only 54 "" "$syms"
  nm "$BUILD/instructor/judge-w54-yard-runner" | grep -q " U cublasGemmEx" || printf ' the yard runner does not call cublasGemmEx;'
  for s in $syms; do
    nm "$BUILD/instructor/judge-w$nn" | grep -q " [TU] $s\$" && printf ' the judge links %s;' "$s"
  done
  for impl in solution starter; do
    nm "$BUILD/$week/$impl/judge-runner" | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)' &&
      printf ' the %s'"'"'s runner links a results writer or the test harness;' $impl
    want=pass,skip,skip
    [ $impl = starter ] && want=fail,skip,skip
    for how in plain sandbox; do
      got=$(judge_alone "$nn" "$week" $impl $how "$log")
      [ "$got" = "$want" ] || printf ' judge-w%s over the %s'"'"'s runner (%s): %s, expected %s;' "$nn" $impl $how "$got" "$want"
    done
  done
  grep -qF "$words" "$log/alone-w$nn-starter-plain.tsv" || printf ' the starter'"'"'s failure does not say "%s";' "$words"
  judge_lists_uncalibrated "$nn" "$week" "$ids" "${ids##* }"
}
