#!/usr/bin/env bash
# tests/roofline.sh — the roofline plot (make roofline) renders from the
# committed fixture CSVs into a PNG (checked by its signature and size).
. "$(dirname "$0")/lib.sh"
t_begin roofline

tool=$BUILD/notebook/roofline_csv
out=$BUILD/notebook/roofline-fixture.png
fixtures=$(ls notebook/microbench/roofline-data/fixtures/*.csv 2>/dev/null)
mkdir -p "$BUILD/notebook"; rm -f "$out"
if ! command -v gnuplot >/dev/null; then
  t_skip "roofline renders" "gnuplot not installed"
  t_end
fi
$MAKE -s "$tool" >/dev/null
if { "$tool" "$out.dat" "$out.roof" $fixtures &&
     gnuplot -e "dat='$out.dat'; roof='$out.roof'; png='$out'" notebook/tools/roofline.gp; } >"$BUILD/notebook/roofline-fixture.log" 2>&1 &&
   [ "$(head -c 8 "$out" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(stat -c %s "$out")" -gt 1024 ]; then
  t_pass "roofline renders" "$out from $(echo $fixtures | wc -w) fixture CSVs, $(stat -c %s "$out") bytes"
else
  cat "$BUILD/notebook/roofline-fixture.log"
  t_fail "roofline renders" "no valid PNG from the fixture CSVs (log above)"
fi

t_end
