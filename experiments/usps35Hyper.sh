#!/bin/sh
# The README's USPS 3-vs-5 example with sampled hyperparameters, run longer: the first 100
# training cases, a shared lengthscale with a lognormal(3, 1) prior, scheme aa (theta by MH,
# f by HMC v2), 4 chains x 5000 draws after 2000 burn-in, seed 1 (the one cell's seed); then
# predictions on the 326 test cases. Writes the run's summary.json and the predictions' JSON to
# experiments/results/usps35-hyper/ (the draws stay in the scratch directory: about 40 MB).
#   sh experiments/usps35Hyper.sh [scratch-dir]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
out="$repo/experiments/results/usps35-hyper"
mkdir -p "$work" "$out"
cd "$work"
[ -e data ] || ln -s "$repo/data" data
head -n 101 data/usps35_origsplit_train.csv > usps100.csv
gpmcmc() { node "$repo/dist/src/cli/main.js" "$@"; }
gpmcmc sample --data usps100.csv --shared-lengthscale --prior-lengthscale lognormal:3,1 \
  --draws 5000 --burn-in 2000 --chains 4 --seed 1 --out runs/usps100-theta-long --quiet
gpmcmc predict --run runs/usps100-theta-long --test data/usps35_origsplit_test.csv --json > "$out/predictions.json"
cp runs/usps100-theta-long/summary.json "$out/summary.json"
