# roofline.gp — the device's roofs and every benchmarked kernel as a point.
# gnuplot -e "dat='points.dat'; roof='roof.gp'; png='roofline.png'" notebook/tools/roofline.gp
#
# Every number and text comes from roof, written by roofline_csv (which
# prints the same texts in the terminal): the picture's size and margins,
# bw, pk, ridge, tc, tc_ridge, the axis ranges, the roofs as datablocks, the
# title and the key. dat has, per point: intensity, GFLOP/s, label, fixture,
# then where roofline_csv put the label: x, y, 1 if the text ends there (else
# it starts there), 1 if it sits a line or more away and a thin line leads to
# it. This file only draws.
load roof
set terminal pngcairo size W,H font ",10" noenhanced
set output png
set lmargin at screen L; set rmargin at screen R
set bmargin at screen B; set tmargin at screen T
set logscale xy 10
set format y "%.0f"
set grid
set key top left Left reverse box opaque spacing 1.3 font ",9" samplen 3
set xlabel "arithmetic intensity (flop/byte)"
set ylabel "GFLOP/s"
set title title_txt font ",12"
set xrange [xlo:xhi]
set yrange [ylo:yhi]

# Ridges: a dashed drop from each corner of a roof to the x axis, labelled
# with the text the terminal printed.
set arrow 1 from ridge, ylo to ridge, pk nohead dt 2 lc rgb "#444444"
set label 1 ridge_txt at ridge, ylo * 1.5 rotate by 90 offset -0.8,0 font ",9" tc rgb "#444444"
if (tc > 0) {
  set arrow 2 from tc_ridge, ylo to tc_ridge, tc nohead dt 2 lc rgb "#7b3294"
  set label 2 tc_ridge_txt at tc_ridge, ylo * 1.5 rotate by 90 offset -0.8,0 font ",9" tc rgb "#7b3294"
}

set style line 1 lw 3 lc rgb "#444444"
set style line 2 lw 3 lc rgb "#7b3294" dt 4
q = "'" . dat . "'"
pts = q . " using 1:2:($4 > 0 ? 0x999999 : 0xcc3311) with points pt 7 ps 1.2 lc rgb variable title pts_key"
labs = q . " using 1:($8 > 0 ? $2 : NaN):($5 - $1):($6 - $2) with vectors nohead lw 0.5 lc rgb '#999999' notitle, " . \
       q . " using 5:($7 > 0 ? NaN : $6):3 with labels left font ',8' notitle, " . \
       q . " using 5:($7 > 0 ? $6 : NaN):3 with labels right font ',8' notitle"
if (tc > 0) {
  plot $fp32_roof with lines ls 1 title fp32_key, $tc_roof with lines ls 2 title tc_key, @pts, @labs
} else {
  plot $fp32_roof with lines ls 1 title fp32_key, @pts, @labs
}
