# The expected figures of VarianceSourcesTest.ARealDesignAgreesWithAnIndependentReml: /usr/bin/python3
# tests/analysis/variance_sources_oracle.py (numpy 1.24, scipy 1.10, statsmodels 0.13.5). The rows are the built-in
# entry baseline's 16 runs of a real [variance] design (docs/variance.md: init x data order x augmentation, 2 seeds
# each, every combination twice; seeds shortened to their last three digits, TTA in seconds at target 0.80).
# An independent REML, the dense n x n likelihood minimized by scipy's Nelder-Mead from three starts, gives the
# components; statsmodels' MixedLM is printed beside it: at this boundary (two sources at 0) it stops at a worse
# likelihood (-2 log L -36.28 against -36.45), so it is not the oracle here.
import warnings
import numpy as np, pandas as pd
import statsmodels.formula.api as smf
from scipy.optimize import minimize
warnings.simplefilter("ignore")
rows = [(229, 958, 280, 0.5930984369999999), (964, 958, 280, 0.672460648), (964, 74, 280, 0.49611502899999993),
        (229, 958, 816, 0.640320981), (964, 958, 816, 0.494864216), (964, 74, 816, 0.4724788),
        (229, 74, 280, 0.636304816), (229, 74, 816, 0.8209130840000001), (964, 958, 280, 0.568516813),
        (964, 74, 280, 0.553939415), (964, 958, 816, 0.546866635), (229, 74, 816, 0.9842658559999999),
        (229, 958, 280, 0.8558098769999999), (229, 74, 280, 0.6824273009999999), (229, 958, 816, 0.646595663),
        (964, 74, 816, 0.588493221)]
df = pd.DataFrame(rows, columns=["init", "data", "aug", "tta"])
y = np.log(df["tta"].to_numpy()); n = len(y)
Z = [np.equal.outer(df[c].to_numpy(), df[c].to_numpy()).astype(float) for c in ("init", "data", "aug")]
def m2l(th):
    v = np.exp(th)
    V = v[0] * Z[0] + v[1] * Z[1] + v[2] * Z[2] + v[3] * np.eye(n)
    Vi = np.linalg.inv(V); one = np.ones(n)
    a = one @ Vi @ one; b = one @ Vi @ y; c = y @ Vi @ y
    return np.linalg.slogdet(V)[1] + np.log(a) + c - b * b / a
best = min((minimize(m2l, s, method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000,
                                                             "maxfev": 40000})
            for s in ([-3] * 4, [-5, -8, -8, -4], [-2, -10, -10, -3])), key=lambda r: r.fun)
print("dense REML (init, data, aug, residual):", [repr(x) for x in np.exp(best.x)], "-2 log L", best.fun)
df["y"] = y; df["g"] = 1
m = smf.mixedlm("y ~ 1", df, groups="g", re_formula="0",
                vc_formula={"init": "0 + C(init)", "data": "0 + C(data)", "aug": "0 + C(aug)"}).fit(reml=True)
print("statsmodels", m.model.exog_vc.names, [repr(x) for x in m.vcomp], "residual", repr(m.scale))
