import { describe, expect, it } from 'vitest';
import { sseResponse } from './sse-response.js';

async function* ready(count: number): AsyncGenerator<string> {
  for (let i = 0; i < count; i++) yield `data: ${i}\n\n`;
}

const options = { headers: {}, keepAliveMs: 15_000, keepAlive: ': keep-alive\n\n', onCancel: () => {} };

describe('sseResponse', () => {
  it('lets the event loop turn after the first chunk when the whole answer is at hand, so it is written before the rest is worked on', async () => {
    const reader = sseResponse(ready(50), options).body!.getReader();
    const decoder = new TextDecoder();
    const read: string[] = [];
    // How many chunks the reader had when the event loop first turned: Node writes a response then.
    let readAtFirstTurn: number | undefined;
    setImmediate(() => {
      readAtFirstTurn = read.length;
    });
    // Read as @hono/node-server does: the next read as soon as a chunk is written.
    for (let next = await reader.read(); !next.done; next = await reader.read()) read.push(decoder.decode(next.value));
    expect(read).toHaveLength(50);
    expect(read[0]).toBe('data: 0\n\n');
    expect(readAtFirstTurn).toBeLessThanOrEqual(1);
  });
});
