#!/usr/bin/python3
# The oracle values of improvement_test.cpp's Newcombe interval: Newcombe (2006) method 5 written out again from the
# paper with scipy (Debian's python3-scipy 1.10.1): V(theta) from Hanley and McNeil with N* = (m + n) / 2 - 1, the
# bounds as the roots of (theta_hat - theta)^2 = q^2 V(theta) on each side of theta_hat (scipy.optimize.brentq),
# q = scipy.stats.t.ppf(1 - alpha / 2, m + n - 2).
# Run: /usr/bin/python3 tests/stats/improvement_oracle.py
import scipy.optimize
import scipy.stats


def newcombe5_t(theta_hat, m, n, alpha=0.05):
    q = scipy.stats.t.ppf(1 - alpha / 2, m + n - 2)
    n_star = (m + n) / 2 - 1

    def g(theta):
        v = theta * (1 - theta) / (m * n) * (1 + (n_star - 1) * ((1 - theta) / (2 - theta) + theta / (1 + theta)))
        return (theta_hat - theta) ** 2 - q * q * v

    eps = 1e-12
    inside = min(max(theta_hat, eps), 1 - eps)
    lower = 0.0 if theta_hat <= 0 or g(0) <= 0 else scipy.optimize.brentq(g, 0, inside, xtol=1e-15)
    upper = 1.0 if theta_hat >= 1 or g(1) <= 0 else scipy.optimize.brentq(g, inside, 1, xtol=1e-15)
    return lower, upper


def theta(a, b):
    # P(A < B) + P(tie) / 2, inf for a run that never reached.
    return sum((x < y) + 0.5 * (x == y) for x in a for y in b) / (len(a) * len(b))


inf = float("inf")
cases = [
    ("3 vs 3 with never-reached", [10, 20, inf], [15, inf, inf]),
    ("separated 3 vs 3", [1, 2, 3], [10, 11, 12]),
    ("separated the other way 5 vs 4", [10, 11, 12, 13, 14], [1, 2, 3, 4]),
    ("2 vs 2 tied", [5, 7], [5, 7]),
    ("10 vs 10", [31, 29, 33, 30, 35, 28, 32, 30.5, 34, 29.5], [36, 38, 34.5, 40, 37, 35, 39, 33.5, 36.5, 38.5]),
]
for name, a, b in cases:
    t = theta(a, b)
    lo, hi = newcombe5_t(t, len(a), len(b))
    print(f"{name}: theta {t:.12g} interval [{lo:.12g}, {hi:.12g}]")
lo, hi = newcombe5_t(0.7, 8, 12, alpha=0.1)
print(f"theta 0.7, m 8, n 12, alpha 0.1: [{lo:.12g}, {hi:.12g}]")
