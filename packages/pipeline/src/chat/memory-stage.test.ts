import type { Caller, ChatRequest, ChatResult } from '@svc/core';
import { createMemoryStore, endUserSubject, keySubject } from '@svc/memory';
import { createInProcessRecordStore } from '@svc/memory/test';
import { createHashedEmbedder, createMemoryVectorStore } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { injectMemory, recallForRequest, redactRequest, rememberRequest, requestMemory, restoreResult } from './memory-stage.js';

const request = (content: string, svc: ChatRequest['svc'] = {}, user?: string): ChatRequest => ({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content },
  ],
  stream: false,
  n: 1,
  includeUsage: false,
  svc,
  ...(user !== undefined ? { user } : {}),
});

const answer = (content: string): ChatResult => ({ model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finishReason: 'stop' }] });

const caller = (memoryScope: 'end_user' | 'organization' = 'end_user'): Caller => ({
  keyId: 'key_1',
  keyPrefix: 'sk-svc-abc',
  org: { id: 'org-a', name: 'a', plan: 'free', rpmLimit: null, tpmLimit: null, monthlyBudgetUsd: null, tokenQuota: null, defaultIntelligenceMode: null, memoryScope, createdAt: new Date() },
  scopes: new Set(),
});

function memoryStore() {
  return createMemoryStore({ records: createInProcessRecordStore(), vectors: createMemoryVectorStore(), embedder: createHashedEmbedder(), recallThreshold: 0.3 });
}

describe('memory stage', () => {
  it('scopes memory by end user (the edge’s, else the request’s user), else by key, and partitions the caches the same way', () => {
    const ada = requestMemory(request('hi', { conversationId: 'c1' }, 'ada'), caller(), undefined);
    expect(ada.scope).toEqual({ orgId: 'org-a', subject: endUserSubject('org-a', 'ada'), conversationId: 'c1' });
    expect(ada.recall).toEqual(ada.scope);
    expect(ada.partition).toEqual({ orgId: 'org-a', audience: endUserSubject('org-a', 'ada') });
    expect(requestMemory(request('hi', {}, 'ada'), caller(), 'bob').scope.subject).toBe(endUserSubject('org-a', 'bob'));
    expect(requestMemory(request('hi'), caller(), undefined).scope.subject).toBe(keySubject('key_1'));
    const shared = requestMemory(request('hi', {}, 'ada'), caller('organization'), undefined);
    expect(shared.recall).toEqual({ orgId: 'org-a' });
    expect(shared.partition).toEqual({ orgId: 'org-a' });
  });

  it('remembers what the end user stated (not the answer) and injects it into their later request only', async () => {
    const memory = memoryStore();
    const ada = requestMemory(request('x', {}, 'ada'), caller(), undefined);
    const bob = requestMemory(request('x', {}, 'bob'), caller(), undefined);
    expect(rememberRequest(memory, request('My favourite colour is teal. What goes with it?'), ada.scope)).toBe(1);
    await memory.idle();

    const later = request('What is my favourite colour?');
    const injected = injectMemory(later, await recallForRequest(memory, later, ada.recall));
    expect(injected.report).toEqual({ injected: 1, tokens: expect.any(Number) });
    expect(injected.request.messages).toHaveLength(3);
    expect(injected.request.messages[0]).toMatchObject({ role: 'system' });
    expect(injected.request.messages[0]!.content).toContain('- My favourite colour is teal.');
    expect(injected.request.messages.slice(1)).toEqual(later.messages);

    const forBob = injectMemory(later, await recallForRequest(memory, later, bob.recall));
    expect(forBob.request).toBe(later);
    expect(forBob.report).toEqual({ injected: 0, tokens: 0 });
  });

  it('stores nothing when svc.enable_memory is false', () => {
    const memory = memoryStore();
    expect(rememberRequest(memory, request('My name is Ada.', { enableMemory: false }), { orgId: 'org-a', subject: 'u:x' })).toBe(0);
  });

  it('recalls nothing rather than failing when the store fails', async () => {
    const failing = { remember: () => 0, recall: () => Promise.reject(new Error('down')) };
    expect(await recallForRequest(failing, request('anything'), { orgId: 'org-a', subject: 'u:x' })).toEqual([]);
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
