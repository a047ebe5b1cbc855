import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { masterKey, startGateway } from './harness.js';
import { type McpUpstream, startMalformedUpstream, startMcpUpstream, startStatefulMcpUpstream } from './mcp-upstream.js';
import { CLIENT, ERROR, type OtlpReceiver, attr, startReceiver } from './otlp-receiver.js';

// The MCP gateway at /mcp, driven by the official MCP client SDK, over real MCP servers on
// loopback ports: this gateway allows private URLs explicitly (SVC_MCP_ALLOW_PRIVATE_URLS).
let gateway: Awaited<ReturnType<typeof startGateway>>;
let upstream: McpUpstream;
let malformed: McpUpstream;
let stateful: McpUpstream;
let receiver: OtlpReceiver;
const upstreamSecret = 'Bearer upstream-secret-4321';

beforeAll(async () => {
  [upstream, malformed, stateful, receiver] = await Promise.all([startMcpUpstream(), startMalformedUpstream(), startStatefulMcpUpstream(), startReceiver()]);
  gateway = await startGateway({
    SVC_MCP_ALLOW_PRIVATE_URLS: 'true',
    SVC_MCP_TIMEOUT_MS: '1500',
    SVC_MCP_MAX_RESPONSE_BYTES: '20000',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  });
});
afterAll(async () => {
  await gateway?.stop();
  await Promise.all([upstream?.close(), malformed?.close(), stateful?.close()]);
  receiver?.server.close();
});

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${gateway.controlUrl}${path}`, { method, headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** A fresh organisation with both upstreams registered, and a key of it holding `scopes`. */
async function orgWithServers(scopes: ('inference:chat' | 'inference:embeddings')[] = ['inference:chat']) {
  const org = await gateway.runtime.db.orgs.ensure(`mcp-${randomUUID()}`);
  const tools = await admin('PUT', `/v1/admin/orgs/${org.id}/mcp-servers/tools`, { url: upstream.url, credential: { header: 'Authorization', value: upstreamSecret }, tools: ['echo', 'hang', 'big'] });
  expect(tools.status, await tools.clone().text()).toBe(201);
  expect((await admin('PUT', `/v1/admin/orgs/${org.id}/mcp-servers/broken`, { url: malformed.url })).status).toBe(201);
  const { secret } = await gateway.runtime.authenticator.issue({ orgId: org.id, scopes });
  return { org, key: secret };
}

let lastTransport: StreamableHTTPClientTransport | undefined;

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  lastTransport = new StreamableHTTPClientTransport(new URL(`${gateway.inferenceUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  await client.connect(lastTransport);
  return client;
}

/** The MCP error a call ends with: its JSON-RPC code and the gateway's stable code. */
async function callError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const error = await client.callTool({ name, arguments: args }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, name).toBeInstanceOf(McpError);
  const { code, data, message } = error as McpError;
  return { code, message, stable: (data as { code?: string } | undefined)?.code };
}

describe('MCP gateway (/mcp) with the official MCP SDK', () => {
  it('lists the registered servers’ exposed tools as one server, namespaced <server>__<tool>', async () => {
    const { key } = await orgWithServers();
    const client = await connect(key);
    expect(client.getServerVersion()).toMatchObject({ name: 'svc-gateway' });
    expect(lastTransport?.protocolVersion).toBe('2025-11-25');
    expect(lastTransport?.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['broken__garble', 'tools__big', 'tools__echo', 'tools__hang']);
    expect(tools.find((tool) => tool.name === 'tools__echo')).toMatchObject({ description: 'the echo tool', inputSchema: { type: 'object' } });
    await client.close();
  });

  it('forwards a call with the sealed credential, records a ledger row and a client span', async () => {
    const { org, key } = await orgWithServers();
    const client = await connect(key);
    const text = `hello ${randomUUID()}`;
    const result = await client.callTool({ name: 'tools__echo', arguments: { text } });
    expect(result.content).toEqual([{ type: 'text', text: `echo: ${text}` }]);
    expect(upstream.calls.find((call) => call.arguments?.text === text)).toEqual({ tool: 'echo', arguments: { text }, authorization: upstreamSecret });
    await client.close();

    await gateway.runtime.learn.flush();
    const rows = (await gateway.runtime.db.usage.listByOrg(org.id)).filter((row) => row.provider === 'mcp');
    expect(rows).toEqual([expect.objectContaining({ model: 'tools__echo', status: 200, costUsd: 0, promptTokens: 0 })]);

    await gateway.runtime.tracing.flush();
    const span = receiver.spans().find((entry) => entry.name === 'mcp tools/call' && attr(entry, 'gen_ai.tool.name') === 'tools__echo');
    expect(span).toBeDefined();
    expect(span?.kind).toBe(CLIENT);
    expect(attr(span!, 'svc.mcp.status')).toBe(200);
  });

  it('applies the organisation’s tool governance: blocked names are hidden and refused, argument rules block calls', async () => {
    const { org, key } = await orgWithServers();
    const policy = await admin('PUT', `/v1/admin/orgs/${org.id}/tool-policy`, {
      blocked_tools: ['tools__big'],
      blocked_argument_patterns: [{ tool: 'tools__echo', argument: 'text', pattern: 'rm\\s+-rf' }],
    });
    expect(policy.status, await policy.clone().text()).toBe(200);
    const client = await connect(key);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('tools__big');
    const before = upstream.calls.length;
    expect(await callError(client, 'tools__echo', { text: 'please rm -rf /' })).toMatchObject({ code: -32010, stable: 'tool_call_blocked' });
    expect(await callError(client, 'tools__big')).toMatchObject({ code: -32010, stable: 'tool_call_blocked' });
    expect(upstream.calls.length).toBe(before);
    expect((await client.callTool({ name: 'tools__echo', arguments: { text: 'ls' } })).content).toEqual([{ type: 'text', text: 'echo: ls' }]);
    await client.close();
  });

  it('ends a hanging, oversized or malformed upstream call with a clear MCP error, and keeps serving', async () => {
    const { org, key } = await orgWithServers();
    const client = await connect(key);
    const started = Date.now();
    const hang = await callError(client, 'tools__hang');
    expect(hang).toMatchObject({ code: -32011, stable: 'upstream_timeout' });
    expect(hang.message).toContain("MCP server 'tools' did not answer in time");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await callError(client, 'tools__big')).toMatchObject({ code: -32011, stable: 'mcp_response_too_large' });
    const garbled = await callError(client, 'broken__garble');
    expect(garbled).toMatchObject({ code: -32011 });
    expect(garbled.message).toContain("MCP server 'broken'");
    expect((await client.callTool({ name: 'tools__echo', arguments: { text: 'still here' } })).content).toEqual([{ type: 'text', text: 'echo: still here' }]);
    await client.close();

    await gateway.runtime.learn.flush();
    const statuses = (await gateway.runtime.db.usage.listByOrg(org.id)).filter((row) => row.provider === 'mcp').map((row) => `${row.model} ${row.status}`);
    expect(statuses.sort()).toEqual(['broken__garble 502', 'tools__big 502', 'tools__echo 200', 'tools__hang 504']);
    await gateway.runtime.tracing.flush();
    const hangSpan = receiver.spans().find((entry) => entry.name === 'mcp tools/call' && attr(entry, 'gen_ai.tool.name') === 'tools__hang');
    expect(hangSpan?.status?.code).toBe(ERROR);
  });

  it('stops a tool call upstream when its client leaves, recorded as 499 (not left to its timeout)', async () => {
    const { org, key } = await orgWithServers();
    const client = new AbortController();
    const hangs = upstream.calls.filter((call) => call.tool === 'hang').length;
    const call = fetch(`${gateway.inferenceUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tools__hang', arguments: {} } }),
      signal: client.signal,
    });
    await vi.waitFor(() => expect(upstream.calls.filter((entry) => entry.tool === 'hang')).toHaveLength(hangs + 1));
    client.abort();
    await expect(call).rejects.toThrow();
    // The gateway's timeout here is 1,500 ms and answers 504: a 499 row is the client's leaving.
    await vi.waitFor(async () => {
      await gateway.runtime.learn.flush();
      const rows = (await gateway.runtime.db.usage.listByOrg(org.id)).filter((row) => row.provider === 'mcp');
      expect(rows.map((row) => `${row.model} ${row.status}`)).toEqual(['tools__hang 499']);
    });
  });

  it('speaks to a stateful upstream within one session, reused by every operation and ended at shutdown', async () => {
    const { org, key } = await orgWithServers();
    expect((await admin('PUT', `/v1/admin/orgs/${org.id}/mcp-servers/sessions`, { url: stateful.url, tools: ['echo'] })).status).toBe(201);
    const client = await connect(key);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('sessions__echo');
    for (const text of ['in a session', 'the same session']) {
      expect((await client.callTool({ name: 'sessions__echo', arguments: { text } })).content).toEqual([{ type: 'text', text: `echo: ${text}` }]);
    }
    expect(stateful.calls.at(-1)).toMatchObject({ tool: 'echo', arguments: { text: 'the same session' } });
    expect(stateful.sessions.size).toBe(1);
    await client.close();
    await gateway.runtime.mcpGateway.close();
    expect(stateful.sessions.size).toBe(0);
  });

  it('reuses one upstream session per server and credential: a call after the first is one HTTP request upstream', async () => {
    const { key } = await orgWithServers();
    const client = await connect(key);
    await client.callTool({ name: 'tools__echo', arguments: { text: 'warm' } });
    const before = upstream.requests();
    for (let call = 0; call < 10; call += 1) await client.callTool({ name: 'tools__echo', arguments: { text: `call ${call}` } });
    // Without reuse each call was initialize, notifications/initialized and tools/call: 30 requests.
    expect(upstream.requests() - before).toBe(10);
    await client.close();
  });

  it('answers unknown and unexposed tools with InvalidParams', async () => {
    const { key } = await orgWithServers();
    const client = await connect(key);
    for (const name of ['tools__secret', 'nowhere__echo', 'echo']) expect(await callError(client, name)).toMatchObject({ code: -32602, stable: 'tool_not_found' });
    await client.close();
  });

  it('limits single tools to some keys: to the others a tool is not listed and calling it is tool_not_allowed, never reaching the server', async () => {
    const { org, key } = await orgWithServers();
    const trusted = await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const narrowed = await admin('PUT', `/v1/admin/orgs/${org.id}/mcp-servers/tools`, {
      url: upstream.url,
      credential: { header: 'Authorization', value: upstreamSecret },
      tools: ['echo', 'hang', 'big'],
      tool_key_ids: { echo: [trusted.record.id] },
    });
    expect(narrowed.status, await narrowed.clone().text()).toBe(200);
    const plain = await connect(key);
    const listed = (await plain.listTools()).tools.map((tool) => tool.name);
    expect(listed).toEqual(expect.arrayContaining(['tools__hang', 'tools__big']));
    expect(listed).not.toContain('tools__echo');
    const text = `withheld ${randomUUID()}`;
    const refused = await callError(plain, 'tools__echo', { text });
    expect(refused).toMatchObject({ code: -32013, stable: 'tool_not_allowed', message: expect.stringContaining('other keys only') });
    expect(upstream.calls.some((call) => call.arguments?.text === text)).toBe(false);
    await plain.close();

    const allowed = await connect(trusted.secret);
    expect((await allowed.listTools()).tools.map((tool) => tool.name)).toContain('tools__echo');
    expect((await allowed.callTool({ name: 'tools__echo', arguments: { text } })).content).toEqual([{ type: 'text', text: `echo: ${text}` }]);
    await allowed.close();
    await gateway.runtime.learn.flush();
    const rows = (await gateway.runtime.db.usage.listByOrg(org.id)).filter((row) => row.provider === 'mcp' && row.model === 'tools__echo');
    expect(rows.map((row) => row.status).sort()).toEqual([200, 403]);
  });

  it('counts tool calls against the key’s requests per minute: over the limit a call is rate_limited and never reaches the server', async () => {
    const { org } = await orgWithServers();
    const { secret } = await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'], rpmLimit: 2 });
    const client = await connect(secret);
    const text = `limited ${randomUUID()}`;
    for (let call = 0; call < 2; call += 1) expect((await client.callTool({ name: 'tools__echo', arguments: { text } })).isError).toBeFalsy();
    const refused = await client.callTool({ name: 'tools__echo', arguments: { text } }).then(
      () => undefined,
      (caught: unknown) => caught as McpError,
    );
    expect(refused?.code).toBe(-32012);
    expect(refused?.data).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited', retry_after_seconds: expect.any(Number) });
    expect(upstream.calls.filter((call) => call.arguments?.text === text)).toHaveLength(2);
    // Listing is not a call: the key can still see its tools.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('needs a key with inference:chat, serves only the key’s organisation and the servers open to that key', async () => {
    const post = (key: string | null) =>
      fetch(`${gateway.inferenceUrl}/mcp`, {
        method: 'POST',
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post(null)).status).toBe(401);
    const stream = await fetch(`${gateway.inferenceUrl}/mcp`, { headers: { authorization: `Bearer ${masterKey}`, accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    const embeddingsOnly = await orgWithServers(['inference:embeddings']);
    expect(await (await post(embeddingsOnly.key)).json()).toMatchObject({ error: { type: 'authorization_error', code: 'insufficient_scopes' } });
    await expect(connect('sk-svc-not-a-key-0000000000')).rejects.toThrow();

    // A server limited to some keys of the organisation is invisible and uncallable to the others.
    const limited = await orgWithServers();
    const second = await gateway.runtime.authenticator.issue({ orgId: limited.org.id, scopes: ['inference:chat'] });
    const narrowed = await admin('PUT', `/v1/admin/orgs/${limited.org.id}/mcp-servers/broken`, { url: malformed.url, key_ids: [second.record.id] });
    expect(narrowed.status, await narrowed.clone().text()).toBe(200);
    const first = await connect(limited.key);
    expect((await first.listTools()).tools.map((tool) => tool.name)).not.toContain('broken__garble');
    expect(await callError(first, 'broken__garble')).toMatchObject({ code: -32602, stable: 'tool_not_found' });
    await first.close();
    const allowed = await connect(second.secret);
    expect((await allowed.listTools()).tools.map((tool) => tool.name)).toContain('broken__garble');
    await allowed.close();

    const other = await gateway.runtime.db.orgs.ensure(`mcp-empty-${randomUUID()}`);
    const { secret } = await gateway.runtime.authenticator.issue({ orgId: other.id, scopes: ['inference:chat'] });
    const client = await connect(secret);
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
  });
});

describe('MCP gateway with the default URL policy', () => {
  let strict: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    strict = await startGateway();
  });
  afterAll(async () => {
    await strict?.stop();
  });

  it('refuses to register a loopback URL, and refuses to dial one that is stored anyway', async () => {
    const org = await strict.runtime.db.orgs.ensure(`mcp-strict-${randomUUID()}`);
    const refused = await fetch(`${strict.controlUrl}/v1/admin/orgs/${org.id}/mcp-servers/tools`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: upstream.url }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'mcp_url_refused', param: 'url' } });

    // A row written while the operator allowed private URLs (or a name now resolving to one) is still not dialled.
    await strict.runtime.db.mcpServers.put(org.id, { name: 'tools', url: upstream.url, transport: 'streamable_http', credential: null, tools: null, keyIds: null, toolKeyIds: null });
    const { secret } = await strict.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const client = new Client({ name: 'svc-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${strict.inferenceUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
    expect((await client.listTools()).tools).toEqual([]);
    const before = upstream.calls.length;
    const error = (await client.callTool({ name: 'tools__echo', arguments: {} }).catch((caught: unknown) => caught)) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.data).toMatchObject({ code: 'mcp_url_refused' });
    expect(upstream.calls.length).toBe(before);
    await client.close();
  });
});
