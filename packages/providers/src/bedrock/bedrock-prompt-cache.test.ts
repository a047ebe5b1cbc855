import { describe, expect, it } from 'vitest';
import { cachedConversation } from '../test/cached-conversation.js';
import type { ProviderChatRequest } from '../provider.js';
import { type WireRequest, upstreamWires } from '../test/upstream-wires.js';

const answer = { reasoning: [], text: ['ok'], refusal: [], calls: [], finish: 'stop', usage: { input: 10, output: 1, cacheRead: 300, cacheWrite: 20 }, interleave: [] } as const;
const bedrock = upstreamWires.find((wire) => wire.name === 'bedrock')!;
const request = (model: string): ProviderChatRequest => ({ model, stream: false, n: 1, includeUsage: false, maxTokens: 512, ...cachedConversation });
const point = { cachePoint: { type: 'default' } };
const hourPoint = { cachePoint: { type: 'default', ttl: '1h' } };

describe('prompt caching on Bedrock Converse', () => {
  it('puts a cachePoint after each block, tool and message that carried a breakpoint, for Claude', async () => {
    const sent: WireRequest[] = [];
    const result = await bedrock.provider(answer, sent).chat(request(bedrock.model));
    const body = sent[0]!.body as Record<string, unknown>;
    expect(body.system).toEqual([{ text: 'You are a coding agent.' }, { text: 'Repository map ...' }, hourPoint]);
    expect((body.toolConfig as { tools: unknown[] }).tools).toEqual([
      { toolSpec: { name: 'read_file', inputSchema: { json: { type: 'object', properties: { path: { type: 'string' } } } } } },
      { toolSpec: { name: 'write_file', inputSchema: { json: { type: 'object' } } } },
      hourPoint,
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'Open main.ts' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }, point] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'toolu_1', name: 'read_file', input: { path: 'main.ts' } } }, point] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'toolu_1', content: [{ text: 'export {}' }] } }, point, { text: 'Now add a test.' }, point] },
    ]);
    // Bedrock's cache reads and writes come back split out for pricing.
    expect(result.usage).toEqual({ promptTokens: 330, completionTokens: 1, totalTokens: 331, cachedPromptTokens: 300, cacheWriteTokens: 20 });
  });

  it('sends no cachePoint to a model that takes none', async () => {
    const sent: WireRequest[] = [];
    await bedrock.provider(answer, sent).chat(request('meta.llama3-3-70b-instruct-v1:0'));
    expect(JSON.stringify(sent[0]!.body)).not.toContain('cachePoint');
  });
});
