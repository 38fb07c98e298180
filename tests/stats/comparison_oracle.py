#!/usr/bin/python3
# The oracle values of comparison_test.cpp: Debian's python3-statsmodels and python3-scipy (scripts/setup.sh).
# Run: /usr/bin/python3 tests/stats/comparison_oracle.py
import numpy as np
import scipy.stats
from statsmodels.duration.survfunc import SurvfuncRight, survdiff

# Fixtures with censoring (status 0) and ties across and within groups.
A_TIME = [10, 12, 12, 15, 20, 22, 30, 31, 35, 40]
A_EVENT = [1, 1, 1, 1, 0, 1, 0, 1, 1, 0]
B_TIME = [14, 15, 15, 18, 22, 25, 25, 28, 33, 41, 45, 50]
B_EVENT = [1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1]


def log_rank():
    time = np.array(A_TIME + B_TIME, float)
    status = np.array(A_EVENT + B_EVENT)
    group = np.array([0] * len(A_TIME) + [1] * len(B_TIME))
    chisq, p = survdiff(time, status, group)
    print(f"log-rank chisq {chisq:.12g} p {p:.12g}")


def rmst(time, event, tau):
    sf = SurvfuncRight(np.array(time, float), np.array(event))
    t = np.concatenate([[0.0], sf.surv_times])
    s = np.concatenate([[1.0], sf.surv_prob])
    keep = t <= tau
    t, s = t[keep], s[keep]
    edges = np.append(t, tau)
    area = np.sum(s * np.diff(edges))
    # Klein and Moeschberger's variance: A_i = integral of S from t_i to tau, over event times t_i <= tau.
    variance = 0.0
    for i in range(1, len(t)):
        a_i = np.sum(s[i:] * np.diff(edges[i:]))
        n, d = sf.n_risk[i - 1], sf.n_events[i - 1]
        if n > d:
            variance += a_i * a_i * d / (n * (n - d))
    return area, np.sqrt(variance)


def restricted_means():
    for tau in (30.0, 40.0):
        ma, sa = rmst(A_TIME, A_EVENT, tau)
        mb, sb = rmst(B_TIME, B_EVENT, tau)
        print(f"rmst tau {tau}: A {ma:.12g} se {sa:.12g}; B {mb:.12g} se {sb:.12g}")


def ratio_bootstrap():
    a = np.array([31.2, 29.8, 33.5, 30.1, 35.9, 28.7, 32.2, 30.9, 34.4, 29.5, 31.7, 33.0, 30.4, 36.8, 29.1])
    b = np.array([36.1, 38.4, 34.9, 40.2, 37.7, 35.5, 39.6, 41.8, 36.9, 38.0, 35.2, 42.5])
    res = scipy.stats.bootstrap((a, b), lambda x, y: np.median(x) / np.median(y), vectorized=False, paired=False,
                                n_resamples=20000, method="percentile", confidence_level=0.95,
                                random_state=np.random.default_rng(7))
    print(f"ratio {np.median(a) / np.median(b):.12g} interval {res.confidence_interval.low:.12g} "
          f"{res.confidence_interval.high:.12g}")


log_rank()
restricted_means()
ratio_bootstrap()


def log_rank_shifted():
    # B's times x 0.4: a clear difference in B's favour.
    time = np.array(A_TIME + [t * 0.4 for t in B_TIME], float)
    status = np.array(A_EVENT + B_EVENT)
    group = np.array([0] * len(A_TIME) + [1] * len(B_TIME))
    chisq, p = survdiff(time, status, group)
    print(f"log-rank B x0.4: chisq {chisq:.12g} p {p:.12g}")


def boundaries_crossing():
    # P(some |Z_k| >= c_k) for the published Lan-DeMets O'Brien-Fleming bounds, K = 5 equally spaced looks: the
    # joint normal with corr(Z_j, Z_k) = sqrt(t_j / t_k), integrated by scipy (Genz).
    c = np.array([4.8769, 3.3569, 2.6803, 2.2898, 2.0310])
    t = np.arange(1, 6) / 5
    cov = np.sqrt(np.minimum.outer(t, t) / np.maximum.outer(t, t))
    inside = scipy.stats.multivariate_normal.cdf(c, mean=np.zeros(5), cov=cov, lower_limit=-c, abseps=1e-7,
                                                 releps=1e-7, maxpts=10**7)
    print(f"K=5 bounds cross with probability {1 - inside:.6f}")


log_rank_shifted()
boundaries_crossing()


def permutation_variance(scale_b):
    # O_A - E_A over the permutation variance of the log-rank scores (event - pooled Nelson-Aalen at its time).
    time = np.array(A_TIME + [t * scale_b for t in B_TIME], float)
    event = np.array(A_EVENT + B_EVENT, float)
    in_a = np.arange(len(time)) < len(A_TIME)
    hazard = {}
    cumulative = 0.0
    for t in np.unique(time):
        at_risk = np.sum(time >= t)
        cumulative += np.sum(event[time == t]) / at_risk
        hazard[t] = cumulative
    scores = event - np.array([hazard[t] for t in time])
    n, na = len(time), in_a.sum()
    variance = na * (n - na) / (n * (n - 1)) * np.sum(scores ** 2)
    z = scores[in_a].sum() / np.sqrt(variance)
    print(f"permutation variance (B x {scale_b}): U {scores[in_a].sum():.12g} V {variance:.12g} z {z:.12g} "
          f"p {2 * scipy.stats.norm.sf(abs(z)):.12g}")


permutation_variance(1.0)
permutation_variance(0.4)
