import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { cachedConversation, ephemeral } from '../test/cached-conversation.js';
import { type WireRequest, upstreamWires } from '../test/upstream-wires.js';

const request = (model: string): ProviderChatRequest => ({ model, stream: false, n: 1, includeUsage: false, maxTokens: 512, ...cachedConversation });

const answer = { reasoning: [], text: ['ok'], refusal: [], calls: [], finish: 'stop', usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 }, interleave: [] } as const;

describe.each(['anthropic', 'vertex (Claude)'])('prompt caching reaches %s', (name) => {
  const wire = upstreamWires.find((w) => w.name === name)!;

  it('as cache_control on the very blocks and tools that carried it, with the anthropic-beta header', async () => {
    const sent: WireRequest[] = [];
    await wire.provider(answer, sent).chat(request(wire.model), { headers: { 'anthropic-beta': 'extended-cache-ttl-2025-04-11' } });
    const body = sent[0]!.body as Record<string, unknown>;
    expect(sent[0]!.headers['anthropic-beta']).toBe('extended-cache-ttl-2025-04-11');
    expect(body.system).toEqual([{ type: 'text', text: 'You are a coding agent.' }, { type: 'text', text: 'Repository map ...', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    expect(body.tools).toEqual([
      { name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'write_file', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Open main.ts' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, cache_control: ephemeral }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'main.ts' }, cache_control: ephemeral }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}', cache_control: ephemeral },
          { type: 'text', text: 'Now add a test.', cache_control: ephemeral },
        ],
      },
    ]);
  });
});
