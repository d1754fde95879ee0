#!/bin/sh
# German credit: mMALA against Holmes & Held's exact Gibbs sampler, 4 chains x (1000 + 5000) each,
# coefficient by coefficient (experiments/compareRuns.ts). Writes
# experiments/results/logistic-regression/german-mmala-holmes-held.txt.
# Usage (from the repository root, after npm run build): sh experiments/germanMmalaCheck.sh [RUNS_DIR]
set -e
runs=${1:-/tmp/gpmcmc-german-check}
out=experiments/results/logistic-regression/german-mmala-holmes-held.txt
for s in mmala holmes-held; do
  rm -rf "$runs/$s"
  OPENBLAS_NUM_THREADS=1 node dist/src/cli/main.js sample --model logistic-regression --data data/german_numeric.csv \
    --sampler "$s" --chains 4 --parallel 1 --draws 5000 --burn-in 1000 --seed 7 --out "$runs/$s" --quiet
done
{
  echo "node dist/experiments/compareRuns.js $runs/mmala $runs/holmes-held --top 25"
  node dist/experiments/compareRuns.js "$runs/mmala" "$runs/holmes-held" --top 25
} > "$out"
cat "$out"
