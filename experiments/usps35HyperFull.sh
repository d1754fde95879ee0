#!/bin/sh
# USPS 3 vs 5 on the whole training split (1214 cases) with sampled hyperparameters, beside Laplace
# and EP at their type-II maximum-likelihood hyperparameters, each predicted on the 326 test
# cases. The same model as the README's worked example (probit; one lengthscale shared by the 256
# pixels, lognormal(3, 1) prior; signal variance inverse-Gamma(1, 1); the default scheme pm),
# 4 chains x 400 draws after 150 burn-in, seed 1, two at once (about 0.5 CPU s per iteration and
# chain at n = 1214, and 50 s for each chain's mode search).
# Writes the run's summary.json, each
# method's predictions (JSON) and the CPU seconds of each command (times.txt) to
# experiments/results/usps35-hyper-full/; the draws stay in the scratch directory.
#   sh experiments/usps35HyperFull.sh [scratch-dir]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
out="$repo/experiments/results/usps35-hyper-full"
mkdir -p "$work" "$out"
cd "$work"
train="$repo/data/usps35_origsplit_train.csv"
test="$repo/data/usps35_origsplit_test.csv"
: > "$out/times.txt"
timed() { # label, command...: appends "label user-CPU-seconds wall-seconds" to times.txt
  label=$1; shift
  /usr/bin/time -f "$label %U %e" -a -o "$out/times.txt" node "$repo/dist/src/cli/main.js" "$@"
}
timed sample sample --data "$train" --shared-lengthscale --prior-lengthscale lognormal:3,1 \
  --draws 400 --burn-in 150 --chains 4 --seed 1 --out runs/usps-theta --quiet > "$out/sample.txt"
timed predict-mcmc predict --run runs/usps-theta --test "$test" --json > "$out/predictions-mcmc.json"
cp runs/usps-theta/summary.json "$out/summary.json"
timed laplace laplace --data "$train" --log-lengthscale 2 --log-signal-sd 1.5 --optimize --out laplace.json --force --json > "$out/laplace.json"
timed predict-laplace predict --approx laplace.json --test "$test" --json > "$out/predictions-laplace.json"
timed ep ep --data "$train" --log-lengthscale 2 --log-signal-sd 1.5 --optimize --out ep.json --force --json > "$out/ep.json"
timed predict-ep predict --approx ep.json --test "$test" --json > "$out/predictions-ep.json"
