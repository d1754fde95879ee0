"""Sampling variability of the ESS estimators on AR(1) chains, to set the tolerances of the
AR(1) tests (test/diagnostics/ess.test.ts). For each setting, R replicate chains are drawn and
the estimators of reference.py applied (with an FFT autocovariance, for speed; the FFT and the
direct sum agree to rounding). Prints the mean and standard deviation of ESS-hat / ESS-true.
Run: python3 calibrate_ar1.py
"""
import math
import sys
import numpy as np
from scipy import signal

import reference as ref


def acov_fft(x):
    n = len(x)
    xc = x - x.mean()
    m = 1 << (2 * n - 1).bit_length()
    f = np.fft.rfft(xc, m)
    return np.fft.irfft(f * np.conj(f), m)[:n] / n


ref.acov_direct = acov_fft  # same estimator, O(N log N)


def ar1_chains(m, n, phi, rng):
    e = rng.standard_normal((m, n)) * math.sqrt(1 - phi * phi)
    e[:, 0] = rng.standard_normal(m)  # stationary start
    return [signal.lfilter([1.0], [1.0, -phi], row) for row in e]


def study(label, m, n, phi, estimator, reps, rng):
    tau = (1 + phi) / (1 - phi)
    true_ess = m * n / tau
    r = np.array([estimator(ar1_chains(m, n, phi, rng)) / true_ess for _ in range(reps)])
    print(f"{label}: m={m} n={n} phi={phi} tau={tau:.4g}: ESS-hat/ESS mean {r.mean():.4f} sd {r.std(ddof=1):.4f} "
          f"(max |rel err| {np.max(np.abs(r - 1)):.4f} over {reps})")


rng = np.random.default_rng(1)
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
study("geyer single", 1, 100000, 0.9, lambda c: ref.ess_geyer_single(c[0]), reps, rng)
study("geyer single", 1, 100000, 0.5, lambda c: ref.ess_geyer_single(c[0]), reps, rng)
study("geyer single", 1, 100000, -0.5, lambda c: ref.ess_geyer_single(c[0]), reps, rng)
study("geyer multi ", 4, 25000, 0.9, ref.ess_geyer_multi, reps, rng)
study("stan basic  ", 4, 25000, 0.9, lambda c: ref.ess_stan(ref.split(c)), reps, rng)
study("bulk        ", 4, 25000, 0.9, lambda c: ref.ess_stan(ref.z_scale(ref.split(c))), reps, rng)
study("bulk        ", 4, 25000, -0.5, lambda c: ref.ess_stan(ref.z_scale(ref.split(c))), reps, rng)
study("iid geyer   ", 1, 20000, 0.0, lambda c: ref.ess_geyer_single(c[0]), reps, rng)
study("iid geyer   ", 4, 5000, 0.0, ref.ess_geyer_multi, reps, rng)
study("iid bulk    ", 4, 5000, 0.0, lambda c: ref.ess_stan(ref.z_scale(ref.split(c))), reps, rng)
study("iid mean    ", 4, 5000, 0.0, lambda c: ref.ess_stan(ref.split(c)), reps, rng)
study("iid tail    ", 4, 5000, 0.0, ref.ess_tail, reps, rng)
