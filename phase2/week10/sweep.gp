# sweep.gp — week 10: bandwidth of a grid-stride scale kernel against occupancy.
# gnuplot -e "csv='build/phase2/week10/sweep.csv'; png='build/phase2/week10/sweep.png'" phase2/week10/sweep.gp
if (!exists("csv")) csv = 'build/phase2/week10/sweep.csv'
if (!exists("png")) png = 'build/phase2/week10/sweep.png'
set terminal pngcairo size 1000,650 enhanced font ",11"
set output png
set datafile separator ","
set key bottom right title "threads per block"
set grid
set logscale x 2
set xlabel "theoretical occupancy (resident warps / 64)"
set ylabel "GB/s (read + write)"
set yrange [0:*]
set title "Week 10: launch configuration sweep, y = a x (grid = blocks per SM x SMs)"
stats csv using 5 nooutput
copy = STATS_max
plot for [t in "32 64 128 256 512 1024"] csv using 3:($1 == t ? $4 : 1/0) with linespoints pt 7 title t, \
     copy with lines dt 2 lc rgb "#888888" title "cudaMemcpy D2D"
