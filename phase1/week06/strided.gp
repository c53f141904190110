# strided.gp — week 06: the stride sweep against the README's model, log-log.
# gnuplot -e "csv='build/phase1/week06/strided.csv'; png='build/phase1/week06/strided.png'" phase1/week06/strided.gp
if (!exists("csv")) csv = 'build/phase1/week06/strided.csv'
if (!exists("png")) png = 'build/phase1/week06/strided.png'
set terminal pngcairo size 1000,650 enhanced font ",11"
set output png
set datafile separator ","
set key bottom left
set logscale xy 2
set grid
set xlabel "stride s (floats between neighbouring threads' reads)"
set ylabel "useful GB/s (4 bytes read + 4 written an element)"
set title "Week 06: strided\\_copy, out[i] = in[(i % R) s + i / R]"
set xrange [0.7:90]
stats csv using 4 nooutput
copy = STATS_max
plot copy with lines dt 2 lc rgb "#888888" title sprintf("COPY %.0f GB/s (same run)", copy), \
     csv using 1:5 every ::1 with lines lw 2 dt 3 lc rgb "#3366aa" title "model: 32 B granule, 2 COPY / (1 + min(s, 8))", \
     csv using 1:6 every ::1 with lines lw 2 lc rgb "#228833" title "model: 64 B granule, 2 COPY / (1 + min(s, 16))", \
     csv using 1:2 every ::1 with linespoints pt 7 ps 1.4 lw 2 lc rgb "#cc3311" title "measured"
