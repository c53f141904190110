# sweep.gp — week 09: the measured sweep against its roof, log-log.
# gnuplot -e "csv='build/phase2/week09/sweep.csv'; png='build/phase2/week09/sweep.png'" phase2/week09/sweep.gp
if (!exists("csv")) csv = 'build/phase2/week09/sweep.csv'
if (!exists("png")) png = 'build/phase2/week09/sweep.png'
set terminal pngcairo size 1000,650 enhanced font ",11"
set output png
set datafile separator ","
set key top left
set logscale xy 2
set grid
set xlabel "arithmetic intensity (flop/byte)"
set ylabel "GFLOP/s"
set title "Week 09: fma\\_sweep across the ridge point (measured copy and FMA peak as the roof)"
stats csv using 6:7 nooutput
bw = STATS_min_x
pk = STATS_min_y
roof(x) = (bw * x < pk) ? bw * x : pk
set xrange [0.125:512]
plot roof(x) with lines lw 3 lc rgb "#888888" title sprintf("roof: %.0f GB/s, %.0f GFLOP/s", bw, pk), \
     csv using 2:3 every ::1 with linespoints pt 7 ps 1.3 lc rgb "#cc3311" title "fma\\_sweep (k FMAs per element)", \
     csv using 2:3:(sprintf("k=%d", $1)) every ::1 with labels offset 0,1 font ",8" notitle
