import { GatewayError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { decodeCountTokensRequest, decodeMessagesRequest } from './decode-messages-request.js';
import { mcpServersOf } from './mcp-toolsets.js';

const base = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] };

function rejection(body: unknown): GatewayError {
  try {
    decodeMessagesRequest(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('decodeMessagesRequest', () => {
  it('maps system, content blocks, tool_use and tool_result turns to canonical messages', () => {
    const request = decodeMessagesRequest({
      ...base,
      system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Be kind.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }], is_error: true }, { type: 'text', text: 'and?' }] },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief.\nBe kind.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] },
      { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
      { role: 'tool', toolCallId: 'toolu_1', content: 'Error: sunny' },
      { role: 'user', content: [{ type: 'text', text: 'and?' }] },
    ]);
    expect(request).toMatchObject({ model: 'claude-sonnet-4-5', maxTokens: 256, stream: false, n: 1 });
  });

  it('maps tools, tool_choice, stop sequences, metadata, thinking and the gateway extensions', () => {
    const request = decodeMessagesRequest({
      ...base,
      max_tokens: 4096,
      stream: true,
      tools: [{ name: 'get_weather', description: 'w', input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      temperature: 0.5,
      top_k: 5,
      metadata: { user_id: 'u-1' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      routing_hints: { max_tier: 2 },
      routing_override: { force_tier: 'tier-1' },
      svc: { enable_cache: false },
    });
    expect(request).toMatchObject({
      stream: true,
      tools: [{ name: 'get_weather', description: 'w', parameters: { type: 'object', properties: {} } }],
      toolChoice: 'required',
      parallelToolCalls: false,
      stop: ['END'],
      temperature: 0.5,
      user: 'u-1',
      reasoning: { maxTokens: 1024 },
      // The client's whole output limit, thinking included (adapters map the budget, never shrink it).
      maxTokens: 4096,
      routingHints: { maxTier: 2 },
      routingOverride: { forceTier: 'T1' },
      svc: { enableCache: false },
    });
    expect(decodeMessagesRequest({ ...base, tool_choice: { type: 'tool', name: 'x' } }).toolChoice).toEqual({ name: 'x' });
    expect(decodeMessagesRequest({ ...base, tool_choice: { type: 'none' } }).toolChoice).toBe('none');
  });

  it('keeps every cache_control breakpoint where the client put it', () => {
    const ephemeral = { type: 'ephemeral' } as const;
    const request = decodeMessagesRequest({
      ...base,
      system: [
        { type: 'text', text: 'You are a coding agent.' },
        { type: 'text', text: 'Repository map: ...', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
      tools: [{ name: 'read_file', input_schema: { type: 'object' }, cache_control: ephemeral }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Open main.ts', cache_control: ephemeral }, { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' }, cache_control: ephemeral }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'main.ts' }, cache_control: ephemeral }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}', cache_control: ephemeral }] },
      ],
    });
    expect(request.tools).toEqual([{ name: 'read_file', parameters: { type: 'object' }, cacheControl: { type: 'ephemeral' } }]);
    expect(request.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }, { type: 'text', text: 'Repository map: ...', cacheControl: { type: 'ephemeral', ttl: '1h' } }] },
      { role: 'user', content: [{ type: 'text', text: 'Open main.ts', cacheControl: { type: 'ephemeral' } }, { type: 'image', url: 'https://x.test/a.png', cacheControl: { type: 'ephemeral' } }] },
      { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"main.ts"}' }], cacheControl: { type: 'ephemeral' } },
      { role: 'tool', toolCallId: 'toolu_1', content: 'export {}', cacheControl: { type: 'ephemeral' } },
    ]);
    // Without a breakpoint the system blocks are still joined into one text.
    expect(decodeMessagesRequest({ ...base, system: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }).messages[0]).toEqual({ role: 'system', content: 'a\nb' });
    expect(() => decodeMessagesRequest({ ...base, system: [{ type: 'text', text: 'a', cache_control: { type: 'persistent' } }] })).toThrow(expect.objectContaining({ param: 'system.0.cache_control.type' }));
  });

  it.each([
    [{ ...base, model: undefined }, 'model'],
    [{ ...base, max_tokens: undefined }, 'max_tokens'],
    [{ ...base, max_tokens: 0 }, 'max_tokens'],
    [{ ...base, messages: [] }, 'messages'],
    [{ ...base, messages: [{ role: 'tool', content: 'x' }] }, 'messages.0.role'],
    [{ ...base, temperature: 1.5 }, 'temperature'],
    [{ ...base, top_p: 2 }, 'top_p'],
    [{ ...base, top_k: -1 }, 'top_k'],
    [{ ...base, stop_sequences: 'END' }, 'stop_sequences'],
    [{ ...base, system: 5 }, 'system'],
    [{ ...base, tools: [{ name: 'x' }] }, 'tools.0.input_schema'],
    [{ ...base, tool_choice: { type: 'required' } }, 'tool_choice.type'],
    [{ ...base, thinking: { type: 'enabled', budget_tokens: 100 } }, 'thinking.budget_tokens'],
    [{ ...base, thinking: { type: 'enabled', budget_tokens: 2048 } }, 'thinking.budget_tokens'],
    [{ ...base, metadata: { user_id: 7 } }, 'metadata.user_id'],
    [{ ...base, routing_hints: { max_tier: 4 } }, 'routing_hints.max_tier'],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'video' }] }] }, 'messages.0.content.0.type'],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/tiff', data: 'A' } }] }] }, 'messages.0.content.0.source.media_type'],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] }] }, 'messages.0.content'],
    [{ ...base, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', is_error: 'yes' }] }] }, 'messages.0.content.0.is_error'],
  ])('refuses %j with a 400 naming %s', (body, param) => {
    const error = rejection(body);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param });
    expect(error.message).toContain(param);
  });

  it('refuses a body that is not an object', () => {
    expect(rejection([])).toMatchObject({ status: 400, param: null });
  });
});

describe('decodeCountTokensRequest', () => {
  it('takes the Messages body without max_tokens and maps it like decodeMessagesRequest', () => {
    const { max_tokens: _, ...body } = { ...base, system: 'Be brief.', thinking: { type: 'enabled', budget_tokens: 2048 } };
    const request = decodeCountTokensRequest(body);
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(request.maxTokens).toBeUndefined();
  });

  it('still validates the rest of the body', () => {
    expect(() => decodeCountTokensRequest({ model: 'm', messages: [] })).toThrow(/messages/);
  });
});

describe('mcp_toolset (MCP connector mcp-client-2025-11-20)', () => {
  const server = { type: 'url', url: 'https://mcp.example.com/mcp', name: 'docs' };
  const body = (tools: unknown[], servers: unknown[] = [server]) => ({
    model: 'claude-sonnet-4-5',
    max_tokens: 16,
    messages: [{ role: 'user', content: 'hi' }],
    mcp_servers: servers,
    tools,
  });
  const toolset = { type: 'mcp_toolset', mcp_server_name: 'docs' };
  const weather = { name: 'weather', input_schema: { type: 'object' } };

  it('is not a client tool: only the custom tools reach the canonical request', () => {
    expect(decodeMessagesRequest(body([toolset, weather])).tools?.map((tool) => tool.name)).toEqual(['weather']);
    expect(decodeMessagesRequest(body([toolset])).tools).toBeUndefined();
  });

  it('gives its server the toolset rule: per-tool enabled over the default (true when unset)', () => {
    const allow = { ...toolset, default_config: { enabled: false, defer_loading: true }, configs: { search: { enabled: true } } };
    expect(mcpServersOf(body([allow]))).toEqual([
      { type: 'mcp', server_label: 'docs', server_url: server.url, require_approval: 'never', toolset: { enabledByDefault: false, enabled: { search: true } } },
    ]);
    expect(mcpServersOf(body([{ ...toolset, configs: { fetch: { enabled: false } } }]))[0]?.toolset).toEqual({ enabledByDefault: true, enabled: { fetch: false } });
  });

  it.each([
    ['names no server', body([{ ...toolset, mcp_server_name: 'other' }]), 'tools.0.mcp_server_name'],
    ['names a server twice', body([toolset, weather, toolset]), 'tools.2.mcp_server_name'],
    ['leaves a server without one', body([toolset], [server, { ...server, name: 'more' }]), 'mcp_servers.1'],
    ['is mixed with tool_configuration', body([toolset], [{ ...server, tool_configuration: { allowed_tools: ['a'] } }]), 'mcp_servers.0.tool_configuration'],
    ['has a config that is not an object', body([{ ...toolset, configs: { a: true } }]), 'tools.0.configs.a'],
  ])('refuses a toolset that %s (400 naming the field)', (_case, wire, param) => {
    expect(() => decodeMessagesRequest(wire)).toThrow(expect.objectContaining({ status: 400, param }));
  });
});
