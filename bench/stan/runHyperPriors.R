#!/usr/bin/env Rscript
# Runs bench/stan/gpHyperPriors.stan on a CSV (column y, then the inputs) with the likelihood and
# priors given, 4 chains, and writes PREFIX_theta.csv (log_lengthscale.1..D, log_signal_sd) and
# PREFIX_f.csv (f.1..N), chains stacked. Prints "stan elapsed: warmup W s, sampling S s".
#   Rscript runHyperPriors.R CSV LIK ELL_PRIOR P1 P2 SD_PRIOR Q1 Q2 ITER WARMUP SEED PREFIX
suppressPackageStartupMessages(library(rstan))
rstan_options(auto_write = TRUE)
if (!nzchar(rstan_options("boost_lib"))) rstan_options(boost_lib = "/usr/include")
a <- commandArgs(trailingOnly = TRUE)
dat <- as.matrix(read.csv(a[1]))
X <- dat[, -1, drop = FALSE]; yraw <- dat[, 1]
lik <- as.integer(a[2])
y <- if (lik == 1) ifelse(yraw == 1, 1L, -1L) else as.integer(yraw)
here <- dirname(normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))))
sm <- stan_model(file.path(here, "gpHyperPriors.stan"))
fit <- sampling(sm, data = list(N = nrow(X), D = ncol(X), X = X, y = y, lik = lik, ell_prior = as.integer(a[3]), p1 = as.numeric(a[4]), p2 = as.numeric(a[5]),
                                sd_prior = as.integer(a[6]), q1 = as.numeric(a[7]), q2 = as.numeric(a[8]), jitter = 1e-6),
                chains = 4, iter = as.integer(a[10]) + as.integer(a[9]), warmup = as.integer(a[10]), seed = as.integer(a[11]), refresh = 0)
el <- get_elapsed_time(fit)
cat(sprintf("stan elapsed: warmup %.3f s, sampling %.3f s\n", sum(el[, 1]), sum(el[, 2])))
sp <- get_sampler_params(fit, inc_warmup = FALSE)
cat(sprintf("divergences: %d\n", sum(sapply(sp, function(m) sum(m[, "divergent__"])))))
th <- as.matrix(fit, pars = c("log_lengthscale", "log_signal_sd"))
colnames(th) <- c(paste0("log_lengthscale.", 1:ncol(X)), "log_signal_sd")
ff <- as.matrix(fit, pars = "f"); colnames(ff) <- paste0("f.", 1:nrow(X))
write.csv(th, paste0(a[12], "_theta.csv"), row.names = FALSE)
write.csv(ff, paste0(a[12], "_f.csv"), row.names = FALSE)
