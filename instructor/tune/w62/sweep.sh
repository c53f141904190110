#!/bin/bash
# instructor/tune/w62/sweep.sh — week 62's knob sets, called by
# `make tune-w62` (bench) and `make tune-w62-compile` (compile), which pass
# the toolchain in the environment (tune.mk).
#
#   sweep.sh compile  each set: phase6/week62/solution/fa3_fwd.cu compiled with
#                     the set's -D flags and -Xptxas -v; the sm_90a kernel's
#                     registers and spills into $BUILD/tune/w62/compile.txt;
#                     exit 1 if any set does not compile or spills.
#   sweep.sh bench    each set: compiled as above, linked into the week's test
#                     (TEST_OBJS: the test and its support, built by make), then
#                     CK_RUN_CASE=w62.fwd (correctness, every case of the
#                     checkpoint; a set that does not PASS is not timed) and
#                     `--bench $TUNE_W62_BENCH`, which times it and cuDNN in
#                     the same process (B4 H16 S4096 D128, non-causal and
#                     causal). Summary in $BUILD/tune/w62/summary.txt.
#
# A set is knobs joined by '-': P (W62_PINGPONG), I (W62_INTRA), S
# (W62_STAGES), T (W62_TMA_STORE), each followed by its value (P1-I1-S3);
# "default" is no flag at all, the shipped kernel.
set -u
. instructor/tune/bench_set.sh
mode=${1:-}
WK=phase6/week62
OUT=$BUILD/tune/w62
NVF=${WEEK_NVF:-"-gencode=arch=compute_90a,code=sm_90a"}
bench=${TUNE_W62_BENCH:-fwd}
case $mode in
compile) summary=$OUT/compile.txt ;;
bench) summary=$OUT/summary.txt ;;
*) echo "usage: sweep.sh compile|bench"; exit 2 ;;
esac
mkdir -p "$OUT"
: > "$summary"
bad=0
for set in $TUNE_W62_SETS; do
    flags=
    if [ "$set" != default ]; then
        for k in ${set//-/ }; do
            case $k in
            P[01]) flags="$flags -DW62_PINGPONG=${k#P}" ;;
            I[01]) flags="$flags -DW62_INTRA=${k#I}" ;;
            S[23]) flags="$flags -DW62_STAGES=${k#S}" ;;
            T[01]) flags="$flags -DW62_TMA_STORE=${k#T}" ;;
            *) echo "tune-w62: '$k' of set '$set' is no knob (P0/P1, I0/I1, S2/S3, T0/T1; or 'default')"; exit 2 ;;
            esac
        done
    fi
    d=$OUT/$set
    mkdir -p "$d"
    echo "== $set:${flags:- (none)}"
    if ! $NVCC $NVFLAGS $NVF -Iphase6/common -I$WK $flags -Xptxas -v -c $WK/solution/fa3_fwd.cu -o "$d/fa3_fwd.o" \
        > "$d/ptxas.txt" 2>&1; then
        cat "$d/ptxas.txt"
        echo "$set: does not compile ($d/ptxas.txt)" >> "$summary"
        bad=1
        continue
    fi
    # the sm_90a entry's lines (the sm_90 pass is the trap of a GPU without wgmma)
    regs=$(awk "/for 'sm_90a'/{f=1} f && /Used [0-9]+ registers/{print \$5; exit}" "$d/ptxas.txt")
    spill=$(awk "/for 'sm_90a'/{f=1} f && /spill stores/{print \$5 \"/\" \$9; exit}" "$d/ptxas.txt")
    warn=$(grep -c -i "warning" "$d/ptxas.txt")
    line="$set: $regs registers, spills (bytes stored/loaded) $spill, $warn ptxas warnings"
    if [ "$spill" != "0/0" ] || [ -z "$regs" ]; then bad=1; line="$line  <-- SPILLS"; fi
    if [ "$mode" = compile ]; then
        echo "  $line"
        echo "$line" >> "$summary"
        continue
    fi
    $CXX -o "$d/test" $TEST_OBJS "$d/fa3_fwd.o" $LIBWB $LDCUDA $LDCHECK ||
        { echo "$set: does not link" >> "$summary"; bad=1; continue; }
    CK_RUN_CASE=w62.fwd WB_WEEK_DIR=$WK WB_WEEK=$WK WB_IMPL="reference, $set" "$d/test" > "$d/check.txt" 2>&1
    if ! grep -q "PASS  w62.fwd " "$d/check.txt"; then
        grep -E "FAIL|SKIP|w62.fwd" "$d/check.txt" | head -5
        echo "$line; w62.fwd did not pass ($d/check.txt): not timed" >> "$summary"
        bad=1
        continue
    fi
    row=$(tune_bench tune-w62 $WK "$d/test" "$bench" "TFLOP/s" "$d/bench.txt") || exit 2
    echo "$line; w62.fwd PASS; $row" >> "$summary"
done
echo
echo "== summary (also in $summary)"
cat "$summary"
exit $bad
