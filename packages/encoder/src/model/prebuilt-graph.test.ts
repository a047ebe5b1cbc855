import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { graphKeyOf, PREBUILT_GRAPH, PREBUILT_SETTINGS, prebuiltGraphPath } from './prebuilt-graph.js';

const dirs: string[] = [];
const dir = () => {
  const made = mkdtempSync(join(tmpdir(), 'svc-prebuilt-'));
  dirs.push(made);
  return made;
};
afterEach(() => {
  for (const made of dirs.splice(0)) rmSync(made, { recursive: true });
});

describe('the prebuilt graph', () => {
  it('is taken only when its key names these settings and a weights file of this size', () => {
    const model = dir();
    const dist = dir();
    writeFileSync(join(model, 'model.fp16.safetensors'), Buffer.alloc(10));
    const key = graphKeyOf(model, PREBUILT_SETTINGS);
    expect(key).toEqual({ ...PREBUILT_SETTINGS, weightsBytes: 10 });
    expect(prebuiltGraphPath(dist, key)).toBeUndefined();
    writeFileSync(join(dist, PREBUILT_GRAPH.key), JSON.stringify(key));
    expect(prebuiltGraphPath(dist, key)).toBeUndefined();
    writeFileSync(join(dist, PREBUILT_GRAPH.graph), 'graph');
    expect(prebuiltGraphPath(dist, key)).toBeUndefined();
    writeFileSync(join(dist, PREBUILT_GRAPH.data), 'data');
    expect(prebuiltGraphPath(dist, key)).toBe(join(dist, PREBUILT_GRAPH.graph));
    expect(prebuiltGraphPath(dist, graphKeyOf(model, { ...PREBUILT_SETTINGS, pairContext: false }))).toBeUndefined();
    writeFileSync(join(model, 'model.fp16.safetensors'), Buffer.alloc(11));
    expect(prebuiltGraphPath(dist, graphKeyOf(model, PREBUILT_SETTINGS))).toBeUndefined();
  });

  it('has no key without a weights file: the start builds the graph and reports what is missing', () => {
    expect(graphKeyOf(dir(), PREBUILT_SETTINGS)).toBeUndefined();
    expect(prebuiltGraphPath(dir(), undefined)).toBeUndefined();
  });
});
