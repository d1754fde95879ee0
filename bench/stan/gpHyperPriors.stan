// A latent GP model with sampled hyperparameters as a Stan user writes it, with the likelihood and
// the priors chosen by data, for bench/stanModels.ts to compare with `gpmcmc sample`'s options:
//   K = s^2 (C + jitter I),  C_ij = exp(-1/2 sum_r (x_ir - x_jr)^2 / ell_r^2)  (ARD)
//   ell_r ~ gamma(p1, p2) | inv_gamma(p1, p2) | lognormal(p1, p2)       (ell_prior 1, 2, 3)
//   s ~ normal(0, q2) | student_t(q1, 0, q2), s > 0                       (sd_prior 1, 2)
//   f = cholesky(K) eta, eta ~ N(0, I)
//   y_i | f_i: probit Phi(y_i f_i), y in {-1, 1} | bernoulli_logit, y in {0, 1} | poisson_log  (lik 1, 2, 3)
// Written out as gpmcmc's columns: log_lengthscale.r = log ell_r, log_signal_sd = log s.
functions {
  // log Phi(z), accurate in the lower tail (Stan 2.21's normal_lcdf is -inf below z = -37.5)
  real log_std_normal_cdf(real z) {
    if (z > -20) return log(erfc(-z / sqrt(2))) - log(2);
    {
      real w = 1 / square(z);
      return -0.5 * square(z) - log(-z) - 0.5 * log(2 * pi()) + log1p(-w + 3 * square(w) - 15 * w * square(w));
    }
  }
}
data {
  int<lower=1> N;
  int<lower=1> D;
  matrix[N, D] X;
  int y[N];
  int<lower=1, upper=3> lik;
  int<lower=1, upper=3> ell_prior;
  real p1;
  real<lower=0> p2;
  int<lower=1, upper=2> sd_prior;
  real<lower=0> q1;
  real<lower=0> q2;
  real<lower=0> jitter;
}
parameters {
  vector<lower=0>[D] ell;
  real<lower=0> s;
  vector[N] eta;
}
transformed parameters {
  vector[N] f;
  {
    matrix[N, N] K;
    for (i in 1:N) {
      K[i, i] = square(s) * (1 + jitter);
      for (j in (i + 1):N) {
        real r2 = 0;
        for (r in 1:D) r2 += square((X[i, r] - X[j, r]) / ell[r]);
        K[i, j] = square(s) * exp(-0.5 * r2);
        K[j, i] = K[i, j];
      }
    }
    f = cholesky_decompose(K) * eta;
  }
}
model {
  if (ell_prior == 1) ell ~ gamma(p1, p2);
  else if (ell_prior == 2) ell ~ inv_gamma(p1, p2);
  else ell ~ lognormal(p1, p2);
  if (sd_prior == 1) s ~ normal(0, q2);
  else s ~ student_t(q1, 0, q2);
  eta ~ std_normal();
  if (lik == 1) for (i in 1:N) target += log_std_normal_cdf(y[i] * f[i]);
  else if (lik == 2) y ~ bernoulli_logit(f);
  else y ~ poisson_log(f);
}
generated quantities {
  vector[D] log_lengthscale = log(ell);
  real log_signal_sd = log(s);
}
