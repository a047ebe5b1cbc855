import { randomUUID } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { adminCall } from './harness.js';
import { useMcpUpstream } from './mcp-upstream.js';
import { sdkClients, useMockedGateway } from './mocked-gateway.js';

// Anthropic's MCP connector (`mcp_servers`) answered by a provider that has none (OpenAI over the
// mock upstream): the gateway lists the in-test MCP server's tools, offers them as OpenAI function
// tools, runs the model's call on the server and feeds the result back until the model answers.
const upstream = useMcpUpstream();

interface ChatBody {
  tools?: { type: string; function: { name: string } }[];
  messages: { role: string; content: unknown; tool_call_id?: string }[];
}

describe('anthropic SDK messages with mcp_servers, answered by OpenAI', () => {
  const mocked = useMockedGateway({ SVC_MCP_ALLOW_PRIVATE_URLS: 'true' });
  const model = () => mocked.gateway.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
  const params = (): Anthropic.Beta.MessageCreateParamsNonStreaming => ({
    model: model(),
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Echo something' }],
    tool_choice: { type: 'any' },
    mcp_servers: [{ type: 'url', url: upstream.server.url, name: 'tools', authorization_token: 'token-123', tool_configuration: { allowed_tools: ['echo'] } }],
    betas: ['mcp-client-2025-04-04'],
  });

  it('runs the call and reports mcp_tool_use and mcp_tool_result blocks before the answer (JSON)', async () => {
    const before = upstream.server.calls.length;
    const message = await mocked.anthropic.beta.messages.create(params());
    expect(message.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    const [use, result] = message.content as [Anthropic.Beta.BetaMCPToolUseBlock, Anthropic.Beta.BetaMCPToolResultBlock];
    expect(use).toMatchObject({ name: 'echo', server_name: 'tools', input: { text: 'mock' } });
    expect(result).toMatchObject({ tool_use_id: use.id, is_error: false, content: [{ type: 'text', text: 'echo: mock' }] });
    expect(message.stop_reason).toBe('end_turn');
    expect(upstream.server.calls.slice(before)).toEqual([{ tool: 'echo', arguments: { text: 'mock' }, authorization: 'Bearer token-123' }]);
    const last = mocked.upstream.stats().lastRequest!;
    expect(last.path).toBe('/v1/chat/completions');
    const body = last.body as ChatBody;
    expect(body.tools?.map((tool) => tool.function.name)).toEqual(['tools__echo']);
    expect(body.messages.find((entry) => entry.role === 'tool')).toMatchObject({ content: 'echo: mock' });
  });

  it('streams the call blocks, then the answer token by token from the provider’s own stream, into the SDK’s final message', async () => {
    const stream = mocked.anthropic.beta.messages.stream(params());
    const final = await stream.finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    expect(final.content[1]).toMatchObject({ type: 'mcp_tool_result', content: [{ type: 'text', text: 'echo: mock' }] });
    expect((final.content[2] as Anthropic.Beta.BetaTextBlock).text.length).toBeGreaterThan(0);
    // Every round was a streamed upstream request: the answer's text was passed on as it came.
    expect((mocked.upstream.stats().lastRequest!.body as { stream?: boolean }).stream).toBe(true);
    expect(final.usage.output_tokens).toBeGreaterThan(0);
  });

  // The 2025-11-20 form: the server's tools are chosen by an `mcp_toolset` in `tools`.
  const toolsetParams = (toolset: Anthropic.Beta.BetaMCPToolset): Anthropic.Beta.MessageCreateParamsNonStreaming => ({
    ...params(),
    mcp_servers: [{ type: 'url', url: upstream.server.url, name: 'tools', authorization_token: 'token-123' }],
    tools: [toolset],
    betas: ['mcp-client-2025-11-20'],
  });
  const offered = () => (mocked.upstream.stats().lastRequest!.body as ChatBody).tools?.map((tool) => tool.function.name);

  it('offers only the tools an mcp_toolset enables: an allowlist (default off, one on)', async () => {
    const message = await mocked.anthropic.beta.messages.create(
      toolsetParams({ type: 'mcp_toolset', mcp_server_name: 'tools', default_config: { enabled: false }, configs: { echo: { enabled: true } } }),
    );
    expect(message.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    expect(offered()).toEqual(['tools__echo']);
  });

  it('offers every tool but those an mcp_toolset turns off: a denylist', async () => {
    await mocked.anthropic.beta.messages.create(toolsetParams({ type: 'mcp_toolset', mcp_server_name: 'tools', configs: { hang: { enabled: false }, big: { enabled: false } } }));
    expect(offered()).toEqual(['tools__echo', 'tools__secret']);
  });

  it('refuses a toolset naming no server of mcp_servers (400, param tools.0.mcp_server_name), and calls nothing', async () => {
    const before = mocked.upstream.stats().total;
    const error = await mocked.anthropic.beta.messages.create(toolsetParams({ type: 'mcp_toolset', mcp_server_name: 'other' })).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error' } } });
    expect(JSON.stringify((error as { error: unknown }).error)).toContain('tools.0.mcp_server_name');
    expect(mocked.upstream.stats().total).toBe(before);
  });

  it('holds a server named by the URL the organisation registered to its key rules: a withheld tool is not offered, a key outside key_ids gets no tools', async () => {
    const org = await mocked.gateway.runtime.db.orgs.ensure(`mcp-${randomUUID()}`);
    const [plain, trusted, outsider] = await Promise.all([0, 1, 2].map(() => mocked.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })));
    const keyIds = [plain!.record.id, trusted!.record.id];
    await adminCall(mocked.gateway.controlUrl, 'PUT', `/v1/admin/orgs/${org.id}/mcp-servers/registered`, { url: upstream.server.url, tools: ['echo', 'secret'], key_ids: keyIds, tool_key_ids: { echo: [trusted!.record.id] } });
    // Without tools to offer, the request may not force a tool: tool_choice only where echo is offered.
    const ask = (key: string, force = false) => {
      const { mcp_servers, betas, messages, max_tokens } = params();
      return sdkClients(mocked.gateway, key).anthropic.beta.messages.create({ model: model(), max_tokens, messages, mcp_servers, betas, ...(force ? { tool_choice: { type: 'any' as const } } : {}) });
    };
    const before = upstream.server.calls.length;
    const withheld = await ask(plain!.secret);
    expect(withheld.content.map((block) => block.type)).toEqual(['text']);
    expect(offered()).toBeUndefined();
    const outside = await ask(outsider!.secret);
    expect(outside.content.map((block) => block.type)).toEqual(['text']);
    expect(offered()).toBeUndefined();
    expect(upstream.server.calls.length).toBe(before);
    const allowed = await ask(trusted!.secret, true);
    expect(offered()).toEqual(['tools__echo']);
    expect(allowed.content.map((block) => block.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
  });
});
