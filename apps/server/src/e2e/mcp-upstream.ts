import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { type IncomingMessage, type Server as HttpServer, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';

/** What an upstream MCP server received: each tools/call's name, arguments and Authorization header. */
export interface UpstreamCall {
  tool: string;
  arguments: Record<string, unknown> | undefined;
  authorization: string | undefined;
}

export interface McpUpstream {
  url: string;
  calls: UpstreamCall[];
  /** Sessions a stateful server opened and that are still open. */
  sessions: Set<string>;
  /** HTTP requests the server received. */
  requests(): number;
  close(): Promise<void>;
}

const objectSchema = { type: 'object' as const, properties: { text: { type: 'string' } } };

/** The official SDK's MCP server, stateless, with tools that answer, hang, answer too much, or are not exposed. */
function toolServer(calls: UpstreamCall[], authorization: string | undefined): Server {
  const server = new Server({ name: 'upstream-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ['echo', 'hang', 'big', 'secret'].map((name) => ({ name, description: `the ${name} tool`, inputSchema: objectSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    calls.push({ tool: request.params.name, arguments: request.params.arguments, authorization });
    if (request.params.name === 'hang') await new Promise(() => {});
    if (request.params.name === 'big') return { content: [{ type: 'text', text: 'x'.repeat(100_000) }] };
    return { content: [{ type: 'text', text: `echo: ${String(request.params.arguments?.text ?? '')}` }] };
  });
  return server;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<HttpServer> {
  const server = createServer((req, res) => {
    received.set(server, (received.get(server) ?? 0) + 1);
    handler(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

const received = new WeakMap<HttpServer, number>();
const countOf = (server: HttpServer) => () => received.get(server) ?? 0;

const urlOf = (server: HttpServer) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
const closing = (server: HttpServer) => () => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
};

/** An MCP server from the official SDK on a loopback port (streamable HTTP, stateless). */
export async function startMcpUpstream(): Promise<McpUpstream> {
  const calls: UpstreamCall[] = [];
  const http = await listen(async (req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = toolServer(calls, req.headers.authorization);
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  return { url: urlOf(http), calls, sessions: new Set(), requests: countOf(http), close: closing(http) };
}

/** The same tools from a stateful server: `Mcp-Session-Id` on initialize, required afterwards, ended by DELETE. */
export async function startStatefulMcpUpstream(): Promise<McpUpstream> {
  const calls: UpstreamCall[] = [];
  const sessions = new Set<string>();
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = await listen(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? transports.get(id) : undefined;
    if (known) return known.handleRequest(req, res);
    if (id !== undefined) return res.writeHead(404).end();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (session) => {
        transports.set(session, transport);
        sessions.add(session);
      },
      onsessionclosed: (session) => {
        transports.delete(session);
        sessions.delete(session);
      },
    });
    await toolServer(calls, req.headers.authorization).connect(transport);
    await transport.handleRequest(req, res);
  });
  return { url: urlOf(http), calls, sessions, requests: countOf(http), close: closing(http) };
}

/** A server that completes the MCP handshake and lists a tool, then answers its call with bytes that are not JSON-RPC. */
export async function startMalformedUpstream(): Promise<McpUpstream> {
  const http = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST') return res.writeHead(405).end();
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) return res.writeHead(202).end();
    const answer = (result: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    if (message.method === 'initialize') return answer({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'broken', version: '1' } });
    if (message.method === 'tools/list') return answer({ tools: [{ name: 'garble', inputSchema: { type: 'object' } }] });
    res.writeHead(200, { 'content-type': 'application/json' }).end('<<< this is not JSON-RPC');
  });
  return { url: urlOf(http), calls: [], sessions: new Set(), requests: countOf(http), close: closing(http) };
}

/** The stateless upstream ({@link startMcpUpstream}) for the enclosing describe (or file): started before its tests, closed after. */
export function useMcpUpstream(): { readonly server: McpUpstream } {
  let server: McpUpstream | undefined;
  beforeAll(async () => {
    server = await startMcpUpstream();
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the MCP upstream is used before its beforeAll ran');
      return server;
    },
  };
}
