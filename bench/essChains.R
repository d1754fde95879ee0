#!/usr/bin/env Rscript
# rstan's multi-chain bulk ESS and R-hat of every column of a draws CSV whose rows are C chains
# stacked (equal lengths), and, given a second such CSV, the z-scores of the differences of the
# column means (MCSE from each file's bulk ESS). Used by bench/stanHyper.ts.
#   Usage: Rscript essChains.R DRAWS.csv CHAINS [OTHER.csv OTHER_CHAINS]
suppressPackageStartupMessages(library(rstan))
args <- commandArgs(trailingOnly = TRUE)
stats <- function(file, chains) {
  D <- as.matrix(read.csv(file))
  per <- nrow(D) / chains
  m <- function(x) matrix(x, nrow = per, ncol = chains)
  list(ess = apply(D, 2, function(x) rstan::ess_bulk(m(x))), rhat = apply(D, 2, function(x) rstan::Rhat(m(x))),
       mean = colMeans(D), sd = apply(D, 2, sd))
}
a <- stats(args[1], as.integer(args[2]))
cat(sprintf("bulk ESS: min %.1f; R-hat: max %.4f\n", min(a$ess), max(a$rhat)))
if (length(args) >= 4) {
  b <- stats(args[3], as.integer(args[4]))
  z <- (a$mean - b$mean) / sqrt(a$sd^2 / a$ess + b$sd^2 / b$ess)
  cat(sprintf("means: max|z| = %.2f\n", max(abs(z))))
}
