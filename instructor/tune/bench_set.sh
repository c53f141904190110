# instructor/tune/bench_set.sh — sourced by the knob sweeps (w57/sweep.sh,
# w62/sweep.sh): the benchmark run of one knob set's test program.
#
#   row=$(tune_bench TAG WEEK TEST BENCH UNIT OUTFILE) || exit 2
#
# checks that BENCH is one of TEST's benchmarks (its label in `TEST --list`,
# "bench decode", not a checkpoint's id), runs `TEST --bench BENCH` with the
# week's folder in the environment, keeps its output in OUTFILE (and shows
# it), and prints the rows that carry UNIT, spaces squeezed, joined by ';'
# (one summary line). Status 2, with a message, when BENCH is no benchmark.
tune_bench() {
    local tag=$1 wk=$2 test=$3 bench=$4 unit=$5 out=$6
    WB_WEEK_DIR=$wk WB_WEEK=$wk "$test" --list | grep -q "^bench $bench\( \|\$\)" ||
        { echo "$tag: no benchmark '$bench': $test --list names them" >&2; return 2; }
    WB_WEEK_DIR=$wk WB_WEEK=$wk "$test" --bench "$bench" | tee "$out" >&2
    grep -E "$unit" "$out" | grep -v "^phase" | sed 's/  */ /g' | tr '\n' ';'
}
