import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpFetch } from './guarded-fetch.js';
import type { McpConnectionTarget } from './mcp-registry.js';
import { UpstreamPool } from './upstream-pool.js';

/** How the gateway bounds one operation with one server. */
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
    // A dropped stream is a failed call, not a reconnection: the pool opens a new session for the next one.
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
  });
  const client = new Client({ name: 'svc-gateway', version: '1.0.0' });
  await client.connect(transport, { signal: settings.signal, timeout: settings.timeoutMs });
  return { client, transport };
}

/** How the pool of upstream sessions opens them and how long it keeps them. */
export interface UpstreamPoolOptions {
  fetch: McpFetch;
  /** Connect and initialize, ms. */
  timeoutMs: number;
  idleMs: number;
  maxSessions: number;
}

/**
 * The gateway's sessions with upstream MCP servers, one per server and credential, reused by
 * every list and call; a session the server forgot (404) is opened anew and the call retried once.
 */
export function createUpstreamPool(options: UpstreamPoolOptions): UpstreamPool<Client> {
  return new UpstreamPool<Client>({
    idleMs: options.idleMs,
    maxSessions: options.maxSessions,
    sessionGone: (error) => error instanceof StreamableHTTPError && error.code === 404,
    open: async (target) => {
      const { client, transport } = await connect(target, { fetch: options.fetch, signal: AbortSignal.timeout(options.timeoutMs), timeoutMs: options.timeoutMs });
      return {
        client,
        end: async () => {
          // A stateful server gave the connection a session: end it (DELETE) rather than leave it to expire there.
          if (transport.sessionId !== undefined) await bounded(transport.terminateSession(), sessionEndMs);
          await client.close().catch(() => undefined);
        },
      };
    },
  });
}

/** Every tool `target` lists (following `nextCursor`). */
export function listUpstreamTools(pool: UpstreamPool<Client>, target: McpConnectionTarget, settings: UpstreamSettings): Promise<Tool[]> {
  return pool.use(target, async (client) => {
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
export function callUpstreamTool(pool: UpstreamPool<Client>, target: McpConnectionTarget, settings: UpstreamSettings, tool: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  return pool.use(target, async (client) => {
    const params = args === undefined ? { name: tool } : { name: tool, arguments: args };
    return (await client.callTool(params, undefined, { signal: settings.signal, timeout: settings.timeoutMs })) as CallToolResult;
  });
}
