import type { ChatRequest, ChatResult } from '@svc/core';
import { createMemoryStore, type StoredMemory } from '@svc/memory';
import { createHashedEmbedder, createMemoryVectorStore } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { injectMemory, recallForRequest, redactRequest, rememberExchange, restoreResult } from './memory-stage.js';

const request = (content: string, svc: ChatRequest['svc'] = {}): ChatRequest => ({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content },
  ],
  stream: false,
  n: 1,
  includeUsage: false,
  svc,
});

const answer = (content: string): ChatResult => ({ model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finishReason: 'stop' }] });

function memoryStore() {
  const rows: StoredMemory[] = [];
  return createMemoryStore({
    records: {
      async insertMany(batch) {
        rows.push(...batch);
        return batch.length;
      },
      getMany: async (orgId, ids) => rows.filter((row) => row.orgId === orgId && ids.includes(row.id)),
      listRecent: async (orgId) => rows.filter((row) => row.orgId === orgId),
    },
    vectors: createMemoryVectorStore(),
    embedder: createHashedEmbedder(),
  });
}

describe('memory stage', () => {
  it('remembers an exchange and injects it into a later request of the same organisation only', async () => {
    const memory = memoryStore();
    expect(rememberExchange(memory, request('My favourite colour is teal.'), answer('Noted: teal.'), 'org-a')).toBe(2);
    await memory.idle();

    const later = request('What is my favourite colour?');
    const recalled = await recallForRequest(memory, later, 'org-a');
    const injected = injectMemory(later, recalled);
    expect(injected.messages).toHaveLength(3);
    expect(injected.messages[0]).toMatchObject({ role: 'system' });
    expect(injected.messages[0]!.content).toContain('My favourite colour is teal.');
    expect(injected.messages.slice(1)).toEqual(later.messages);

    expect(injectMemory(later, await recallForRequest(memory, later, 'org-b'))).toBe(later);
  });

  it('stores nothing when svc.enable_memory is false', () => {
    const memory = memoryStore();
    expect(rememberExchange(memory, request('My name is Ada.', { enableMemory: false }), answer('Hi Ada'), 'org-a')).toBe(0);
  });

  it('recalls nothing rather than failing when the store fails', async () => {
    const failing = { remember: () => false, recall: () => Promise.reject(new Error('down')) };
    expect(await recallForRequest(failing, request('anything'), 'org-a')).toEqual([]);
  });

  it('redacts PII in every message with one numbering and restores it in the answer', () => {
    const original: ChatRequest = {
      ...request('Write to ada@example.com from 10.0.0.1'),
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Card 4111 1111 1111 1111, mail ada@example.com' }] },
        { role: 'assistant', content: null, toolCalls: [{ id: 't1', name: 'send', arguments: '{"to":"ada@example.com"}' }] },
        { role: 'user', content: 'Write to ada@example.com from 10.0.0.1' },
      ],
    };
    const { request: redacted, restore, redacted: count } = redactRequest(original);
    expect(count).toBe(3);
    expect(JSON.stringify(redacted.messages)).not.toMatch(/ada@example\.com|4111|10\.0\.0\.1/);
    expect(redacted.messages[2]!.content).toBe('Write to [EMAIL_1] from [IP_1]');
    expect(redacted.messages[1]!.toolCalls![0]!.arguments).toBe('{"to":"[EMAIL_1]"}');
    expect(original.messages[2]!.content).toBe('Write to ada@example.com from 10.0.0.1');

    const restored = restoreResult(answer('Sent to [EMAIL_1] ([CARD_1]).'), restore);
    expect(restored.choices[0]!.message.content).toBe('Sent to ada@example.com (4111 1111 1111 1111).');
  });

  it('leaves a request without PII as it is', () => {
    const plain = request('hello');
    expect(redactRequest(plain).request).toBe(plain);
  });
});

describe('injectMemory de-duplication', () => {
  it('keeps one copy of a sentence remembered many times', () => {
    const memory = (id: string, score: number) => ({ id, orgId: 'o', conversationId: null, role: 'user' as const, text: 'Weather in Paris?', entities: [], createdAt: new Date(), score });
    const request = { model: 'svc/auto', messages: [{ role: 'user' as const, content: 'hi' }], stream: false, n: 1, includeUsage: false };
    const injected = injectMemory(request, [memory('a', 0.9), memory('b', 0.8), memory('c', 0.7)]);
    const context = injected.messages[0]!.content as string;
    expect(context.match(/Weather in Paris\?/g)).toHaveLength(1);
  });
});
