import { createHashedEmbedder } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { createMemoryVectorStore } from '@svc/semantic';
import { lateInteraction, readsTokens } from './late-interaction.js';
import { endUserSubject } from './memory-scope.js';
import { createMemoryStore } from './memory-store.js';
import { createInProcessRecordStore } from './test/record-store.js';

/** Token states that are the hashed embedding of each word: equal words, equal states. */
function wordStates() {
  const hashed = createHashedEmbedder();
  return {
    ...hashed,
    embed: (texts: readonly string[]) => hashed.embed(texts),
    async embedWithTokens(texts: readonly string[]) {
      return Promise.all(
        texts.map(async (text) => {
          const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
          const rows = await hashed.embed(words);
          const states = new Float32Array(rows.length * hashed.dimensions);
          for (const [i, row] of rows.entries()) states.set(row.map((x) => x * 3), i * hashed.dimensions);
          return { tokens: { ids: Int32Array.from(words, (_, i) => i), states } };
        }),
      );
    },
  };
}

describe('lateInteraction', () => {
  it('scores each fact by how well every word of the query finds its match in it', async () => {
    const embedder = wordStates();
    expect(readsTokens(embedder)).toBe(true);
    expect(readsTokens(createHashedEmbedder())).toBe(false);
    const [whole, half, none] = await lateInteraction(embedder, 'streaming service', ['my streaming service is Hulu', 'I cancelled streaming', 'I play rugby']);
    expect(whole).toBeCloseTo(1, 5);
    expect(half!).toBeLessThan(whole!);
    expect(none!).toBeLessThan(half!);
    expect(await lateInteraction(embedder, 'anything', [])).toEqual([]);
  });
});

describe('recall with a mix', () => {
  it('ranks by the cosine and the late-interaction score mixed as the floors say, and by the cosine alone when told not to', async () => {
    const embedder = wordStates();
    const ada = { orgId: 'org-a', subject: endUserSubject('org-a', 'ada') };
    const memory = createMemoryStore({ records: createInProcessRecordStore(), vectors: createMemoryVectorStore({}), embedder, recallThreshold: { self: -1, other: -1, mix: 0.5 } });
    memory.remember(ada, 'I signed up for Hulu. I play rugby on Sundays.');
    await memory.idle();
    const query = 'Which streaming service did I sign up for?';
    const mixed = await memory.recall(ada, query, { cues: true });
    const plain = await memory.recall(ada, query, { lateInteraction: false });
    const late = await lateInteraction(embedder, query, mixed.map((m) => m.text));
    for (const [i, m] of mixed.entries()) {
      const cosine = plain.find((p) => p.text === m.text)!;
      const cues = cosine.score - cosine.similarity!;
      expect(m.score).toBeCloseTo(0.5 * m.similarity! + 0.5 * late[i]! + cues, 3);
    }
    expect(plain.every((m) => m.score >= m.similarity!)).toBe(true);
  });
});
