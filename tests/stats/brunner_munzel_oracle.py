# The figures of tests/stats/brunner_munzel_test.cpp: python3 tests/stats/brunner_munzel_oracle.py (scipy 1.10).
import numpy as np, itertools
from scipy.stats import brunnermunzel, t as tdist, rankdata
BIG=1e300
def vals(times,events): return np.array([t if e else BIG for t,e in zip(times,events)],float)
A=vals([10,12,12,15,20,22,30,31,35,40],[1,1,1,1,0,1,0,1,1,0])
B=vals([14,15,15,18,22,25,25,28,33,41,45,50],[1,1,0,1,1,1,1,0,1,1,0,1])
def stat(a,b):
    na,nb=len(a),len(b); r=rankdata(np.concatenate([a,b])); ra=rankdata(a); rb=rankdata(b)
    Ra,Rb=r[:na],r[na:]
    p=(Rb.mean()-(nb+1)/2)/na
    Sa=((Ra-ra-Ra.mean()+(na+1)/2)**2).sum()/(na-1); Sb=((Rb-rb-Rb.mean()+(nb+1)/2)**2).sum()/(nb-1)
    v=Sa/(nb**2*na)+Sb/(na**2*nb)
    if v<=0: v=1/(4*na*nb)
    return p,(p-0.5)/np.sqrt(v),np.sqrt(v)
r=brunnermunzel(A,B)
p,tt,se=stat(A,B)
print('fixture: scipy statistic',repr(r.statistic),'mine',repr(tt),'p-hat',repr(p),'se',repr(se),'p t(min-1=9)',repr(2*tdist.sf(abs(tt),9)))
B2=vals(np.array([14,15,15,18,22,25,25,28,33,41,45,50])*0.4,[1,1,0,1,1,1,1,0,1,1,0,1])
r=brunnermunzel(A,B2); p,tt,se=stat(A,B2)
print('fixture B x0.4: scipy',repr(r.statistic),'mine',repr(tt),'p-hat',repr(p),'p t9',repr(2*tdist.sf(abs(tt),9)))
a=vals([10,12,15,20,22],[1,1,1,0,1]); b=vals([14,18,25,28,33],[1,1,1,1,1])
p,tt,se=stat(a,b)
pool=np.concatenate([a,b]); cnt=0; tot=0
for idx in itertools.combinations(range(10),5):
    m=np.zeros(10,bool); m[list(idx)]=True
    _,ts,_=stat(pool[m],pool[~m]); tot+=1; cnt+= abs(ts)>=abs(tt)*(1-1e-12)
print('small: scipy',repr(brunnermunzel(a,b).statistic),'mine',repr(tt),'p-hat',repr(p),'exact p',cnt,'/',tot,repr(cnt/tot))
a=np.arange(1,6.); b=np.arange(6,11.)
p,tt,se=stat(a,b); pool=np.concatenate([a,b]); cnt=0; tot=0
for idx in itertools.combinations(range(10),5):
    m=np.zeros(10,bool); m[list(idx)]=True
    _,ts,_=stat(pool[m],pool[~m]); tot+=1; cnt+= abs(ts)>=abs(tt)*(1-1e-12)
print('separated: t',tt,'exact p',cnt,'/',tot)
