# roofline.gp — the device's roof and every benchmarked kernel as a point.
# gnuplot -e "dat='points.dat'; roof='roof.gp'; png='roofline.png'" notebook/tools/roofline.gp
load roof
set terminal pngcairo size 1200,800 enhanced font ",10"
set output png
set logscale xy 10
set grid
set key top left
set xlabel "arithmetic intensity (flop/byte)"
set ylabel "GFLOP/s"
set title sprintf("Roofline: %.0f GB/s (measured copy), %.0f GFLOP/s FP32 (measured FMA peak), ridge %.1f flop/byte", bw, pk, ridge)
set xrange [0.01:1000]
set yrange [1:pk * 3]
roofline(x) = (bw * x < pk) ? bw * x : pk
plot roofline(x) with lines lw 3 lc rgb "#555555" title "roof", \
     dat using 1:2 with points pt 7 ps 1.2 lc rgb "#cc3311" title "kernels", \
     dat using 1:2:3 with labels left offset 0.6,0.3 font ",7" rotate by 20 notitle
