#!/bin/bash
# instructor/tune/w58/quick.sh — on a GPU: SETS="tag:-DMACRO=V,-DMACRO=V ..."
# builds week 58's decode reference with each set's macros and runs
# quick.cu over it (correctness, then the decode shape's ratio to COPY at
# M = 1..16); ptxas's register and spill lines first. A set a few seconds.
cd "$(dirname "$0")/../../.."
I="-Iphase6/week58 -Iphase6/week58/support -Icommon/include"
T=${TMPDIR:-/tmp}/w58quick
mkdir -p "$T"
for s in $SETS; do tag=${s%%:*}; fl=${s#*:}; fl=${fl//,/ }
  ( nvcc -arch=sm_90 -O3 -lineinfo $I $fl -Xptxas -v -c phase6/week58/solution/w4a16_decode.cu -o "$T/$tag.o" > "$T/$tag.ptxas" 2>&1 &&
    nvcc -arch=sm_90 -O3 $I $fl -o "$T/$tag" instructor/tune/w58/quick.cu "$T/$tag.o" ) &
done
wait
for s in $SETS; do tag=${s%%:*}
  echo "=== $tag: $(grep -E 'registers|spill' "$T/$tag.ptxas" | tr -s ' ' | tr '\n' ' ')"
  "$T/$tag"
done
