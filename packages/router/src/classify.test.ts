import { readFileSync } from 'node:fs';
import type { TaskComplexity } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import { denseDimension, extractFeatures, featureDimension, maxTerms, toVector } from './features.js';
import { ask } from './test/fixture-catalog.js';
import type { TaskFamily } from './types.js';

interface Labelled {
  prompt: string;
  family: TaskFamily;
  complexity: TaskComplexity;
}

const labelled: Labelled[] = JSON.parse(readFileSync(new URL('./__fixtures__/labelled.json', import.meta.url), 'utf8'));
const order: readonly TaskComplexity[] = ['trivial', 'standard', 'complex', 'expert'];

describe('classify on the hand-labelled set', () => {
  const results = labelled.map((item) => ({ item, got: classify(extractFeatures(ask(item.prompt))) }));
  const share = (ok: (r: (typeof results)[number]) => boolean) => results.filter(ok).length / results.length;

  it('has enough prompts to mean something', () => {
    expect(labelled.length).toBeGreaterThanOrEqual(100);
  });

  it('names the task family of most prompts', () => {
    const accuracy = share((r) => r.got.taskFamily === r.item.family);
    console.info(`task family accuracy ${(accuracy * 100).toFixed(1)}% on ${labelled.length} prompts`);
    expect(accuracy).toBeGreaterThanOrEqual(0.88);
  });

  it('gets the complexity class right mostly, and never more than one class off', () => {
    const exact = share((r) => r.got.complexity === r.item.complexity);
    const within = share((r) => Math.abs(order.indexOf(r.got.complexity) - order.indexOf(r.item.complexity)) <= 1);
    console.info(`complexity accuracy ${(exact * 100).toFixed(1)}%, within one class ${(within * 100).toFixed(1)}%`);
    expect(exact).toBeGreaterThanOrEqual(0.7);
    expect(within).toBeGreaterThanOrEqual(0.97);
  });

  it('costs microseconds per call', () => {
    const requests = labelled.map((item) => ask(item.prompt));
    // Warm up until the scanner is optimised: the figure is the steady state, not the first calls.
    for (let i = 0; i < 50; i++) for (const r of requests) classify(extractFeatures(r));
    const rounds = 100;
    const start = process.cpuUsage();
    for (let i = 0; i < rounds; i++) for (const r of requests) classify(extractFeatures(r));
    const cpu = process.cpuUsage(start);
    const micros = (cpu.user + cpu.system) / (rounds * requests.length);
    console.info(`features + classify: ${micros.toFixed(1)} us CPU per call`);
    expect(micros).toBeLessThan(100);
  });
});

describe('features', () => {
  it('sees tools, json, vision and reasoning effort', () => {
    const f = extractFeatures({
      ...ask('look'),
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image', url: 'https://x/y.png' }] }],
      tools: [{ name: 'lookup' }],
      responseFormat: { type: 'json_object' },
      reasoningEffort: 'high',
    });
    expect(f).toMatchObject({ tools: true, json: true, vision: true, reasoningEffort: 1 });
  });

  it('ignores tools when tool_choice is none', () => {
    expect(extractFeatures({ ...ask('x'), tools: [{ name: 'a' }], toolChoice: 'none' }).tools).toBe(false);
  });

  it('reads multiple-choice options, LaTeX and capitalised negations in the same pass', () => {
    const f = (text: string) => extractFeatures(ask(text));
    expect(f('Which is NOT blue?\nA. sky\nB. grass').choices).toBe(true);
    expect(f('Pick one:\n\u00a0(a) red\n\u00a0(b) blue').choices).toBe(true);
    expect(f('a. first point, then\n\nsome prose').choices).toBe(false);
    expect(f('Which is NOT blue?\nA. sky\nB. grass').negations).toBeGreaterThan(0);
    expect(f('which is not blue').negations).toBe(0);
    expect(f('Simplify $x^2 + 1$').math).toBeGreaterThan(f('Simplify x and 1').math);
    expect(f('What is 12 + 30?\nA. 42\nB. 43\nC. 41').numericOptions).toBeGreaterThan(0.5);
  });

  it('hashes the words and word pairs of the message into a bounded list of terms', () => {
    const f = extractFeatures(ask('Which of the following is NOT a prime number?'));
    expect(f.terms.length).toBe(9 + 8 + 0); // 9 words, 8 pairs
    expect(f.negations).toBeGreaterThan(0);
    expect(extractFeatures(ask('which of the following is not a prime number')).terms).toEqual(f.terms);
    expect(extractFeatures(ask('x '.repeat(10_000))).terms.length).toBe(maxTerms);
    const v = toVector(f);
    expect(v.length).toBe(featureDimension);
    expect(v[denseDimension]).toBe(f.terms.length);
    expect([...v.subarray(denseDimension + 1, denseDimension + 1 + f.terms.length)]).toEqual([...f.terms]);
  });

  it('estimates prompt tokens from every message but scans only a window of the last user turn', () => {
    const long = 'word '.repeat(50_000);
    const f = extractFeatures(ask(long));
    expect(f.promptTokens).toBeGreaterThan(60_000);
    expect(f.words).toBeLessThan(2_000);
  });
});
