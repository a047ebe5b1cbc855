import type { ChatRequest, StreamEvent, SvcMetadata } from '@svc/core';
import type { McpConnectionTarget } from '@svc/mcp';
import type { ChatJsonResponse, ChatStreamResponse } from '@svc/pipeline';
import type { ResponsesMcpTool } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { maxMcpRounds, runMcpTools } from './mcp-tool-loop.js';
import { type McpModelTools, needsApproval } from './mcp-tool-set.js';

const target: McpConnectionTarget = { name: 'srv', url: 'https://mcp.example.com/mcp', tools: null, withheld: new Set(), headers: () => ({}) };
const gateway: McpModelTools = {
  modelServer: async () => target,
  modelServerTools: async () => [{ name: 'look', inputSchema: { type: 'object' } }],
  modelToolCall: async () => ({ content: [{ type: 'text', text: 'found' }] }),
};
const spec = (extra: Partial<ResponsesMcpTool> = {}): ResponsesMcpTool => ({ type: 'mcp', server_label: 'srv', require_approval: 'never', ...extra });

/** A model that calls the MCP tool whenever tools are allowed, and answers text when told `none`. */
function stubbornModel(seen: ChatRequest[]) {
  return async (request: ChatRequest): Promise<ChatJsonResponse> => {
    seen.push(request);
    const call = request.toolChoice !== 'none';
    const message = call ? { role: 'assistant' as const, content: null, toolCalls: [{ id: `c${seen.length}`, name: 'srv__look', arguments: '{}' }] } : { role: 'assistant' as const, content: 'done' };
    return {
      kind: 'json',
      result: { id: 'r', model: 'm', created: 0, choices: [{ index: 0, message, finishReason: call ? 'tool_calls' : 'stop' }], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
      metadata: {} as ChatJsonResponse['metadata'],
      headers: {},
    };
  };
}

async function drain(settings: Parameters<typeof runMcpTools>[0]) {
  const loop = runMcpTools(settings);
  const items = [];
  let step = await loop.next();
  for (; !step.done; step = await loop.next()) if (step.value.phase === 'done') items.push(step.value.item);
  return { items, end: step.value };
}

describe('runMcpTools', () => {
  it('stops a model that keeps calling tools after the bounded rounds, the last without tools', async () => {
    const seen: ChatRequest[] = [];
    const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'go' }], toolChoice: 'required', stream: false, n: 1, includeUsage: false };
    const { items, end } = await drain({ request, mcpTools: [spec()], approved: [], gateway, caller: { orgId: 'o', keyId: 'k', requestId: 'q', span: undefined }, chat: stubbornModel(seen) });
    expect(seen).toHaveLength(maxMcpRounds);
    expect(seen.map((r) => r.toolChoice)).toEqual(['required', ...Array(maxMcpRounds - 2).fill('auto'), 'none']);
    expect(items.filter((item) => item.type === 'mcp_call')).toHaveLength(maxMcpRounds - 1);
    expect(end.response.result.choices[0]?.message.content).toBe('done');
    expect(end.response.result.usage?.totalTokens).toBe(2 * maxMcpRounds);
    expect(seen.at(-1)?.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(Array(maxMcpRounds - 1).fill('found'));
  });
});

/** `stubbornModel`'s answers as streams: the words of a text answer one event each, a call in fragments. */
function streamingModel(seen: ChatRequest[], calls = 1) {
  return async (request: ChatRequest): Promise<ChatStreamResponse> => {
    seen.push(request);
    const call = seen.length <= calls;
    const events: StreamEvent[] = call
      ? [
          { type: 'text-delta', choice: 0, text: 'Let me look. ' },
          { type: 'tool-call-delta', choice: 0, index: 0, id: `c${seen.length}`, name: 'srv__look', argumentsDelta: '{' },
          { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '}' },
          { type: 'finish', choice: 0, finishReason: 'tool_calls' },
        ]
      : [...['It ', 'was ', 'found.'].map((text): StreamEvent => ({ type: 'text-delta', choice: 0, text })), { type: 'finish', choice: 0, finishReason: 'stop' }];
    events.push({ type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } });
    return { kind: 'stream', events: (async function* () { yield* events; })(), headers: {}, model: 'm', metadata: () => ({}) as SvcMetadata };
  };
}

describe('runMcpTools with streamed rounds', () => {
  it('passes every round’s text on as it comes, runs the MCP call it held back, and releases only the last round’s finish', async () => {
    const seen: ChatRequest[] = [];
    const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'go' }], stream: true, n: 1, includeUsage: true };
    const loop = runMcpTools({ request, mcpTools: [spec()], approved: [], gateway, caller: { orgId: 'o', keyId: 'k', requestId: 'q', span: undefined }, chat: stubbornModel([]), stream: streamingModel(seen) });
    const order: string[] = [];
    let step = await loop.next();
    for (; !step.done; step = await loop.next()) {
      const event = step.value;
      order.push(event.phase === 'answer' ? `${event.event.type}${event.event.type === 'text-delta' ? `:${event.event.text}` : ''}` : `${event.phase}:${event.item.type}`);
    }
    expect(seen.map((r) => r.stream)).toEqual([true, true]);
    expect(order).toEqual([
      'started:mcp_list_tools',
      'done:mcp_list_tools',
      'text-delta:Let me look. ',
      'started:mcp_call',
      'done:mcp_call',
      'text-delta:It ',
      'text-delta:was ',
      'text-delta:found.',
      'finish',
    ]);
    expect(step.value.response.result.choices[0]?.message.content).toBe('It was found.');
    expect(step.value.response.result.usage?.totalTokens).toBe(4);
  });

  it('refuses a round whose stream ended before its finish', async () => {
    const cut = async (): Promise<ChatStreamResponse> => ({ kind: 'stream', events: (async function* () { yield { type: 'text-delta', choice: 0, text: 'It ' } as StreamEvent; })(), headers: {}, model: 'm', metadata: () => undefined });
    const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'go' }], stream: true, n: 1, includeUsage: true };
    await expect(drain({ request, mcpTools: [spec()], approved: [], gateway, caller: { orgId: 'o', keyId: 'k', requestId: 'q', span: undefined }, chat: stubbornModel([]), stream: cut })).rejects.toThrow(/ended before/);
  });
});

describe('needsApproval', () => {
  it('defaults to always, and follows never/always filters', () => {
    expect(needsApproval(spec({ require_approval: undefined }), 'x')).toBe(true);
    expect(needsApproval(spec({ require_approval: 'never' }), 'x')).toBe(false);
    expect(needsApproval(spec({ require_approval: { never: { tool_names: ['read'] } } }), 'read')).toBe(false);
    expect(needsApproval(spec({ require_approval: { never: { tool_names: ['read'] } } }), 'write')).toBe(true);
    expect(needsApproval(spec({ require_approval: { always: { tool_names: ['write'] } } }), 'write')).toBe(true);
    expect(needsApproval(spec({ require_approval: { always: { tool_names: ['write'] } } }), 'read')).toBe(false);
  });
});
