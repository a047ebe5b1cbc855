import type { Embedder } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { createValueKinds, VALUE_KINDS, valueKindThresholds } from './value-kinds.js';

/** An embedder that puts each text on the axis of the kind whose examples hold it, else on its own axis. */
function kindEmbedder(): Embedder & { calls: number } {
  const names = Object.keys(VALUE_KINDS);
  const embedder = {
    id: 'kinds',
    dimensions: names.length + 1,
    calls: 0,
    async embed(texts: readonly string[]) {
      embedder.calls++;
      return texts.map((text) => {
        const v = new Float32Array(names.length + 1);
        const at = names.findIndex((kind) => VALUE_KINDS[kind]!.includes(text) || (kind === 'colour' && text === 'teal'));
        v[at >= 0 ? at : names.length] = 1;
        return v;
      });
    },
  };
  return embedder;
}

describe('createValueKinds', () => {
  it('types a value by its nearest examples, numbers and days by pattern, and leaves unclear values untyped', async () => {
    const kinds = createValueKinds(kindEmbedder(), { floor: 0.38, margin: 0.03 });
    expect(await kinds.kindsOf(['teal', '42', 'Mondays', 'zzz'])).toEqual(['colour', 'number', 'day', undefined]);
  });

  it('embeds nothing for values read by pattern, and types nothing for an embedder without thresholds', async () => {
    const embedder = kindEmbedder();
    expect(await createValueKinds(embedder, { floor: 0.38, margin: 0.03 }).kindsOf(['44', 'Friday'])).toEqual(['number', 'day']);
    expect(embedder.calls).toBe(0);
    expect(valueKindThresholds('hashed-ngram')).toBeUndefined();
    expect(await createValueKinds(embedder).kindsOf(['teal', '42'])).toEqual([undefined, undefined]);
    expect(embedder.calls).toBe(0);
  });
});
