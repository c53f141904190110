# steps.gp — week 19: N-body steps per second against n, log-log.
# gnuplot -e "csv='build/phase4/week19/steps.csv'; png='build/phase4/week19/steps.png'" phase4/week19/steps.gp
if (!exists("csv")) csv = 'build/phase4/week19/steps.csv'
if (!exists("png")) png = 'build/phase4/week19/steps.png'
set terminal pngcairo size 1000,650 enhanced font ",11"
set output png
set datafile separator ","
set key top right
set logscale x 2
set logscale y 10
set format y "10^{%L}"
set grid
set xlabel "bodies n"
set ylabel "leapfrog steps per second"
set title "Week 19: N-body steps per second (tiled forces, one force evaluation a step)"
stats csv using 5 every ::1 nooutput
pk = STATS_min
# the FP32 peak at 20 flops per interaction: steps/s = peak / (20 n^2)
peakline(x) = pk * 1e9 / (20.0 * x * x)
set xrange [512:524288]
plot peakline(x) with lines lw 2 dt 2 lc rgb "#888888" title sprintf("FP32 datasheet peak, %.0f GFLOP/s, 20 flops per interaction", pk), \
     60 with lines lw 2 lc rgb "#3366aa" title "real time: 60 steps/s", \
     csv using 1:3 every ::1 with linespoints pt 7 ps 1.3 lc rgb "#cc3311" title "measured"
