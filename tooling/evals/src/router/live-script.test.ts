import { startMockUpstream } from '@svc/mock-upstream';
import { describe, expect, it } from 'vitest';
import type { Item } from './data.js';
import { judgeFromLabels, outcomeScript } from './live-script.js';

const items: Item[] = [
  { source: 's', group: 'g', subject: 'x', prompt: 'What is 2 + 2?', correct: { strong: true, weak: false } },
  { source: 's', group: 'g', subject: 'x', prompt: 'Name a prime.', correct: { strong: true, weak: true } },
];
const judging = (a: string, b: string) => ({
  response_format: { type: 'json_schema', json_schema: { name: 'pairwise_verdict' } },
  messages: [{ role: 'user', content: `[Conversation]\nq\n\n[Answer A]\n${a}\n\n[Answer B]\n${b}\n\n[End of answers]` }],
});

describe("the simulation's mock upstream", () => {
  it('answers each model with its outcome on the prompt, through the mock upstream', async () => {
    const upstream = await startMockUpstream({ script: outcomeScript(items, { 'gpt-big': 'strong', 'gpt-small': 'weak' }, 0) });
    try {
      const ask = async (model: string) => {
        const response = await fetch(`${upstream.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'What is 2 + 2?' }] }) });
        return ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
      };
      expect(await ask('gpt-big')).toBe('Answer 0 by gpt-big: RIGHT.');
      expect(await ask('gpt-small')).toBe('Answer 0 by gpt-small: WRONG.');
    } finally {
      await upstream.close();
    }
  });

  it('judges the right answer better in both orders, a tie as a tie, and flips the same pairs the same way in both orders', () => {
    const right = 'Answer 0 by gpt-big: RIGHT.';
    const wrong = 'Answer 0 by gpt-small: WRONG.';
    expect(judgeFromLabels(judging(right, wrong), 0)).toBe('{"winner":"A"}');
    expect(judgeFromLabels(judging(wrong, right), 0)).toBe('{"winner":"B"}');
    expect(judgeFromLabels(judging('Answer 1 by a: RIGHT.', 'Answer 1 by b: RIGHT.'), 0)).toBe('{"winner":"tie"}');
    expect(judgeFromLabels(judging(right, wrong), 1)).toBe('{"winner":"B"}');
    expect(judgeFromLabels(judging(wrong, right), 1)).toBe('{"winner":"A"}');
    // A flipped tie is a win for the same answer whichever order it is shown in.
    const [x, y] = ['Answer 1 by a: RIGHT.', 'Answer 1 by b: RIGHT.'];
    const first = judgeFromLabels(judging(x, y), 1);
    const second = judgeFromLabels(judging(y, x), 1);
    expect(first).not.toBe('{"winner":"tie"}');
    expect(second).toBe(first === '{"winner":"A"}' ? '{"winner":"B"}' : '{"winner":"A"}');
  });
});
