# The figures of tests/stats/variance_components_test.cpp: /usr/bin/python3 tests/stats/variance_components_oracle.py
# (numpy 1.24, statsmodels 0.13.5). A crossed design, init 3 levels x data order 3 x augmentation 2, every cell run
# twice with the same seeds (36 runs), ln TTA drawn with known components; statsmodels' MixedLM fits the same
# random-effects model by REML (one group, one variance component per factor).
import warnings
import numpy as np, pandas as pd
import statsmodels.formula.api as smf
warnings.simplefilter("ignore")
rng = np.random.default_rng(55)
truth = {"init": 0.02, "data": 0.05, "aug": 0.01, "residual": 0.005}
effects = {f: rng.normal(0, np.sqrt(truth[f]), n) for f, n in (("init", 3), ("data", 3), ("aug", 2))}
rows = []
for i in range(3):
    for d in range(3):
        for a in range(2):
            for r in range(2):
                y = 2.0 + effects["init"][i] + effects["data"][d] + effects["aug"][a] + rng.normal(0, np.sqrt(truth["residual"]))
                rows.append((i, d, a, round(float(y), 6)))
df = pd.DataFrame(rows, columns=["init", "data", "aug", "y"])
df["g"] = 1
m = smf.mixedlm("y ~ 1", df, groups="g", re_formula="0",
                vc_formula={"init": "0 + C(init)", "data": "0 + C(data)", "aug": "0 + C(aug)"}).fit(reml=True, method=["lbfgs", "powell"])
print("rows:", ", ".join("{%d, %d, %d, %.6f}" % r for r in rows))
print("vcomp (order of m.vcomp:", m.model.exog_vc.names, "):", [repr(x) for x in m.vcomp])
print("residual:", repr(m.scale), "mean:", repr(m.fe_params.iloc[0]), "reml llf:", repr(m.llf))
# The balanced design's method-of-moments (ANOVA) estimates, which REML equals when none is negative.
y = df["y"].to_numpy(); gm = y.mean(); n = len(y)
ss = {f: sum(len(g) * (g.mean() - gm) ** 2 for _, g in df.groupby(f)["y"]) for f in ("init", "data", "aug")}
dfs = {"init": 2, "data": 2, "aug": 1}
ss_res = ((y - gm) ** 2).sum() - sum(ss.values()); df_res = n - 1 - sum(dfs.values())
ms_res = ss_res / df_res
print("anova:", {f: repr((ss[f] / dfs[f] - ms_res) / (n / (dfs[f] + 1))) for f in ss}, "residual", repr(ms_res))
