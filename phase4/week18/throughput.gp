# throughput.gp — week 18: samples per second of the MLP forward pass against batch size, log-log.
# gnuplot -e "csv='build/phase4/week18/throughput.csv'; png='build/phase4/week18/throughput.png'" phase4/week18/throughput.gp
if (!exists("csv")) csv = 'build/phase4/week18/throughput.csv'
if (!exists("png")) png = 'build/phase4/week18/throughput.png'
set terminal pngcairo size 1000,650 enhanced font ",11"
set output png
set datafile separator ","
set key top left
set logscale xy 10
set grid
set xlabel "batch size (samples per call)"
set ylabel "samples per second"
set title "Week 18: MLP 64-128-64-10 forward pass (mlp\\_forward), every timed output checked"
plot csv using 1:2 every ::1 with linespoints pt 7 ps 1.2 lc rgb "#cc3311" title "FP32", \
     csv using 1:3 every ::1 with linespoints pt 5 ps 1.2 lc rgb "#0077bb" title "FP16 weights", \
     csv using 1:4 every ::1 with linespoints pt 9 ps 1.4 lc rgb "#009988" title "INT8 (per-channel weights, per-row activations)"
