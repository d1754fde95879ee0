"""Straightforward reference implementations of the diagnostics, used to produce the fixtures
in ../fixtures.ts and to calibrate test tolerances. Written independently of the TypeScript
code: O(N^2) autocovariance sums instead of an FFT, ranks from scipy.stats.rankdata, normal
quantiles from scipy.special.ndtri, beta quantiles from scipy.stats.beta.ppf, quantiles from
numpy.quantile (method "linear" = type 7). The ESS recursion follows the definitions of
Geyer (1992, sec. 3.3), BDA3 (eq. 11.7) and the posterior R package's .ess / .rhat
(Vehtari et al. 2021) as published.

Needs numpy and scipy only. Run: python3 reference.py > ../fixtures.ts
"""
import numpy as np
from scipy import special, stats


def acov_direct(x):
    x = np.asarray(x, float)
    n = len(x)
    xc = x - x.mean()
    return np.array([np.sum(xc[: n - t] * xc[t:]) / n for t in range(n)])


def split(chains):
    out = []
    for x in chains:
        h = len(x) // 2
        out.append(np.asarray(x[:h]))
        out.append(np.asarray(x[len(x) - h:]))
    return out


def is_constant(chains):
    a = np.concatenate(chains)
    return np.all(a == a[0])


def ess_stan(chains):
    """posterior's .ess (Stan's ess with the antithetic bias term and the 1/log10 floor)."""
    m = len(chains)
    n = len(chains[0])
    if n < 6 or is_constant(chains):
        return float("nan")
    acov = np.mean([acov_direct(x) for x in chains], axis=0)
    mean_var = acov[0] * n / (n - 1)
    var_plus = mean_var * (n - 1) / n
    if m > 1:
        var_plus += np.var([np.mean(x) for x in chains], ddof=1)
    rho = np.zeros(n)
    t = 0
    even = 1.0
    rho[0] = even
    odd = 1 - (mean_var - acov[1]) / var_plus
    rho[1] = odd
    while t < n - 5 and even + odd > 0:
        t += 2
        even = 1 - (mean_var - acov[t]) / var_plus
        odd = 1 - (mean_var - acov[t + 1]) / var_plus
        if even + odd >= 0:
            rho[t] = even
            rho[t + 1] = odd
    max_t = t
    if even > 0:
        rho[max_t] = even
    t = 0
    while t <= max_t - 4:
        t += 2
        if rho[t] + rho[t + 1] > rho[t - 2] + rho[t - 1]:
            rho[t] = (rho[t - 2] + rho[t - 1]) / 2
            rho[t + 1] = rho[t]
    total = m * n
    tau = -1 + 2 * np.sum(rho[:max_t]) + rho[max_t]
    tau = max(tau, 1 / np.log10(total))
    return total / tau


def geyer_tau_from_rho(rho):
    """Geyer's initial positive, then monotone, sequence: tau = -1 + 2 sum Gamma_k."""
    gammas = []
    k = 0
    while 2 * k + 1 < len(rho):
        g = rho[2 * k] + rho[2 * k + 1]
        if not g > 0:
            break
        gammas.append(g)
        k += 1
    for i in range(1, len(gammas)):
        gammas[i] = min(gammas[i], gammas[i - 1])
    return -1 + 2 * sum(gammas)


def ess_geyer_single(x):
    g = acov_direct(x)
    tau = geyer_tau_from_rho(g / g[0])
    return len(x) / max(tau, 1 / np.log10(len(x)))


def ess_geyer_multi(chains):
    m = len(chains)
    n = len(chains[0])
    acov = np.mean([acov_direct(x) for x in chains], axis=0)
    w = acov[0] * n / (n - 1)
    var_plus = w * (n - 1) / n + (np.var([np.mean(x) for x in chains], ddof=1) if m > 1 else 0)
    rho = 1 - (w - acov) / var_plus
    tau = geyer_tau_from_rho(rho)
    return m * n / max(tau, 1 / np.log10(m * n))


def z_scale(chains):
    a = np.concatenate(chains)
    r = stats.rankdata(a, method="average")
    z = special.ndtri((r - 3 / 8) / (len(a) + 1 / 4))
    out, o = [], 0
    for x in chains:
        out.append(z[o: o + len(x)])
        o += len(x)
    return out


def rhat_basic(chains):
    if is_constant(chains):
        return float("nan")
    n = len(chains[0])
    w = np.mean([np.var(x, ddof=1) for x in chains])
    b_over_n = np.var([np.mean(x) for x in chains], ddof=1)
    return np.sqrt(((n - 1) / n * w + b_over_n) / w)


def rhat_rank(chains):
    bulk = rhat_basic(z_scale(split(chains)))
    med = np.median(np.concatenate(chains))
    tail = rhat_basic(z_scale(split([np.abs(x - med) for x in chains])))
    return bulk, tail, max(bulk, tail)


def rhat_gelman_rubin(chains, df=False):
    """Gelman & Rubin (1992) sec. 3, with (df + 3)/(df + 1) as in Brooks & Gelman (1998) / coda."""
    m = len(chains)
    n = len(chains[0])
    means = np.array([np.mean(x) for x in chains])
    s2 = np.array([np.var(x, ddof=1) for x in chains])
    w = s2.mean()
    b = n * np.var(means, ddof=1)
    v = (n - 1) / n * w + (m + 1) / (m * n) * b
    if not df:
        return np.sqrt(v / w)
    var_v = (
        ((n - 1) / n) ** 2 / m * np.var(s2, ddof=1)
        + ((m + 1) / (m * n)) ** 2 * 2 / (m - 1) * b ** 2
        + 2 * (m + 1) * (n - 1) / (m * n ** 2) * n / m
        * (np.cov(s2, means ** 2)[0, 1] - 2 * means.mean() * np.cov(s2, means)[0, 1])
    )
    d = 2 * v ** 2 / var_v
    return np.sqrt((d + 3) / (d + 1) * v / w)


def ess_quantile(chains, p):
    q = np.quantile(np.concatenate(chains), p)
    return ess_stan(split([(np.asarray(x) <= q).astype(float) for x in chains]))


def ess_tail(chains):
    return min(ess_quantile(chains, 0.05), ess_quantile(chains, 0.95))


def mcse_quantile(chains, p):
    ess = ess_quantile(chains, p)
    a = stats.beta.ppf([0.1586553, 0.8413447], ess * p + 1, ess * (1 - p) + 1)
    s = np.sort(np.concatenate(chains))
    S = len(s)
    th1 = s[max(int(np.floor(a[0] * S)), 1) - 1]
    th2 = s[min(int(np.ceil(a[1] * S)), S) - 1]
    return (th2 - th1) / 2


def summary(chains):
    a = np.concatenate(chains)
    bulk, tail, r = rhat_rank(chains)
    sd = np.std(a, ddof=1)
    return {
        "mean": a.mean(),
        "sd": sd,
        "mcseMean": sd / np.sqrt(ess_stan(split(chains))),
        "q5": np.quantile(a, 0.05),
        "q50": np.quantile(a, 0.5),
        "q95": np.quantile(a, 0.95),
        "essBulk": ess_stan(z_scale(split(chains))),
        "essTail": ess_tail(chains),
        "rhat": r,
        "essGeyer": ess_geyer_multi(chains),
        "rhatClassic": rhat_gelman_rubin(chains) if len(chains) > 1 else float("nan"),
    }
