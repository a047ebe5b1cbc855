"""Data and model of the pair model (README.md here): token states from states.py, pairs from export.ts."""
import json, math, os
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F

DATA = os.environ.get('DATA', '/tmp/svc-pair-model')


class States:
    """Per-text token states of the chosen layers (concatenated) and sentence vectors, by text."""

    def __init__(self, layers):
        texts = json.load(open(os.path.join(DATA, 'texts.json')))
        self.index = {t: i for i, t in enumerate(texts)}
        self.offsets = np.load(os.path.join(DATA, 'offsets.npy'))
        self.layers = [np.load(os.path.join(DATA, f'states-L{L}.npy'), mmap_mode='r') for L in layers]
        self.vectors = np.load(os.path.join(DATA, 'vectors.npy'))
        self.cache = {}
        self.ids = {}

    def word_pieces(self, text):
        return self.ids[text]

    def tokens(self, text):
        i = self.index[text]
        if i not in self.cache:
            s, e = self.offsets[i], self.offsets[i + 1]
            self.cache[i] = torch.from_numpy(np.concatenate([np.asarray(L[s:e], dtype=np.float32) for L in self.layers], axis=1))
        return self.cache[i]

    def cosine(self, a, b):
        return float(self.vectors[self.index[a]] @ self.vectors[self.index[b]])


def read(name, states=None):
    rows = [json.loads(l) for l in open(os.path.join(DATA, name + '.jsonl'))]
    if states is not None:
        for r in rows:
            states.ids[r['a']] = torch.tensor(r['ia'][1:-1])
            states.ids[r['b']] = torch.tensor(r['ib'][1:-1])
    return rows


def pad(seqs):
    T = max(len(s) for s in seqs)
    x = torch.zeros(len(seqs), T, seqs[0].shape[1])
    mask = torch.zeros(len(seqs), T)
    for i, s in enumerate(seqs):
        x[i, :len(s)] = s
        mask[i, :len(s)] = 1
    return x, mask


class PairHead(nn.Module):
    """Reads two texts' token states: projects each token to `d` (what a stored entry keeps),
    soft-aligns every token of one text to the other's, compares each token with what it aligned
    to and with where (whether neighbours' matches keep their order), a width-3 convolution over
    the comparisons, mean and max pooling, both directions, one logistic unit (with the cosine)."""

    def __init__(self, dim_in, d=32, h=32):
        super().__init__()
        self.proj = nn.Linear(dim_in, d)
        self.temp = nn.Parameter(torch.tensor(1.0 / math.sqrt(d)))
        self.cmp1 = nn.Linear(4 * d + 3, h)
        self.cmp2 = nn.Linear(h, h)
        self.conv = nn.Conv1d(h, h, 3, padding=1)
        self.out1 = nn.Linear(4 * h + 1, h)
        self.out2 = nn.Linear(h, 1)

    def features(self, x):
        return self.proj(x)

    def direction(self, u, mu, v, mv):
        s = torch.einsum('bid,bjd->bij', u, v) * self.temp + (1 - mv[:, None, :]) * -1e4
        a = torch.softmax(s, -1)
        al = a @ v
        n = mv.sum(1, keepdim=True)
        pos = torch.arange(v.shape[1], dtype=torch.float32)[None, None, :]
        rho = (a * pos).sum(-1)  # expected index of the match in the other text
        prev = torch.cat([rho[:, :1] - 1, rho[:, :-1]], 1)
        # the last real token's next is one past its match (as for a text alone, unpadded)
        real_next = torch.cat([mu[:, 1:], torch.zeros_like(mu[:, :1])], 1)
        nxt = torch.where(real_next > 0, torch.cat([rho[:, 1:], rho[:, -1:]], 1), rho + 1)
        dp = (rho - prev).clamp(-4, 4)
        dn = (nxt - rho).clamp(-4, 4)
        conf = a.max(-1).values
        c = torch.cat([u, al, u - al, u * al, dp[..., None], dn[..., None], conf[..., None]], -1)
        c = F.relu(self.cmp2(F.relu(self.cmp1(c))))
        c = F.relu(self.conv((c * mu[..., None]).transpose(1, 2))).transpose(1, 2)
        mean = (c * mu[..., None]).sum(1) / mu.sum(1, keepdim=True)
        mx = (c + (1 - mu[..., None]) * -1e4).max(1).values
        return mean, mx

    def forward(self, xa, ma, xb, mb, cos, same=None):
        u, v = self.features(xa), self.features(xb)
        m1, x1 = self.direction(u, ma, v, mb)
        m2, x2 = self.direction(v, mb, u, ma)
        r = torch.cat([m1 + m2, x1 + x2, (m1 - m2).abs(), (x1 - x2).abs(), cos[:, None]], -1)
        return self.out2(F.relu(self.out1(r))).squeeze(-1)


def batches(rows, states, bs, shuffle=False, swap=False, sources=False):
    order = np.random.permutation(len(rows)) if shuffle else np.arange(len(rows))
    for s in range(0, len(rows), bs):
        chunk = [rows[i] for i in order[s:s + bs]]
        pairs = [(r['b'], r['a']) if swap and np.random.rand() < 0.5 else (r['a'], r['b']) for r in chunk]
        xa, ma = pad([states.tokens(a) for a, _ in pairs])
        xb, mb = pad([states.tokens(b) for _, b in pairs])
        cos = torch.tensor([states.cosine(a, b) for a, b in pairs])
        y = torch.tensor([float(r['y']) for r in chunk])
        ia, _ = pad([states.word_pieces(a)[:, None].float() for a, _ in pairs])
        ib, _ = pad([states.word_pieces(b)[:, None].float() for _, b in pairs])
        same = (ia[:, :, None, 0] == ib[:, None, :, 0]).float()
        if sources:
            yield xa, ma, xb, mb, cos, same, y, [r.get('src', 'extra') for r in chunk]
        else:
            yield xa, ma, xb, mb, cos, same, y


@torch.no_grad()
def scores(model, rows, states, bs=256):
    model.eval()
    out = []
    for xa, ma, xb, mb, cos, same, _ in batches(rows, states, bs):
        out.append(torch.sigmoid(model(xa, ma, xb, mb, cos, same)))
    model.train()
    return torch.cat(out).numpy()


def auc(y, p):
    y = np.asarray(y); order = np.argsort(p); ranks = np.empty(len(p)); ranks[order] = np.arange(1, len(p) + 1)
    pos = y == 1
    return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


class GridHead(nn.Module):
    """Reads the two texts' interaction grid as an image (MatchPyramid-like): per word-piece pair
    the scaled dot product of their projected states and whether they are the same word piece;
    two 3x3 convolutions see whether matches run along a diagonal (same order) or stand alone
    (a word moved to another role); max and mean pooling; one logistic unit with the cosine."""

    def __init__(self, dim_in, d=32, h=8):
        super().__init__()
        self.proj = nn.Linear(dim_in, d)
        self.d = d
        self.conv1 = nn.Conv2d(2, h, 3, padding=1)
        self.conv2 = nn.Conv2d(h, h, 3, padding=1)
        self.out1 = nn.Linear(2 * h + 1, 16)
        self.out2 = nn.Linear(16, 1)

    def features(self, x):
        return self.proj(x)

    def forward(self, xa, ma, xb, mb, cos, same):
        u, v = self.features(xa), self.features(xb)
        s = torch.einsum('bid,bjd->bij', F.normalize(u, dim=-1), F.normalize(v, dim=-1))
        mask = (ma[:, :, None] * mb[:, None, :])[:, None]
        g = torch.stack([s, same], 1) * mask
        g = F.relu(self.conv1(g)) * mask
        g = F.relu(self.conv2(g)) * mask
        mx = (g + (1 - mask) * -1e4).amax((2, 3))
        mean = g.sum((2, 3)) / mask.sum((2, 3))
        if os.environ.get('NOCOS') == '1':
            cos = torch.zeros_like(cos)  # the grid alone decides (the cosine's weight learns nothing)
        return self.out2(F.relu(self.out1(torch.cat([mx, mean, cos[:, None]], -1)))).squeeze(-1)
