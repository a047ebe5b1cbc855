import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen, shutdown } from './serve.js';

const echo = { fetch: async (request: Request) => new Response(await request.text()) };

describe('listen', () => {
  it('answers 408 and closes a connection whose body trickles in past the request timeout', async () => {
    const listening = await listen('test', echo, 0, '127.0.0.1', { requestTimeoutMs: 500 });
    try {
      const socket = connect(listening.port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
      const started = performance.now();
      socket.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\n');
      // One byte every 100 ms: would take 10 s to finish.
      const timer = setInterval(() => socket.writable && socket.write('a'), 100);
      const at = await closed;
      clearInterval(timer);
      expect(at - started).toBeLessThan(2_500);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await shutdown([listening], 0);
    }
  });

  it('does not bound a response that takes longer than the request timeout', async () => {
    const slow = {
      fetch: () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              for (let i = 0; i < 4; i++) {
                await new Promise((resolve) => setTimeout(resolve, 300));
                controller.enqueue(new TextEncoder().encode(`${i}`));
              }
              controller.close();
            },
          }),
        ),
    };
    const listening = await listen('test', slow, 0, '127.0.0.1', { requestTimeoutMs: 500 });
    try {
      const response = await fetch(`http://127.0.0.1:${listening.port}/`);
      expect(await response.text()).toBe('0123');
    } finally {
      await shutdown([listening], 0);
    }
  });
});
