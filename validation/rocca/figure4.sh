#!/usr/bin/env bash
# Redraws Figure 4 of Rocca et al. (Rocca, Acary, Brogliato): phase plot (x1, x2) of the minimal-norm
# implicit Euler for B = (-0.5, 1), x0 = (-5, 4), h = 0.9 and h = 0.3, with the exact solution
# (left branch x2 = -1 - x1, sliding segment x1 = 0, right branch x2 = 1 + x1).
# usage: validation/rocca/figure4.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
out=${2:-$here}
nsdae=$build/nsdae
[ -x "$nsdae" ] || { echo "figure4.sh: $nsdae not found: build first (cmake --build build)" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "figure4.sh: gnuplot is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in 0.9 0.3; do
    "$nsdae" simulate --example rocca-crossing --stop 10 --step "$h" --out "$tmp/h$h.csv"
done
gnuplot <<GP
set terminal pngcairo size 900,700 noenhanced
set output '$out/figure4.png'
\$exact << EOD
-5,4
0,-1
0,1
4.333333333333333,5.333333333333333
EOD
set datafile separator ','
set key top left
set grid
set xlabel 'x1'
set ylabel 'x2'
set title 'Rocca et al., Fig. 4: minimal-norm implicit Euler, B = (-0.5, 1), x0 = (-5, 4), T = 10'
plot \$exact using 1:2 with lines lw 2 lc rgb '#999999' title 'exact solution (Rocca et al., section 2.1)', \
     '$tmp/h0.9.csv' every ::1 using 2:3 with linespoints pt 7 ps 1.2 title 'h = 0.9', \
     '$tmp/h0.3.csv' every ::1 using 2:3 with linespoints pt 6 ps 1.0 title 'h = 0.3'
GP
echo "figure4.sh: wrote $out/figure4.png"
