import type { ChatResult } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { StreamCollector } from './stream-collect.js';
import { replayStream } from './stream-replay.js';

const answer: ChatResult = {
  id: 'chatcmpl-1',
  model: 'gpt-4o-mini',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'The quick brown fox jumps over the lazy dog, twice over, and then rests.', reasoning: 'think first' }, finishReason: 'stop' },
    {
      index: 1,
      message: { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"city":"Paris","units":"metric","days":3}' }] },
      finishReason: 'tool_calls',
    },
  ],
  usage: { promptTokens: 12, completionTokens: 30, totalTokens: 42 },
};

describe('cache replay as a stream', () => {
  it('replays text in several small pieces, tool calls in fragments, then finish and usage', () => {
    const events = [...replayStream(answer, answer.usage)];
    expect(events[0]).toEqual({ type: 'meta', id: 'chatcmpl-1', model: 'gpt-4o-mini' });
    const texts = events.filter((e) => e.type === 'text-delta');
    expect(texts.length).toBeGreaterThan(3);
    expect(events.filter((e) => e.type === 'tool-call-delta').length).toBeGreaterThan(2);
    expect(events.at(-1)).toEqual({ type: 'usage', usage: answer.usage });
  });

  it('round-trips: collecting the replay rebuilds the stored answer', () => {
    const collector = new StreamCollector('fallback');
    for (const event of replayStream(answer, answer.usage)) collector.add(event);
    expect(collector.result()).toEqual(answer);
  });

  it('refuses to rebuild an answer whose stream was cut before a finish', () => {
    const collector = new StreamCollector('m');
    collector.add({ type: 'text-delta', choice: 0, text: 'half an ans' });
    expect(collector.result()).toBeUndefined();
  });
});
