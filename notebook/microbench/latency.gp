# latency.gp — pointer-chasing latency against working-set size.
# gnuplot -e "csv='build/notebook/latency.csv'; png='build/notebook/latency.png'" notebook/microbench/latency.gp
if (!exists("csv")) csv = 'build/notebook/latency.csv'
if (!exists("png")) png = 'build/notebook/latency.png'
set terminal pngcairo size 1000,600 enhanced font ",11"
set output png
set datafile separator ","
set logscale x 2
set grid
set key off
set xlabel "working set (bytes)"
set ylabel "ns per dependent load"
set yrange [0:*]
set format x "%.0b %BB"  # binary prefixes: 256 KiB, not 262kB
set title "Pointer-chasing latency (one thread, random 128-byte slots)"
plot csv using 1:2 every ::1 with linespoints pt 7 lc rgb "#1f77b4"
