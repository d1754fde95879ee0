#!/bin/sh
# The default scheme pm on the comparison paper's Table 6 data sets with d >= 10 inputs (ARD, one
# lengthscale per input; logistic likelihood; lengthscales Gamma(1, 1), signal variance
# inverse-Gamma(1, 1); inputs standardised as in Table 6): SPECT (n = 80, d = 22), 4 chains x 20000
# draws kept from 100000 iterations (thin 5) after 5000 burn-in; Ionosphere (n = 351, d = 34),
# 4 chains x 500 draws after 500 burn-in. Seed 1 (each run's one cell). Writes each run's
# summary.json, its text summary and `gpmcmc diagnose`'s verdict, and the CPU and wall seconds
# (times.txt, /usr/bin/time) to experiments/results/table6-ard-pm/; the draws stay in the scratch
# directory.
#   sh experiments/table6ArdPm.sh [scratch-dir]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
out="$repo/experiments/results/table6-ard-pm"
mkdir -p "$work" "$out"
cd "$work"
gpmcmc() { node "$repo/dist/src/cli/main.js" "$@"; }
: > "$out/times.txt"
run() { # name, data file, sample options...
  name=$1; file=$2; shift 2
  node "$repo/dist/experiments/standardiseCsv.js" "$repo/$file" "$name.csv"
  rm -rf "runs/$name"
  /usr/bin/time -f "$name %U %e" -a -o "$out/times.txt" node "$repo/dist/src/cli/main.js" sample --data "$name.csv" \
    --likelihood logistic --chains 4 --seed 1 --out "runs/$name" --quiet "$@" > "$out/$name-sample.txt"
  cp "runs/$name/summary.json" "$out/$name-summary.json"
  gpmcmc diagnose runs/$name/draws_*.csv > "$out/$name-diagnose.txt" || true
}
run spect data/spect_train.csv --draws 20000 --thin 5 --burn-in 5000
run ionosphere data/ionosphere.csv --draws 500 --burn-in 500
