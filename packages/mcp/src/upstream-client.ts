import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpFetch } from './guarded-fetch.js';
import type { McpConnectionTarget } from './mcp-registry.js';

/** How the gateway talks to one registered server for one operation. */
export interface UpstreamSettings {
  fetch: McpFetch;
  /** Ends the whole operation (connect and request) when it fires. */
  signal: AbortSignal;
  /** Per JSON-RPC request, ms. */
  timeoutMs: number;
}

/** How long ending an upstream session may hold the call's answer back, ms. */
const sessionEndMs = 1000;

/** Waits for `work` at most `ms` (never rejects): best-effort cleanup must not hang a call. */
async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work.catch(() => undefined), elapsed]);
  clearTimeout(timer);
}

/** Pages of `tools/list` followed at most; a server listing more is cut there. */
const maxToolPages = 10;

/** A connected, initialised MCP client of `target` and its transport; close both when done. */
async function connect(target: McpConnectionTarget, settings: UpstreamSettings): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    fetch: settings.fetch,
    requestInit: { headers: target.headers() },
    // One operation per connection: a dropped stream is a failed call, not a reconnection.
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
  });
  const client = new Client({ name: 'svc-gateway', version: '1.0.0' });
  await client.connect(transport, { signal: settings.signal, timeout: settings.timeoutMs });
  return { client, transport };
}

/** Runs `operation` on a fresh connection to `target`, closing it afterwards whatever happens. */
async function withUpstream<T>(target: McpConnectionTarget, settings: UpstreamSettings, operation: (client: Client) => Promise<T>): Promise<T> {
  const { client, transport } = await connect(target, settings);
  try {
    return await operation(client);
  } finally {
    // A stateful server gave the connection a session: end it (DELETE) rather than leave it to expire there.
    if (transport.sessionId !== undefined) await bounded(transport.terminateSession(), sessionEndMs);
    await client.close().catch(() => undefined);
  }
}

/** Every tool `target` lists (following `nextCursor`). */
export function listUpstreamTools(target: McpConnectionTarget, settings: UpstreamSettings): Promise<Tool[]> {
  return withUpstream(target, settings, async (client) => {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxToolPages; page += 1) {
      const answer = await client.listTools(cursor === undefined ? {} : { cursor }, { signal: settings.signal, timeout: settings.timeoutMs });
      tools.push(...answer.tools);
      cursor = answer.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  });
}

/** Calls `tool` on `target` with `args`; the server's result as it sent it (validated by the SDK). */
export function callUpstreamTool(target: McpConnectionTarget, settings: UpstreamSettings, tool: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  return withUpstream(target, settings, async (client) => {
    const params = args === undefined ? { name: tool } : { name: tool, arguments: args };
    return (await client.callTool(params, undefined, { signal: settings.signal, timeout: settings.timeoutMs })) as CallToolResult;
  });
}
