# attn_vs_seq.gp — week 38: attention forward TFLOP/s against sequence length, yours and cuDNN.
# gnuplot -e "csv='build/phase6/week38/attn_vs_seq.csv'; png='build/phase6/week38/attn_vs_seq.png'" phase6/week38/attn_vs_seq.gp
if (!exists("csv")) csv = 'build/phase6/week38/attn_vs_seq.csv'
if (!exists("png")) png = 'build/phase6/week38/attn_vs_seq.png'
# enhanced text for S^2 in the y label; the legend entry that names a function is noenhanced (an _ would start a subscript)
set terminal pngcairo size 1000,650 enhanced font ",11"
set output png
set datafile separator ","
set key bottom right
set logscale x 2
set grid
set yrange [0:*]
set xlabel "sequence length S (B = 16384 / S, H = 16, D = 128, BF16, non-causal)"
set ylabel "TFLOP/s (4 B H S^2 D flops)"
set title "Week 38: FlashAttention forward against cuDNN's fused attention"
plot csv using 1:4 every ::1 with linespoints pt 5 ps 1.3 lc rgb "#3366aa" title "cuDNN SDPA", \
     csv using 1:3 every ::1 with linespoints pt 7 ps 1.3 lc rgb "#cc3311" title "yours (flash_attn_fwd)" noenhanced
