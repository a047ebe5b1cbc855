import type { CachedAnswer, ChatRequest } from '@svc/core';

/** A small complete answer, as the pipeline stores it. */
export function cachedAnswer(text: string, storedAt = 1_700_000_000_000): CachedAnswer {
  return {
    result: {
      id: `chatcmpl-${text.length}`,
      model: 'gpt-4o-mini-2024-07-18',
      created: 1_700_000_000,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finishReason: 'stop' }],
      usage: { promptTokens: 12, completionTokens: 7, totalTokens: 19 },
    },
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    tier: 'T3',
    storedAt,
  };
}

/** A unit vector along axis `axis`, tilted towards axis `axis + 1` by `tilt` (cosine to the pure axis = 1 / sqrt(1 + tilt²)). */
export function axisVector(dimensions: number, axis: number, tilt = 0): Float32Array {
  const v = new Float32Array(dimensions);
  v[axis % dimensions] = 1;
  v[(axis + 1) % dimensions] = tilt;
  return v;
}

/** A decoded chat request asking `question` (one user message), with `extra` fields over the defaults. */
export function chatRequest(question: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'svc/auto', messages: [{ role: 'user', content: question }], stream: false, n: 1, includeUsage: false, ...extra };
}
