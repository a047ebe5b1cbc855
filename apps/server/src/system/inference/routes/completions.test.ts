import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

const test = useTestApp('sk-svc-completions-route-test-master');
const post = (body: unknown, key?: string) => test.post('/v1/completions', body, key);

interface Completion {
  id: string;
  object: string;
  model: string;
  choices: { text: string; index: number; logprobs: null; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  svc_metadata: { provider: string; not_applied?: string[] };
}

describe('POST /v1/completions', () => {
  it('answers a text_completion through the chat pipeline, echoing and padding to n', async () => {
    const response = await post({ model: 'mock/mock-value', prompt: ['Say', 'hello'], echo: true, n: 2, best_of: 2 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-svc-provider')).toBe('mock');
    const body = (await response.json()) as Completion;
    expect(body.id).toMatch(/^cmpl-/);
    expect(body.object).toBe('text_completion');
    expect(body.choices.map((c) => c.index)).toEqual([0, 1]);
    for (const choice of body.choices) {
      expect(choice.text.startsWith('Say\nhello')).toBe(true);
      expect(choice.text.length).toBeGreaterThan('Say\nhello'.length);
      expect(choice.logprobs).toBeNull();
    }
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.svc_metadata.provider).toBe('mock');
    expect(body.svc_metadata.not_applied).toContain('best_of');
  });

  it('refuses stream: true and a missing model with 400, chat-less keys with 403', async () => {
    const stream = await post({ model: 'auto', prompt: 'x', stream: true });
    expect(stream.status).toBe(400);
    expect(((await stream.json()) as { error: { param: string } }).error.param).toBe('stream');
    expect((await post({ prompt: 'x' })).status).toBe(400);
    const embeddingsOnly = await test.keyWith(['inference:embeddings']);
    expect((await post({ model: 'auto', prompt: 'x' }, embeddingsOnly)).status).toBe(403);
  });
});
