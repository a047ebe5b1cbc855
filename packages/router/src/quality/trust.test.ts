import { createCatalog } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../router.js';
import { toy, toyEmbedder } from '../test/toy-quality.js';
import { shippedQualityTrust } from './shipped-trust.js';
import { trustEverywhere } from './trust.js';

const specs = [
  { id: 'big/strong', inputPricePerMTok: 10, outputPricePerMTok: 30, qualityPrior: 0.85 },
  { id: 'small/weak', inputPricePerMTok: 0.1, outputPricePerMTok: 0.3, qualityPrior: 0.6 },
];
// Two prompts of each family: the toy model reads "hard..." as hard and the rest as easy.
const code = ['hard: write a Python function that parses this JSON and fix the bug in `def parse(x)`', 'write a Python function that sums a list: `def total(xs)`'];
const chat = ['hard: how are you today, friend?', 'how are you today, friend?'];
const request = (content: string): ChatRequest => ({ model: 'svc/auto', messages: [{ role: 'user', content }], stream: false, n: 1, includeUsage: false });
const routerTrusting = (families: Record<string, boolean>) =>
  createRouter({ catalog: createCatalog([]), models: specs, quality: toy, embedder: toyEmbedder, qualityTrust: { families }, guard: false });

describe('do no harm: the prior where the quality model is not trusted', () => {
  it('ranks prompts of an untrusted family alike (the prior) and keeps the ranking of a trusted one', async () => {
    const r = routerTrusting({ code: true, chat: false });
    expect(r.classify(request(code[0]!)).taskFamily).toBe('code');
    expect(r.classify(request(chat[0]!)).taskFamily).toBe('chat');
    const [hardCode, easyCode] = await Promise.all(code.map((p) => r.winRate(p, 'big/strong', 'small/weak')));
    expect(hardCode!).toBeGreaterThan(easyCode! + 0.05);
    const [hardChat, easyChat] = await Promise.all(chat.map((p) => r.winRate(p, 'big/strong', 'small/weak')));
    expect(hardChat).toBe(easyChat);
    // The prior still prefers the abler model: the win rate is above an even one, never inverted.
    expect(hardChat!).toBeGreaterThan(0.5);
  });

  it('says on the decision that the prior was read, with no per-prompt difficulty', async () => {
    const r = routerTrusting({ code: true });
    const untrusted = r.route(request(chat[0]!), { embedding: await r.embed(chat[0]!) });
    expect(untrusted.qualityFallback).toBe(true);
    expect(untrusted.difficulty).toBeUndefined();
    const trusted = r.route(request(code[0]!), { embedding: await r.embed(code[0]!) });
    expect(trusted.qualityFallback).toBeUndefined();
    expect(trusted.difficulty).toBeCloseTo(3, 5);
  });

  it('routes every prompt of an untrusted family the same way at a calibrated strong share', async () => {
    const r = routerTrusting({});
    const chosen = new Set<string>();
    for (const p of [...code, ...chat]) chosen.add(r.route(request(p), { embedding: await r.embed(p), strongShare: 0.5 }).model.id);
    expect(chosen.size).toBe(1);
  });

  it('uses every family of a model the caller brings, and the shipped table with the shipped model', async () => {
    const own = createRouter({ catalog: createCatalog([]), models: specs, quality: toy, embedder: toyEmbedder });
    expect(await own.winRate(chat[0]!, 'big/strong', 'small/weak')).not.toBe(await own.winRate(chat[1]!, 'big/strong', 'small/weak'));
    expect(Object.keys(trustEverywhere.families).length).toBe(7);
    const vector = new Float32Array(384).fill(0.05);
    const shipped = createRouter({ catalog: createCatalog([]), models: specs, embedder: { embed: async (texts) => texts.map(() => vector) } });
    for (const [family, prompt] of [['code', code[1]!], ['chat', chat[1]!]] as const) {
      const decision = shipped.route(request(prompt), { embedding: vector });
      expect(decision.qualityFallback === true).toBe(shippedQualityTrust.families[family] !== true);
    }
  });
});
