#!/bin/bash
# instructor/tune/w58/emu/run.sh — `make tune-w58-emu`: week 58's reference
# decode compiled for the CPU (gen.py) with each knob set of TUNE_W58_EMU_SETS
# (space-separated; a set is comma-separated -D's without the -D, e.g.
# "W58_DEC_VARIANT=4,W58_DEC4_STAGES=3"), each run as TUNE_W58_EMU_MACHINES
# (SMS:PER_SM:BINARY_VERSION, space-separated) on w58.decode's shapes.
set -u
E=instructor/tune/w58/emu
OUT=$BUILD/tune/w58-emu
mkdir -p "$OUT"
CUDA_INC=${CUDA_INC:-/usr/local/cuda/include}
python3 $E/gen.py phase6/week58/solution/w4a16_decode.cu > "$OUT/emu_tu.inc" || exit 1
$CC -O2 -Icommon/include -c common/src/wb_rand.c -o "$OUT/wb_rand.o" || exit 1
$CXX -O2 -std=c++17 -I$E -I$CUDA_INC -c $E/emu_rt.cc -o "$OUT/emu_rt.o" || exit 1
st=0
for set in ${TUNE_W58_EMU_SETS:-W58_DEC_VARIANT=4}; do
    flags=
    for d in ${set//,/ }; do flags="$flags -D$d"; done
    $CXX -O2 -fno-strict-aliasing -std=c++17 -w $flags -I"$OUT" -I$E -Iphase6/week58 -Iphase6/week58/support -Icommon/include -I$CUDA_INC \
        $E/emu_test.cc "$OUT/emu_rt.o" "$OUT/wb_rand.o" -o "$OUT/emu" -lm || { st=1; continue; }
    for mc in ${TUNE_W58_EMU_MACHINES:-132:2:90 1:1:90 8:2:90 132:2:80}; do
        IFS=: read -r sms per bv <<<"$mc"
        echo "== $set on $sms SMs x $per blocks, sm_$bv"
        "$OUT/emu" "$sms" "$per" "$bv" "${TUNE_W58_EMU_SEED:-1}" | grep -v '^  ok ' || st=1
    done
done
exit $st
