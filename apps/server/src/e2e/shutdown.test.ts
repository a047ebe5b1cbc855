import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

describe('graceful shutdown', () => {
  it('lets an in-flight stream finish, refuses new connections, and flushes the ledger', async () => {
    const gateway = await startGateway({ SVC_MOCK_PROVIDER: '1', SVC_MOCK_TOKENS_PER_SECOND: '40' });
    const client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    const { data, response } = await client.chat.completions
      .create({ model: 'mock/mock-value', messages: [{ role: 'user', content: 'Tell me something [mock:tokens=20]' }], stream: true })
      .withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    const stopping = gateway.stop();
    let text = '';
    let finish: string | null = null;
    for await (const chunk of data) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('stop');
    expect(text.split(' ').length).toBeGreaterThan(10);
    await expect(fetch(`${gateway.inferenceUrl}/health`)).rejects.toThrow();
    await stopping;
    // Stores are closed now; the stream's usage event and decision were written before that.
    expect(gateway.runtime.learn.stats()).toMatchObject({ queued: 0, processed: 2, failures: 0, lastErrorAt: null });
    expect(requestId).toMatch(/^req_/);
  }, 20_000);
});
