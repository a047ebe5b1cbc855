import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { adminCall } from './harness.js';
import { useMcpUpstream } from './mcp-upstream.js';
import { sdkClients, useMockedGateway } from './mocked-gateway.js';

// OpenAI's Responses `mcp` tool answered by a provider that has no MCP of its own (Anthropic over
// the mock upstream): the gateway lists the in-test MCP server's tools, offers them as Anthropic
// tools, runs the model's call on the server and feeds the result back until the model answers.
const upstream = useMcpUpstream();

interface UpstreamMessage {
  role: string;
  content: string | { type: string; name?: string; tool_use_id?: string; content?: unknown }[];
}

describe('openai SDK responses with an mcp tool, answered by Anthropic', () => {
  const mocked = useMockedGateway({ SVC_MCP_ALLOW_PRIVATE_URLS: 'true' });
  const model = () => mocked.gateway.runtime.catalog.list({ provider: 'anthropic', kind: 'chat' })[0]!.id;
  const mcpTool = (extra: Partial<OpenAI.Responses.Tool.Mcp> = {}): OpenAI.Responses.Tool.Mcp => ({
    type: 'mcp',
    server_label: 'tools',
    server_url: upstream.server.url,
    headers: { authorization: 'Bearer per-request-token' },
    allowed_tools: ['echo'],
    require_approval: 'never',
    ...extra,
  });

  /** The last request the mock upstream received: the round after the tool call. */
  const lastUpstreamBody = () => mocked.upstream.stats().lastRequest!.body as { tools?: { name: string; input_schema: unknown }[]; messages: UpstreamMessage[] };

  it('lists, calls and feeds back the tool, reporting mcp_list_tools and mcp_call items (JSON)', async () => {
    const before = upstream.server.calls.length;
    const response = await mocked.openai.responses.create({ model: model(), input: 'Echo something', tools: [mcpTool()], tool_choice: 'required' });
    expect(response.status).toBe('completed');
    expect(response.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    const [list, call] = response.output as [OpenAI.Responses.ResponseOutputItem.McpListTools, OpenAI.Responses.ResponseOutputItem.McpCall];
    expect(list).toMatchObject({ server_label: 'tools', tools: [{ name: 'echo', description: 'the echo tool', input_schema: { type: 'object' } }] });
    expect(call).toMatchObject({ server_label: 'tools', name: 'echo', arguments: '{"text":"mock"}', output: 'echo: mock', status: 'completed' });
    expect(response.output_text.length).toBeGreaterThan(0);
    // The server got the call with the request's own header; the provider got the tool in its own format and the result.
    expect(upstream.server.calls.slice(before)).toEqual([{ tool: 'echo', arguments: { text: 'mock' }, authorization: 'Bearer per-request-token' }]);
    expect(mocked.upstream.stats().lastRequest!.path).toBe('/v1/messages');
    const body = lastUpstreamBody();
    expect(body.tools?.map((tool) => tool.name)).toEqual(['tools__echo']);
    const results = body.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content.filter((part) => part.type === 'tool_result')));
    expect(JSON.stringify(results)).toContain('echo: mock');
    expect(JSON.stringify(response.tools)).not.toContain('per-request-token');
  });

  it('carries a conversation the client keeps itself (store: false): the replayed mcp_call reaches the provider as the call and its result', async () => {
    const first = await mocked.openai.responses.create({ model: model(), input: 'Echo something', tools: [mcpTool()], tool_choice: 'required', store: false });
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Echo something' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'What did the tool say?' }];
    const next = await mocked.openai.responses.create({ model: model(), input, store: false });
    expect(next.status).toBe('completed');
    const messages = lastUpstreamBody().messages;
    const parts = messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    expect(parts.find((part) => part.type === 'tool_use')).toMatchObject({ name: 'tools__echo' });
    expect(JSON.stringify(parts.find((part) => part.type === 'tool_result'))).toContain('echo: mock');
    expect(messages.at(-1)).toMatchObject({ role: 'user' });
  });

  it('streams the list and the call as their events, then the answer token by token from the provider’s own stream', async () => {
    const stream = mocked.openai.responses.stream({ model: model(), input: 'Echo something', tools: [mcpTool()], tool_choice: 'required' });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    const final = await stream.finalResponse();
    expect(types[0]).toBe('response.created');
    expect(types).toEqual(expect.arrayContaining(['response.mcp_list_tools.in_progress', 'response.mcp_list_tools.completed', 'response.mcp_call.in_progress', 'response.mcp_call_arguments.done', 'response.mcp_call.completed']));
    expect(types.indexOf('response.mcp_call.completed')).toBeLessThan(types.indexOf('response.output_text.delta'));
    expect(types.at(-1)).toBe('response.completed');
    expect(final.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    expect(final.output[1]).toMatchObject({ type: 'mcp_call', output: 'echo: mock', status: 'completed' });
    expect(final.output_text.length).toBeGreaterThan(0);
    // Every round was a streamed upstream request: the answer's text was passed on as it came.
    expect((mocked.upstream.stats().lastRequest!.body as { stream?: boolean }).stream).toBe(true);
    expect(final.usage?.input_tokens).toBeGreaterThan(0);
  });

  it('asks for approval by default, and runs the call once approved through previous_response_id', async () => {
    const before = upstream.server.calls.length;
    const asked = await mocked.openai.responses.create({ model: model(), input: 'Echo something', tools: [mcpTool({ require_approval: undefined })], tool_choice: 'required' });
    expect(asked.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_approval_request']);
    const request = asked.output[1] as OpenAI.Responses.ResponseOutputItem.McpApprovalRequest;
    expect(request).toMatchObject({ server_label: 'tools', name: 'echo', arguments: '{"text":"mock"}' });
    expect(upstream.server.calls.length).toBe(before);

    const resumed = await mocked.openai.responses.create({
      model: model(),
      previous_response_id: asked.id,
      input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
      tools: [mcpTool({ require_approval: undefined })],
    });
    expect(resumed.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    expect(resumed.output[1]).toMatchObject({ approval_request_id: request.id, output: 'echo: mock', status: 'completed' });
    expect(upstream.server.calls.slice(before)).toHaveLength(1);
  });

  it('serves a registered server by its label, and reports a server it cannot list', async () => {
    const org = await mocked.gateway.runtime.db.orgs.ensure(`mcp-${randomUUID()}`);
    await adminCall(mocked.gateway.controlUrl, 'PUT', `/v1/admin/orgs/${org.id}/mcp-servers/registered`, { url: upstream.server.url, credential: { header: 'Authorization', value: 'Bearer sealed' }, tools: ['echo'] });
    const { secret } = await mocked.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const { openai } = sdkClients(mocked.gateway, secret);
    const before = upstream.server.calls.length;
    const response = await openai.responses.create({
      model: model(),
      input: 'Echo something',
      tools: [{ type: 'mcp', server_label: 'registered', require_approval: 'never' }, { type: 'mcp', server_label: 'missing', require_approval: 'never' }],
      tool_choice: 'required',
    });
    expect(response.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_list_tools', 'mcp_call', 'message']);
    expect(response.output[1]).toMatchObject({ server_label: 'missing', tools: [], error: expect.stringContaining("No MCP server 'missing'") });
    expect(upstream.server.calls.slice(before)).toEqual([{ tool: 'echo', arguments: { text: 'mock' }, authorization: 'Bearer sealed' }]);
  });

  it('offers the model only the tools of a registered server the key may use (tool_key_ids), and runs them for the keys allowed', async () => {
    const org = await mocked.gateway.runtime.db.orgs.ensure(`mcp-${randomUUID()}`);
    const [plain, trusted] = await Promise.all([0, 1].map(() => mocked.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })));
    await adminCall(mocked.gateway.controlUrl, 'PUT', `/v1/admin/orgs/${org.id}/mcp-servers/registered`, { url: upstream.server.url, tools: ['echo'], tool_key_ids: { echo: [trusted!.record.id] } });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'mcp', server_label: 'registered', require_approval: 'never' }];
    const before = upstream.server.calls.length;
    const withheld = await sdkClients(mocked.gateway, plain!.secret).openai.responses.create({ model: model(), input: 'Echo something', tools });
    expect(withheld.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'message']);
    expect(withheld.output[0]).toMatchObject({ server_label: 'registered', tools: [], error: null });
    expect(lastUpstreamBody().tools).toBeUndefined();
    expect(upstream.server.calls.length).toBe(before);
    const allowed = await sdkClients(mocked.gateway, trusted!.secret).openai.responses.create({ model: model(), input: 'Echo something', tools, tool_choice: 'required' });
    expect(allowed.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    expect(allowed.output[1]).toMatchObject({ name: 'echo', output: 'echo: mock', status: 'completed' });
  });

  it("stops the model's MCP call upstream when the client leaves, recorded as 499", async () => {
    const org = await mocked.gateway.runtime.db.orgs.ensure(`mcp-${randomUUID()}`);
    const { secret } = await mocked.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const { openai } = sdkClients(mocked.gateway, secret);
    const hangs = () => upstream.server.calls.filter((call) => call.tool === 'hang').length;
    const before = hangs();
    const client = new AbortController();
    const answer = openai.responses.create({ model: model(), input: 'Wait', tools: [mcpTool({ allowed_tools: ['hang'] })], tool_choice: 'required' }, { signal: client.signal, maxRetries: 0 });
    await vi.waitFor(() => expect(hangs()).toBe(before + 1));
    client.abort();
    await expect(answer).rejects.toThrow();
    await vi.waitFor(async () => {
      await mocked.gateway.runtime.learn.flush();
      const rows = (await mocked.gateway.runtime.db.usage.listByOrg(org.id)).filter((row) => row.provider === 'mcp');
      expect(rows.map((row) => `${row.model} ${row.status}`)).toEqual(['tools__hang 499']);
    });
  });

  it('applies the organisation’s tool policy to the model’s MCP calls: a blocked call is refused (422) and never reaches the server', async () => {
    const org = await mocked.gateway.runtime.db.orgs.ensure(`mcp-${randomUUID()}`);
    await adminCall(mocked.gateway.controlUrl, 'PUT', `/v1/admin/orgs/${org.id}/tool-policy`, { blocked_argument_patterns: [{ tool: 'tools__echo', argument: 'text', pattern: '^mock$' }] });
    const { secret } = await mocked.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const { openai } = sdkClients(mocked.gateway, secret);
    const before = upstream.server.calls.length;
    // The chat pipeline's governance refuses the model's answer that holds the blocked call, as for any function tool.
    const refused = await openai.responses.create({ model: model(), input: 'Echo something', tools: [mcpTool()], tool_choice: 'required' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 422, message: expect.stringContaining("'tools__echo' was blocked by policy") });
    expect(upstream.server.calls.length).toBe(before);
  });
});
