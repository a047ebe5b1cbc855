import type { Embedder } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { pointOf } from './memory-points.js';
import { sameSubject, subjectFrame } from './subject-links.js';
import { fact, near, stored } from './test/stored-facts.js';

/** An embedder that places each frame on the axis of the first subject word it holds (laptop, plan, ...), else on its own. */
function subjectEmbedder(subjects: readonly string[]): Embedder & { calls: number } {
  const embedder = {
    id: 'subjects',
    dimensions: subjects.length + 1,
    calls: 0,
    async embed(texts: readonly string[]) {
      embedder.calls++;
      return texts.map((text) => {
        const v = new Float32Array(subjects.length + 1);
        const at = subjects.findIndex((word) => text.toLowerCase().includes(word));
        v[at >= 0 ? at : subjects.length] = 1;
        return v;
      });
    },
  };
  return embedder;
}

const embedder = subjectEmbedder(['laptop', 'work on', 'drums', 'name']);
const written = new Set<string>();
const laptop = stored('laptop', 'My laptop is a Dell XPS.', "my:laptop");
const drums = stored('drums', 'I play the drums.');

describe('subjectFrame', () => {
  it('is the statement without its value', () => {
    expect(subjectFrame('I moved my account to Monzo')).toBe('I moved my account to');
    expect(subjectFrame('I got a new laptop, a ThinkPad X1.')).toBe('I got a new laptop, a .');
  });
});

describe('sameSubject', () => {
  it('links a change to the stored fact about the same subject, clearly ahead of the others', async () => {
    const matches = near([drums, 0.45], [laptop, 0.42]);
    expect((await sameSubject(embedder, fact('I got a new laptop, a ThinkPad X1.'), matches, { written }))?.id).toBe('laptop');
  });

  it('links nothing when another fact is as close, or nothing is close enough', async () => {
    const other = stored('other', 'I work on a MacBook Air.');
    const tied = near([laptop, 0.42], [stored('bag', 'My laptop bag is red.'), 0.4], [other, 0.3]);
    expect(await sameSubject(embedder, fact('I got a new laptop, a ThinkPad X1.'), tied, { written })).toBeUndefined();
    expect(await sameSubject(subjectEmbedder([]), fact('I got a new laptop, a ThinkPad X1.'), near([laptop, 0.1], [drums, 0.05]), { written })).toBeUndefined();
  });

  it('takes no plan, event, negation or statement that announces no change, and leaves other holders alone', async () => {
    const quiet = subjectEmbedder(['laptop']);
    const matches = near([laptop, 0.42], [drums, 0.2]);
    for (const text of ["I'm saving up for a new laptop.", 'I bought a new laptop in April.', "I don't have a laptop now.", 'I like my laptop.', 'My sister got a new laptop, a ThinkPad.']) {
      expect(await sameSubject(quiet, fact(text), matches, { written })).toBeUndefined();
    }
    expect(quiet.calls).toBe(0);
  });

  it('never replaces a name, a birthday or origin, nor a fact the encoder places near an attribute the change is not near', async () => {
    const name = stored('name', 'My name is Priya.', 'name');
    expect(await sameSubject(embedder, fact("I've grown close to Lena, my new name friend."), near([name, 0.5], [drums, 0.2]), { written })).toBeUndefined();
    const commute = { ...pointOf(stored('bus', 'I take the laptop bus to work.'), new Float32Array([1]), 86_400_000, 'commute'), score: 0.42 };
    expect(await sameSubject(embedder, fact('I got a new laptop, a ThinkPad X1.'), [commute, ...near([drums, 0.2])], { written })).toBeUndefined();
    const placed = { ...fact('I got a new laptop, a ThinkPad X1.'), attribute: 'commute' };
    expect((await sameSubject(embedder, placed, [commute, ...near([drums, 0.2])], { written }))?.id).toBe('bus');
  });
});
