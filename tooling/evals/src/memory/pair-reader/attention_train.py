"""
The attention pair reader: a decomposable-attention head (Parikh et al. 2016, with ESIM's
difference and product in the comparison) over the shared encoder's FROZEN per-word-piece token
states of two texts A (stored) and B (newer), trained with numpy. Each word piece of A is
soft-aligned to B's word pieces (dot product of projected states), compared with what it aligned to,
and the comparisons are pooled (mean and max) and classified; likewise for B. Two outputs share
everything below them: a 3-way NLI output (entailment / neutral / contradiction, SNLI pairs) and a
"B replaces A" output (templated tuning pairs of `relation-pairs.ts`), and a paraphrase output
(PAWS-Wiki dev pairs, when the dump has them).

Data: `attention-dump.ts`'s directory. Folds are the three tuning files, split **by attribute**: a
fold's attributes never appear in its training pairs (as A or B). Prints per fold the AUC of the
replace output (and of P(contradiction)), and per B with its first positive and its negatives what
a floor and margin would link (right / wrong / none); SNLI accuracy on the SNLI test subset when
training on the dev subset only (`--snli-check`).

  python3 attention_train.py DUMP_DIR [--d 32] [--epochs 12] [--snli-weight 1] [--paws-weight 1] [--tuning-weight 1]
      [--exclude FILE] [--out HEAD.json] [--gradcheck] [--snli-check]
"""
import argparse, json, time
import numpy as np

p = argparse.ArgumentParser()
p.add_argument('dump'); p.add_argument('--d', type=int, default=32); p.add_argument('--epochs', type=int, default=12)
p.add_argument('--lr', type=float, default=2e-3); p.add_argument('--l2', type=float, default=1e-4); p.add_argument('--batch', type=int, default=64)
p.add_argument('--snli-weight', type=float, default=1.0); p.add_argument('--paws-weight', type=float, default=1.0); p.add_argument('--tuning-weight', type=float, default=1.0)
p.add_argument('--exclude'); p.add_argument('--out'); p.add_argument('--seed', type=int, default=35)
p.add_argument('--gradcheck', action='store_true'); p.add_argument('--snli-check', action='store_true'); p.add_argument('--folds', default='all')
args = p.parse_args()

D = 384
texts = [json.loads(l) for l in open(f'{args.dump}/texts.jsonl')]
pairs = [json.loads(l) for l in open(f'{args.dump}/pairs.jsonl')]
states = np.fromfile(f'{args.dump}/states.f32', dtype=np.float32).reshape(-1, D)
MEAN, STD = states.mean(0), states.std(0)
STD = np.where(STD < 1e-3, 1.0, STD)  # three of MiniLM's dimensions are always 0 in the last block's output
Z = ((states - MEAN) / STD).astype(np.float32)
rows = [(t['row'], t['n']) for t in texts]


def batch_of(idx):
    """Padded, standardised states and masks of the pairs `idx`."""
    la = max(rows[pairs[i]['a']][1] for i in idx); lb = max(rows[pairs[i]['b']][1] for i in idx)
    Xa = np.zeros((len(idx), la, D), np.float32); Xb = np.zeros((len(idx), lb, D), np.float32)
    ma = np.zeros((len(idx), la), np.float32); mb = np.zeros((len(idx), lb), np.float32)
    for k, i in enumerate(idx):
        (ra, na), (rb, nb) = rows[pairs[i]['a']], rows[pairs[i]['b']]
        Xa[k, :na] = Z[ra:ra + na]; ma[k, :na] = 1; Xb[k, :nb] = Z[rb:rb + nb]; mb[k, :nb] = 1
    return Xa, ma, Xb, mb


def init(d, seed):
    rng = np.random.default_rng(seed)
    g = lambda *s: (rng.normal(0, 1 / np.sqrt(s[0]), s)).astype(np.float32)
    return {'Wf': g(D, d), 'bf': np.zeros(d, np.float32), 'Wp': g(D, d), 'bp': np.zeros(d, np.float32),
            'Wg': g(4 * d, d), 'bg': np.zeros(d, np.float32), 'Wh': g(4 * d, d), 'bh': np.zeros(d, np.float32),
            'Wo': g(d, 5), 'bo': np.zeros(5, np.float32)}


def softmax(E, axis):
    E = E - E.max(axis, keepdims=True); X = np.exp(E); return X / X.sum(axis, keepdims=True)


def side(P, aligned, m, W, b):
    """Compare each word piece with what it aligned to, pool: mean and max over the text's pieces."""
    C = np.concatenate([P, aligned, P * aligned, P - aligned], -1)
    G = np.maximum(0, C @ W + b) * m[:, :, None]
    return C, G, G.sum(1) / m.sum(1, keepdims=True), G.max(1)


def forward(w, Xa, ma, Xb, mb):
    Ha = np.maximum(0, Xa @ w['Wf'] + w['bf']); Hb = np.maximum(0, Xb @ w['Wf'] + w['bf'])
    Pa = Xa @ w['Wp'] + w['bp']; Pb = Xb @ w['Wp'] + w['bp']
    E = Ha @ Hb.transpose(0, 2, 1)
    Sa = softmax(E + (mb[:, None, :] - 1) * 1e4, 2); Sb = softmax(E + (ma[:, :, None] - 1) * 1e4, 1)
    beta = Sa @ Pb; alpha = Sb.transpose(0, 2, 1) @ Pa
    Ca, Ga, am, ax = side(Pa, beta, ma, w['Wg'], w['bg']); Cb, Gb, bm, bx = side(Pb, alpha, mb, w['Wg'], w['bg'])
    v = np.concatenate([am, ax, bm, bx], -1)
    h = np.maximum(0, v @ w['Wh'] + w['bh'])
    out = h @ w['Wo'] + w['bo']
    cache = dict(Xa=Xa, Xb=Xb, ma=ma, mb=mb, Ha=Ha, Hb=Hb, Pa=Pa, Pb=Pb, Sa=Sa, Sb=Sb, beta=beta, alpha=alpha, Ca=Ca, Cb=Cb, Ga=Ga, Gb=Gb, v=v, h=h)
    return out, cache


def loss_grad(out, label, source, weight):
    """Cross-entropy over the 3 NLI logits for SNLI rows; logistic on the replace logit (3) for tuning
    rows and on the paraphrase logit (4) for PAWS rows."""
    n = len(out); dout = np.zeros_like(out); loss = 0.0
    s = source == 0
    if s.any():
        P = softmax(out[s, :3], 1); y = label[s].astype(int)
        loss += -(weight[s] * np.log(P[np.arange(s.sum()), y] + 1e-9)).sum()
        G = P.copy(); G[np.arange(s.sum()), y] -= 1; dout[s, :3] = G * weight[s, None]
    for src, col in ((1, 3), (2, 4)):
        t = source == src
        if not t.any(): continue
        q = 1 / (1 + np.exp(-out[t, col])); y = label[t]
        loss += -(weight[t] * (y * np.log(q + 1e-9) + (1 - y) * np.log(1 - q + 1e-9))).sum()
        dout[t, col] = (q - y) * weight[t]
    return loss / n, dout / n


def pool_back(G, m, dmean, dmax):
    dG = dmean[:, None, :] * m[:, :, None] / m.sum(1)[:, None, None]
    arg = G.argmax(1); n, d = arg.shape
    dG[np.arange(n)[:, None], arg, np.arange(d)[None, :]] += dmax
    return dG * (G > 0)


def backward(w, c, dout):
    g = {}; d = w['bf'].shape[0]
    g['Wo'] = c['h'].T @ dout; g['bo'] = dout.sum(0)
    dzh = (dout @ w['Wo'].T) * (c['h'] > 0); g['Wh'] = c['v'].T @ dzh; g['bh'] = dzh.sum(0)
    dv = dzh @ w['Wh'].T
    dZa = pool_back(c['Ga'], c['ma'], dv[:, :d], dv[:, d:2 * d]); dZb = pool_back(c['Gb'], c['mb'], dv[:, 2 * d:3 * d], dv[:, 3 * d:])
    g['Wg'] = np.einsum('nlc,nld->cd', c['Ca'], dZa) + np.einsum('nlc,nld->cd', c['Cb'], dZb); g['bg'] = dZa.sum((0, 1)) + dZb.sum((0, 1))
    dCa = dZa @ w['Wg'].T; dCb = dZb @ w['Wg'].T
    def split(dC, P, al):
        d1, d2, d3, d4 = dC[..., :d], dC[..., d:2 * d], dC[..., 2 * d:3 * d], dC[..., 3 * d:]
        return d1 + d3 * al + d4, d2 + d3 * P - d4
    dPa, dbeta = split(dCa, c['Pa'], c['beta']); dPb, dalpha = split(dCb, c['Pb'], c['alpha'])
    Sa, Sb = c['Sa'], c['Sb']
    dSa = dbeta @ c['Pb'].transpose(0, 2, 1); dPb = dPb + Sa.transpose(0, 2, 1) @ dbeta
    dSb = c['Pa'] @ dalpha.transpose(0, 2, 1); dPa = dPa + Sb @ dalpha
    dE = Sa * (dSa - (dSa * Sa).sum(2, keepdims=True)) + Sb * (dSb - (dSb * Sb).sum(1, keepdims=True))
    dHa = (dE @ c['Hb']) * (c['Ha'] > 0); dHb = (dE.transpose(0, 2, 1) @ c['Ha']) * (c['Hb'] > 0)
    g['Wf'] = np.einsum('nlc,nld->cd', c['Xa'], dHa) + np.einsum('nlc,nld->cd', c['Xb'], dHb); g['bf'] = (dHa * c['ma'][:, :, None]).sum((0, 1)) + (dHb * c['mb'][:, :, None]).sum((0, 1))
    g['Wp'] = np.einsum('nlc,nld->cd', c['Xa'], dPa) + np.einsum('nlc,nld->cd', c['Xb'], dPb); g['bp'] = (dPa * c['ma'][:, :, None]).sum((0, 1)) + (dPb * c['mb'][:, :, None]).sum((0, 1))
    return g


SOURCES = {'snli': 0, 'tuning': 1, 'paws': 2}


def targets(idx):
    source = np.array([SOURCES[pairs[i]['source']] for i in idx]); label = np.array([pairs[i]['label'] for i in idx], np.float32)
    weight = np.choose(source, [args.snli_weight, args.tuning_weight, args.paws_weight]).astype(np.float32)
    return source, label, weight


def gradcheck():
    global Z
    Z = Z.astype(np.float64)
    w = {k: v.astype(np.float64) for k, v in init(4, 1).items()}
    idx = [0, 1, 2, len(pairs) - 1, len(pairs) - 2]
    Xa, ma, Xb, mb = batch_of(idx); source, label, weight = targets(idx)
    out, c = forward(w, Xa, ma, Xb, mb); _, dout = loss_grad(out, label, source, weight); g = backward(w, c, dout)
    rng = np.random.default_rng(0)
    for k in w:
        for _ in range(3):
            i = tuple(rng.integers(0, s) for s in w[k].shape); old = w[k][i]
            w[k][i] = old + 1e-5; lp = loss_grad(forward(w, Xa, ma, Xb, mb)[0], label, source, weight)[0]
            w[k][i] = old - 1e-5; lm = loss_grad(forward(w, Xa, ma, Xb, mb)[0], label, source, weight)[0]; w[k][i] = old
            print(f'{k}{i}: analytic {g[k][i]:.6g} numeric {(lp - lm) / 2e-5:.6g}')


def train(train_idx, seed):
    w = init(args.d, seed); m = {k: np.zeros_like(v) for k, v in w.items()}; s = {k: np.zeros_like(v) for k, v in w.items()}
    rng = np.random.default_rng(seed); t = 0
    # Batches of similar lengths (less padding), in a shuffled order each epoch.
    by_len = sorted(train_idx, key=lambda i: (rows[pairs[i]['a']][1] + rows[pairs[i]['b']][1], i))
    for epoch in range(args.epochs):
        chunks = [by_len[k:k + args.batch] for k in range(0, len(by_len), args.batch)]; rng.shuffle(chunks); total = 0.0
        for idx in chunks:
            Xa, ma, Xb, mb = batch_of(idx); source, label, weight = targets(idx)
            out, c = forward(w, Xa, ma, Xb, mb); loss, dout = loss_grad(out, label, source, weight); g = backward(w, c, dout); total += loss * len(idx)
            t += 1
            for k in w:
                gk = g[k] + args.l2 * w[k]
                m[k] = 0.9 * m[k] + 0.1 * gk; s[k] = 0.999 * s[k] + 0.001 * gk * gk
                w[k] -= (args.lr * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(s[k] / (1 - 0.999 ** t)) + 1e-8)).astype(np.float32)
        print(f'  epoch {epoch}: loss {total / len(train_idx):.4f}', flush=True)
    return w


def predict(w, idx):
    out = np.zeros((len(idx), 5), np.float32)
    for k in range(0, len(idx), 256):
        sub = idx[k:k + 256]; out[k:k + len(sub)] = forward(w, *batch_of(sub))[0]
    return out


def auc(s, y):
    order = np.argsort(s); ranks = np.empty(len(s)); ranks[order] = np.arange(1, len(s) + 1)
    pos = y > 0.5; return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


def links(idx, score, floor, margin):
    groups = {}
    for k, i in enumerate(idx): groups.setdefault((pairs[i]['b'], pairs[i]['kind']), []).append(k)
    right = wrong = none = 0
    for members in groups.values():
        pos = [k for k in members if pairs[idx[k]]['label'] > 0.5][:1]; cand = pos + [k for k in members if pairs[idx[k]]['label'] < 0.5]
        ranked = sorted(cand, key=lambda k: -score[k])
        if score[ranked[0]] < floor or (len(ranked) > 1 and score[ranked[0]] - score[ranked[1]] < margin): none += 1
        elif pairs[idx[ranked[0]]]['label'] > 0.5: right += 1
        else: wrong += 1
    return right, wrong, none


if args.gradcheck:
    gradcheck(); raise SystemExit
snli = [i for i, q in enumerate(pairs) if q['source'] == 'snli']; paws = [i for i, q in enumerate(pairs) if q['source'] == 'paws']; tuning = [i for i, q in enumerate(pairs) if q['source'] == 'tuning']
if args.snli_check:
    # SNLI alone: the first file's pairs (dev subset) train, the rest (test subset) judge.
    n_dev = 1273  # pairs with a gold label in snli_1.0_dev.jsonl of the dump
    w = train(snli[:n_dev], args.seed); out = predict(w, snli[n_dev:])
    y = np.array([pairs[i]['label'] for i in snli[n_dev:]]); print(f'SNLI test subset accuracy {(out[:, :3].argmax(1) == y).mean():.3f} of {len(y)}')
    raise SystemExit
files = sorted(set(pairs[i]['file'] for i in tuning))
attrs_of = {f: set(pairs[i]['attrB'] for i in tuning if pairs[i]['file'] == f) for f in files}
for f in files if args.folds == 'all' else args.folds.split(','):
    held = attrs_of[f]; t0 = time.process_time()
    tr = snli + (paws if args.paws_weight > 0 else []) + [i for i in tuning if pairs[i]['attrA'] not in held and pairs[i]['attrB'] not in held]
    te = [i for i in tuning if pairs[i]['attrB'] in held]
    w = train(tr if args.tuning_weight > 0 else snli, args.seed); out = predict(w, te)
    replace = 1 / (1 + np.exp(-out[:, 3])); contra = softmax(out[:, :3], 1)[:, 2]; y = np.array([pairs[i]['label'] for i in te])
    print(f'fold {f}: {len(tr)} train / {len(te)} held pairs, {time.process_time() - t0:.0f} s CPU; AUC replace {auc(replace, y):.3f}, P(contradiction) {auc(contra, y):.3f}')
    for kind in ('update', 'state'):
        sub = [k for k, i in enumerate(te) if pairs[i]['kind'] == kind]; idx = [te[k] for k in sub]
        for fl, mg in [(0.5, 0.2), (0.8, 0.1), (0.9, 0.1), (0.9, 0.3)]: print(f'  {kind} replace >= {fl}, {mg} ahead: right / wrong / none {links(idx, replace[sub], fl, mg)}')
    if args.out:
        name = f"{args.out.removesuffix('.json')}-no-{f}.json"
        r = lambda a: np.round(a.astype(np.float64), 5).tolist()
        json.dump({'id': f'minilm-attention-v1-d{args.d}-no-{f}', 'about': 'Does text B replace stored text A: decomposable attention over frozen MiniLM token states (tooling/evals/src/memory/pair-reader/attention_train.py), fitted on SNLI (CC BY-SA 4.0), PAWS-Wiki dev if in the dump, and templated tuning pairs without this file.',
                   'mean': r(MEAN), 'std': r(STD), **{k: r(v) for k, v in w.items()}}, open(name, 'w'))
        print('wrote', name)
