# ladder.gp — week 30: softmax bandwidth against row length, yours, COPY and cuDNN.
# gnuplot -e "csv='build/phase6/week30/ladder.csv'; png='build/phase6/week30/ladder.png'" phase6/week30/ladder.gp
if (!exists("csv")) csv = 'build/phase6/week30/ladder.csv'
if (!exists("png")) png = 'build/phase6/week30/ladder.png'
set terminal pngcairo size 1000,650 enhanced font ",11"
set output png
set datafile separator ","
set datafile missing "nan"
set key bottom right
set logscale x 2
set grid
set xlabel "row length (floats; rows x cols fixed at the same bytes)"
set ylabel "GB/s (x read once + y written once)"
set title "Week 30: online softmax against row length"
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
plot csv using 1:5 every ::1 with lines lw 3 lc rgb "#888888" title "COPY (cudaMemcpy D2D, same bytes)", \
     csv using 1:3 every ::1 with linespoints pt 7 ps 1.3 lc rgb "#cc3311" title "yours (softmax\\_online)", \
     csv using 1:4 every ::1 with linespoints pt 5 ps 1.2 lc rgb "#0077bb" title "cuDNN (cudnnSoftmaxForward, accurate, instance)"
