import type { ChatRequest } from '@svc/core';
import type { McpConnectionTarget } from '@svc/mcp';
import type { ChatJsonResponse } from '@svc/pipeline';
import type { ResponsesMcpTool } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { maxMcpRounds, runMcpTools } from './mcp-tool-loop.js';
import { type McpModelTools, needsApproval } from './mcp-tool-set.js';

const target: McpConnectionTarget = { name: 'srv', url: 'https://mcp.example.com/mcp', tools: null, headers: () => ({}) };
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
