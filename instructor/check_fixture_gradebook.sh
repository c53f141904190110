#!/usr/bin/env bash
# check_fixture_gradebook.sh GRADEBOOK nogpu|gpu — what grading the fixture
# class (instructor/fixtures) must give. Columns: student, w01.devquery (10),
# w01.vecadd (20), w01.vecadd-bw (10), total, out_of, skipped, seed.
set -u
gb=${1:?gradebook}; mode=${2:?nogpu or gpu}
bad=0
row() { grep "^$1," "$gb" | cut -d, -f2-5; }
expect() { # student expected-cells (devquery,vecadd,bw,total); '*' matches anything
  local got; got=$(row "$1")
  IFS=, read -r g1 g2 g3 g4 <<<"$got"; IFS=, read -r e1 e2 e3 e4 <<<"$2"
  for k in 1 2 3 4; do
    local g e; eval "g=\$g$k; e=\$e$k"
    if [ "$e" != "*" ] && [ "$g" != "$e" ]; then echo "fixture $1: got $got, expected $2"; bad=1; return; fi
  done
}
[ "$(grep -c . "$gb")" = 9 ] || { echo "expected a header and 8 students in $gb"; bad=1; }
expect broken "0.00,0.00,0.00,0.00"
expect cublas "0.00,0.00,0.00,0.00"
if [ "$mode" = nogpu ]; then
  for s in archived correct fault hang unwritten; do expect $s "SKIP,SKIP,SKIP,0.00"; done
  expect wrong "0.00,SKIP,SKIP,0.00"          # devquery.cu not submitted: the starter fails the CPU test
else
  expect correct "10.00,20.00,10.00,40.00"
  expect wrong "0.00,0.00,0.00,0.00"
  expect fault "10.00,0.00,0.00,10.00"
  expect hang "10.00,0.00,0.00,10.00"
  expect unwritten "10.00,0.00,0.00,10.00"
  expect archived "10.00,20.00,*,*"           # slow but right: partial speed credit
  bw=$(row archived | cut -d, -f3)
  awk -v b="$bw" 'BEGIN { exit !(b > 0 && b < 10) }' || { echo "archived: speed credit $bw, expected partial (0 < x < 10)"; bad=1; }
fi
[ $bad = 0 ] && echo "fixture gradebook ($mode): as expected"
exit $bad
