"""Measures a trained adapter: QQP's held-out half pair by pair, GPTCache's protocol, the near-miss set, and every
(cosine, cross-encoder) threshold pair. Usage: evaluate.py <adapter.pt | none>."""
import sys, os, numpy as np, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import *
ck = sys.argv[1]; r = int(os.environ.get('RANK', '16'))
sd = load_st(MODEL); model = Bert(sd, r=r, alpha=2 * max(r, 1))
if ck != 'none': print(model.load_state_dict(torch.load(ck), strict=False).unexpected_keys)
model.eval()
FLOOR = float(os.environ.get('FLOOR', '0.75'))
cache = os.path.join(DATA, 'embeddings.pt')
q = read('qqp-heldout.jsonl'); g = read('gptcache.jsonl'); nm = read('near.jsonl')
if os.path.exists(cache): E = torch.load(cache)
else:
    E = {'qa': model.embed([x['ia'] for x in q]), 'qb': model.embed([x['ib'] for x in q]), 'go': model.embed([x['io'] for x in g]), 'gs': model.embed([x['is'] for x in g]), 'na': model.embed([x['ia'] for x in nm]), 'nb': model.embed([x['ib'] for x in nm])}
    torch.save(E, cache)
# QQP pair by pair
cos = (E['qa'] * E['qb']).sum(-1).numpy(); y = np.array([x['y'] for x in q]); gd = np.array([x['g'] for x in q])
cand = np.where((cos >= FLOOR) & (gd == 1))[0]
ce = np.zeros(len(q)); ce[cand] = ce_scores(model, [(q[i]['ib'], q[i]['ia']) for i in cand])
P = y.sum()
def pr(sel): h = sel.sum(); return (y[sel].sum() / h if h else 0, y[sel].sum() / P, h)
print('QQP heldout', len(q), 'dups', P)
for t in [0.85, 0.9, 0.95, 0.97]:
    print(f' cos>={t} guard: prec %.3f rec %.3f hits %d' % pr((cos >= t) & (gd == 1)))
for t in [0.75, 0.8, 0.85]:
    for p in [0.3, 0.5, 0.7, 0.8, 0.9, 0.95]:
        print(f' cos>={t} guard ce>={p}: prec %.3f rec %.3f hits %d' % pr((cos >= t) & (gd == 1) & (ce >= p)))
# GPTCache protocol
guard = [l.strip() for l in open(os.path.join(DATA, 'gptcache-guard.txt'))]
S = (E['gs'] @ E['go'].t()).numpy(); origins = [x['o'] for x in g]
best = S.argmax(1); srt = np.sort(S, 1)
top, second = srt[:, -1], srt[:, -2]
ok_guard = np.array([guard[i][best[i]] == '1' for i in range(len(g))])
right = np.array([origins[best[i]] == g[i]['o'] for i in range(len(g))])
gce = ce_scores(model, [(g[i]['is'], g[best[i]]['io']) for i in range(len(g))])
def gpt(t, p, margin=0.02):
    hit = (top >= t) & ok_guard & ~(second >= top - margin) & (gce >= p)
    return int((hit & right).sum()), int((hit & ~right).sum())
print('GPTCache right/wrong')
for t in [0.75, 0.8, 0.85]:
    for m in [0.0, 0.02]:
        print(f' cos>={t} margin {m}:', ' '.join(f'p{p}:{gpt(t, p, m)}' for p in [0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95]))
ncos = (E['na'] * E['nb']).sum(-1).numpy(); ng = np.array([x['g'] for x in nm])
nce = ce_scores(model, [(x['ib'], x['ia']) for x in nm])
print('near misses', len(nm), 'cos>=0.85', int((ncos >= 0.85).sum()), 'guard passes', int(((ncos >= 0.75) & (ng == 1)).sum()), 'ce>=0.5 without guard', int(((ncos >= 0.75) & (nce >= 0.5)).sum()), 'ce>=0.8 without guard', int(((ncos >= 0.75) & (nce >= 0.8)).sum()))
# Every (cosine, cross-encoder) threshold pair: the best QQP precision at >= 20% recall, and the best under GPTCache's goal.
rows=[]
for t in np.arange(0.80,0.99,0.01):
  for p in np.arange(0,0.96,0.05):
    sel=(cos>=t)&(gd==1)&(ce>=p); h=sel.sum()
    if not h: continue
    prec=y[sel].sum()/h; rec=y[sel].sum()/P
    hit=(top>=t)&ok_guard&~(second>=top-0.02)&(gce>=p)
    rows.append((round(t,2),round(p,2),prec,rec,int((hit&right).sum()),int((hit&~right).sum())))
ok=[r for r in rows if r[3]>=0.2]; ok.sort(key=lambda r:-r[2])
for r in ok[:10]: print('cos>=%.2f ce>=%.2f QQP prec %.3f rec %.3f | GPTCache %d/%d'%r)
print('GPTCache-feasible (>=700, <=10):')
for r in sorted([r for r in rows if r[4]>=700 and r[5]<=10], key=lambda r:-r[2])[:5]: print('cos>=%.2f ce>=%.2f QQP prec %.3f rec %.3f | GPTCache %d/%d'%r)
