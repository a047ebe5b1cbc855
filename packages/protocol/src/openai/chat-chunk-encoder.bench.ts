import { bench, describe } from 'vitest';
import { ChatChunkEncoder } from './chat-chunk-encoder.js';

const options = { id: 'chatcmpl-abc123', created: 1700000000, model: 'openai/gpt-4o', includeUsage: true, n: 1 };

describe('ChatChunkEncoder', () => {
  const encoder = new ChatChunkEncoder(options);
  encoder.start();
  bench('text-delta event', () => {
    encoder.event({ type: 'text-delta', choice: 0, text: ' the quick brown fox' });
  });
  bench('whole 50-token stream', () => {
    const stream = new ChatChunkEncoder(options);
    stream.start();
    for (let i = 0; i < 50; i++) stream.event({ type: 'text-delta', choice: 0, text: ' token' });
    stream.event({ type: 'finish', choice: 0, finishReason: 'stop' });
    stream.event({ type: 'usage', usage: { promptTokens: 20, completionTokens: 50, totalTokens: 70 } });
    stream.end();
  });
});
