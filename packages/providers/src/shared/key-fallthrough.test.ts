import { type ChatResult, ProviderError, type ProviderErrorKind, type StreamEvent } from '@svc/core';
import { createMemoryKv } from '@svc/kv';
import { KeyCooldowns } from '@svc/resilience';
import { describe, expect, it } from 'vitest';
import type { CallOptions, EmbeddingRequest, Provider, ProviderChatRequest } from '../provider.js';
import { type KeyAttempt, withKeyFallthrough } from './key-fallthrough.js';

/** A provider whose answer depends on the key it is called with. */
function byKey(outcomes: Record<string, 'ok' | ProviderErrorKind>) {
  const seen: string[] = [];
  const fail = (kind: ProviderErrorKind) => new ProviderError({ provider: 'p', kind, message: kind, upstreamStatus: kind === 'billing' ? 402 : 429 });
  const answer: ChatResult = { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finishReason: 'stop' }] };
  const provider: Provider = {
    id: 'p',
    async chat(_request: ProviderChatRequest, options?: CallOptions) {
      seen.push(options?.apiKey ?? '');
      const outcome = outcomes[options?.apiKey ?? ''] ?? 'ok';
      if (outcome !== 'ok') throw fail(outcome);
      return answer;
    },
    async stream(_request: ProviderChatRequest, options?: CallOptions) {
      seen.push(options?.apiKey ?? '');
      const outcome = outcomes[options?.apiKey ?? ''] ?? 'ok';
      if (outcome !== 'ok') throw fail(outcome);
      async function* events(): AsyncGenerator<StreamEvent> {
        yield { type: 'text-delta', choice: 0, text: 'ok' };
      }
      return events();
    },
  };
  return { provider, seen };
}

const request: ProviderChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false };

describe('withKeyFallthrough', () => {
  it('moves to the next key on 429 and 402 within the same request, reporting each key', async () => {
    const { provider, seen } = byKey({ a: 'rate_limit', b: 'billing' });
    const pooled = withKeyFallthrough(provider, ['a', 'b', 'c']);
    const keys: KeyAttempt[] = [];
    await expect(pooled.chat(request, { onKeyAttempt: (k: KeyAttempt) => keys.push(k) } as CallOptions)).resolves.toMatchObject({ model: 'm' });
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(keys).toEqual([
      { keyIndex: 0, outcome: 'error', errorKind: 'rate_limit', upstreamStatus: 429 },
      { keyIndex: 1, outcome: 'error', errorKind: 'billing', upstreamStatus: 402 },
      { keyIndex: 2, outcome: 'ok' },
    ]);
  });

  it('continues round-robin from where the pool stands', async () => {
    const { provider, seen } = byKey({});
    const pooled = withKeyFallthrough(provider, ['a', 'b']);
    await pooled.chat(request);
    await pooled.chat(request);
    await pooled.chat(request);
    expect(seen).toEqual(['a', 'b', 'a']);
  });

  it('does not fall through on errors that are not the key\'s', async () => {
    const { provider, seen } = byKey({ a: 'overloaded' });
    await expect(withKeyFallthrough(provider, ['a', 'b']).chat(request)).rejects.toMatchObject({ kind: 'overloaded' });
    expect(seen).toEqual(['a']);
  });

  it('throws the last key\'s error when every key fails', async () => {
    const { provider, seen } = byKey({ a: 'rate_limit', b: 'rate_limit' });
    await expect(withKeyFallthrough(provider, ['a', 'b']).stream(request)).rejects.toMatchObject({ kind: 'rate_limit' });
    expect(seen).toEqual(['a', 'b']);
  });

  it('falls through for streams before the first byte', async () => {
    const { provider, seen } = byKey({ a: 'rate_limit' });
    const events = await withKeyFallthrough(provider, ['a', 'b']).stream(request);
    for await (const event of events) expect(event).toMatchObject({ type: 'text-delta' });
    expect(seen).toEqual(['a', 'b']);
  });

  it('uses exactly the pinned key (BYOK) and leaves single-key providers untouched', async () => {
    const { provider, seen } = byKey({ x: 'rate_limit' });
    await expect(withKeyFallthrough(provider, ['a', 'b']).chat(request, { apiKey: 'x' })).rejects.toMatchObject({ kind: 'rate_limit' });
    expect(seen).toEqual(['x']);
    expect(withKeyFallthrough(provider, ['a'])).toBe(provider);
  });
});

describe('withKeyFallthrough embed', () => {
  const embedRequest: EmbeddingRequest = { model: 'e', input: ['a'] };
  const vectors = { model: 'e', embeddings: [Float32Array.from([1])], usage: { promptTokens: 1, totalTokens: 1 } };

  function embedder(failing: Record<string, ProviderErrorKind>) {
    const seen: string[] = [];
    const { provider } = byKey({});
    const withEmbed: Provider = {
      ...provider,
      async embed(_request: EmbeddingRequest, options?: CallOptions) {
        const key = options?.apiKey ?? '';
        seen.push(key);
        const kind = failing[key];
        if (kind) throw new ProviderError({ provider: 'p', kind, message: kind, upstreamStatus: 429 });
        return vectors;
      },
    };
    return { provider: withEmbed, seen };
  }

  it('falls through to the next key on a 429, reporting each key', async () => {
    const { provider, seen } = embedder({ a: 'rate_limit' });
    const keys: KeyAttempt[] = [];
    const pooled = withKeyFallthrough(provider, ['a', 'b']);
    await expect(pooled.embed?.(embedRequest, { onKeyAttempt: (k: KeyAttempt) => keys.push(k) } as CallOptions)).resolves.toBe(vectors);
    expect(seen).toEqual(['a', 'b']);
    expect(keys).toEqual([
      { keyIndex: 0, outcome: 'error', errorKind: 'rate_limit', upstreamStatus: 429 },
      { keyIndex: 1, outcome: 'ok' },
    ]);
  });

  it('uses exactly a pinned key, stops on errors that are not the key\'s, and adds no embed to providers without one', async () => {
    const { provider, seen } = embedder({ x: 'rate_limit', a: 'invalid_request' });
    const pooled = withKeyFallthrough(provider, ['a', 'b']);
    await expect(pooled.embed?.(embedRequest, { apiKey: 'x' })).rejects.toMatchObject({ kind: 'rate_limit' });
    await expect(pooled.embed?.(embedRequest)).rejects.toMatchObject({ kind: 'invalid_request' });
    expect(seen).toEqual(['x', 'a']);
    expect(withKeyFallthrough(byKey({}).provider, ['a', 'b']).embed).toBeUndefined();
  });

  it('stops trying a key that keeps failing while it cools down, keeping round-robin among the rest', async () => {
    const { provider, seen } = byKey({ a: 'rate_limit' });
    const cooldowns = new KeyCooldowns({ kv: createMemoryKv(), threshold: 1, cooldownMs: 60_000, cacheMs: 0 });
    const pooled = withKeyFallthrough(provider, ['a', 'b', 'c'], cooldowns);
    for (let i = 0; i < 4; i++) await pooled.chat(request);
    expect(seen).toEqual(['a', 'b', 'b', 'c', 'b']);
    expect((await cooldowns.status('p', 3))[0]).toMatchObject({ index: 0 });
  });

  it('still tries a cooling key, last, when the usable ones fail: a 429 then a 402 is not a 502', async () => {
    const outcomes: Record<string, 'ok' | ProviderErrorKind> = { a: 'rate_limit' };
    const { provider, seen } = byKey(outcomes);
    const cooldowns = new KeyCooldowns({ kv: createMemoryKv(), threshold: 1, cooldownMs: 60_000, cacheMs: 0 });
    const pooled = withKeyFallthrough(provider, ['a', 'b'], cooldowns);
    await pooled.chat(request); // a 429s and cools; b answers
    outcomes.a = 'ok';
    outcomes.b = 'billing';
    await expect(pooled.chat(request)).resolves.toMatchObject({ choices: [{ message: { content: 'ok' } }] });
    expect(seen).toEqual(['a', 'b', 'b', 'a']);
  });

  it('keeps the audio endpoints of a pooled provider, each falling through like chat', async () => {
    const seen: string[] = [];
    const { provider } = byKey({});
    const fail = (options?: CallOptions) => {
      seen.push(options?.apiKey ?? '');
      if (options?.apiKey === 'a') throw new ProviderError({ provider: 'p', kind: 'billing', message: 'no credit', upstreamStatus: 402 });
    };
    const audio: Provider = {
      ...provider,
      async recognize(_request, options) {
        fail(options);
        return { text: 'hi' };
      },
      async speech(_request, options) {
        fail(options);
        return { contentType: 'audio/mpeg', body: (async function* () {})() };
      },
    };
    const pooled = withKeyFallthrough(audio, ['a', 'b']);
    await expect(pooled.recognize?.({ model: 'm', file: new Uint8Array(1), filename: 'a.wav' })).resolves.toEqual({ text: 'hi' });
    await expect(pooled.speech?.({ model: 'm', input: 'x', voice: 'v' })).resolves.toMatchObject({ contentType: 'audio/mpeg' });
    // The second call starts where round-robin stands (b).
    expect(seen).toEqual(['a', 'b', 'b']);
    expect(pooled.moderate).toBeUndefined();
  });
});
