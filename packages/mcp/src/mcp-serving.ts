import { setMaxListeners } from 'node:events';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type CallToolRequest, CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, eitherSignal, leftByClient, namespacedTool, splitToolName } from '@svc/core';
import { blockReason } from '@svc/governance';
import { type McpFetch, guardedFetch } from './guarded-fetch.js';
import { McpCallError, upstreamFailure } from './mcp-call-error.js';
import { type McpConnectionTarget, toolAccess } from './mcp-registry.js';
import type { McpCaller, McpGatewaySettings, McpServerRef } from './mcp-types.js';
import { type UpstreamSettings, callUpstreamTool, createUpstreamPool, listUpstreamTools } from './upstream-client.js';
import { checkMcpUrl } from './url-check.js';

/** An upstream session unused this long is ended, ms (at least twice the operation timeout). */
const sessionIdleMs = 60_000;
/** Upstream sessions kept at most per instance. */
const maxUpstreamSessions = 256;

/**
 * The MCP gateway's work, loaded with the MCP SDK on the first POST (`McpGateway`). One MCP server over an organisation's registered ones: `tools/list` merges their tools as
 * `<server>__<tool>` (only those exposed and not blocked by name), `tools/call` checks the
 * organisation's tool governance and forwards to the server, each call a span and a ledger row.
 * Stateless towards its clients (every HTTP request is served by a fresh server); towards the
 * upstream servers, one pooled session per server and credential.
 */
export class McpServing {
  private readonly fetch: McpFetch;
  /** One session per upstream server and credential, reused by every list and call. */
  readonly sessions: ReturnType<typeof createUpstreamPool>;

  constructor(private readonly settings: McpGatewaySettings) {
    this.fetch = guardedFetch({ policy: settings.policy, maxResponseBytes: settings.maxResponseBytes, ...(settings.resolve ? { resolve: settings.resolve } : {}) });
    this.sessions = createUpstreamPool({ fetch: this.fetch, timeoutMs: settings.timeoutMs, idleMs: Math.max(sessionIdleMs, 2 * settings.timeoutMs), maxSessions: maxUpstreamSessions });
  }

  /** Ends every upstream session (shutdown). */
  close(): Promise<void> {
    return this.sessions.close();
  }

  /** Answers one streamable-HTTP POST of `caller` (JSON-RPC). */
  async handle(request: Request, caller: McpCaller): Promise<Response> {
    const server = new Server({ name: 'svc-gateway', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.listTools(caller) }));
    server.setRequestHandler(CallToolRequestSchema, (call) => this.callTool(caller, call.params));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: this.settings.maxRequestBytes });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  }

  /**
   * Runs one upstream operation with its settings: its timeout, and the caller's client leaving
   * when it has a signal (followed only while the operation runs: a caller's signal may outlive
   * many calls, a batch line's carries the batch worker's).
   */
  private async upstream<T>(caller: McpCaller | undefined, operation: (settings: UpstreamSettings) => Promise<T>): Promise<T> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const either = caller?.signal ? eitherSignal(timeout, caller.signal) : undefined;
    try {
      return await operation({ fetch: this.fetch, signal: either?.signal ?? timeout, timeoutMs: this.settings.timeoutMs });
    } finally {
      either?.release();
    }
  }

  private async listTools(caller: McpCaller): Promise<Tool[]> {
    const [targets, governance] = await Promise.all([this.settings.registry.connections(caller.orgId, caller.keyId), this.settings.governance.get(caller.orgId)]);
    // One deadline and one listener on the caller's signal for the whole list, however many servers it asks.
    const lists = await this.upstream(caller, (settings) => {
      // Each server's list listens on the shared signal while it runs: bounded by the servers, not a leak.
      setMaxListeners(Math.max(10, targets.length * 4), settings.signal);
      return Promise.all(
        targets.map(async (target) => {
          try {
            const tools = await listUpstreamTools(this.sessions, target, settings);
            return tools.filter((tool) => toolAccess(target, tool.name) === 'exposed').map((tool) => ({ ...tool, name: namespacedTool(target.name, tool.name) }));
          } catch (error) {
            // A list stopped by the client's leaving is no failure of the server.
            if (!caller.signal || !leftByClient(caller.signal)) this.settings.onListFailure(upstreamFailure(error, target.name), caller.orgId);
            return [];
          }
        }),
      );
    });
    return lists.flat().filter((tool) => !governance.active || governance.nameBlock(tool.name) === undefined);
  }

  /**
   * The server a model request names (Responses `mcp` tool, Messages `mcp_servers`): with a `url`,
   * that URL (checked like a registration, and again at every connection) with the request's
   * headers, held to the organisation's registration of that URL if it has one (its exposed tools
   * and key rules); without one, the organisation's registered server `label` if the caller's key may reach it.
   * @throws McpCallError `tool_not_found` (no such registered server), `tool_not_allowed` or `mcp_url_refused`.
   */
  async modelServer(caller: McpCaller, ref: McpServerRef): Promise<McpConnectionTarget> {
    if (ref.url !== undefined) {
      try {
        checkMcpUrl(ref.url, this.settings.policy);
      } catch (error) {
        throw upstreamFailure(error, ref.label);
      }
      const headers = ref.headers ?? {};
      const registered = await this.settings.registry.registeredUrl(caller.orgId, caller.keyId, ref.url);
      if (registered && !registered.reachable) {
        throw new McpCallError('tool_not_allowed', `This key may not use the MCP server '${ref.label}': the organisation registered its URL as '${registered.target.name}' for other keys only.`);
      }
      return { name: ref.label, url: ref.url, tools: registered?.target.tools ?? null, withheld: registered?.target.withheld ?? new Set(), headers: () => headers };
    }
    const target = (await this.settings.registry.connections(caller.orgId, caller.keyId)).find((entry) => entry.name === ref.label);
    if (!target) throw new McpCallError('tool_not_found', `No MCP server '${ref.label}' is registered for this key's organisation: give server_url, or register the server.`);
    return target;
  }

  /** The tools `target` lists and exposes (a registration's `tools`), for `caller`. @throws McpCallError */
  async modelServerTools(target: McpConnectionTarget, caller: McpCaller): Promise<Tool[]> {
    try {
      const tools = await this.upstream(caller, (settings) => listUpstreamTools(this.sessions, target, settings));
      return tools.filter((tool) => toolAccess(target, tool.name) === 'exposed');
    } catch (error) {
      throw upstreamFailure(error, target.name);
    }
  }

  /**
   * Runs the model's call of `tool` on `target` as `/mcp` runs a call: the organisation's tool
   * policy on `<server>__<tool>`, the caller's request limits, a span and a ledger row.
   * @throws McpCallError
   */
  modelToolCall(caller: McpCaller, target: McpConnectionTarget, tool: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const name = namespacedTool(target.name, tool);
    const access = toolAccess(target, tool);
    if (access !== 'exposed') return Promise.reject(accessError(access, target.name, tool, name));
    return this.recorded(caller, name, () => this.governedCall(caller, { target, tool, name, args }));
  }

  private callTool(caller: McpCaller, params: CallToolRequest['params']): Promise<CallToolResult> {
    return this.recorded(caller, params.name, () => this.forward(caller, params));
  }

  /** Runs `call` as the tool call `name` of `caller`: a span, then a ledger row whatever happens. */
  private async recorded(caller: McpCaller, name: string, call: () => Promise<CallToolResult>): Promise<CallToolResult> {
    const started = performance.now();
    const span = caller.span?.child('mcp tools/call', 'client', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'mcp.method.name': 'tools/call' });
    let failure: McpCallError | undefined;
    try {
      return await call();
    } catch (error) {
      // Upstream failures arrive as McpCallError (forward); anything else failed here (the store, the policy).
      failure = error instanceof McpCallError ? error : new McpCallError('internal_error', 'The gateway could not serve this tool call; retry later.');
      throw failure;
    } finally {
      span?.set({ 'svc.mcp.status': failure?.status ?? 200 });
      span?.end(failure);
      const latencyMs = Math.round(performance.now() - started);
      this.settings.onToolCall({ id: `mcp_${crypto.randomUUID()}`, orgId: caller.orgId, keyId: caller.keyId, tool: name, status: failure?.status ?? 200, failure: failure?.failure, latencyMs });
    }
  }

  /** The target and tool `name` stands for, when the organisation exposes it to the caller's key. */
  private async resolveTool(caller: McpCaller, name: string): Promise<{ target: McpConnectionTarget; tool: string }> {
    const parts = splitToolName(name);
    const target = parts ? (await this.settings.registry.connections(caller.orgId, caller.keyId)).find((entry) => entry.name === parts.server) : undefined;
    if (!parts || !target) throw accessError('hidden', '', '', name);
    const access = toolAccess(target, parts.tool);
    if (access !== 'exposed') throw accessError(access, target.name, parts.tool, name);
    return { target, tool: parts.tool };
  }

  private async forward(caller: McpCaller, params: CallToolRequest['params']): Promise<CallToolResult> {
    const { target, tool } = await this.resolveTool(caller, params.name);
    return this.governedCall(caller, { target, tool, name: params.name, args: params.arguments });
  }

  /** The tool policy on `name`, the caller's limits, then the call. */
  private async governedCall(caller: McpCaller, call: { target: McpConnectionTarget; tool: string; name: string; args: Record<string, unknown> | undefined }): Promise<CallToolResult> {
    const governance = await this.settings.governance.get(caller.orgId);
    const reason = blockReason({ id: caller.requestId, name: call.name, arguments: JSON.stringify(call.args ?? {}) }, governance);
    if (reason) throw new McpCallError('tool_call_blocked', `The call to '${call.name}' is blocked by the organisation's tool policy (${reason}).`);
    await admit(caller);
    try {
      return await this.upstream(caller, (settings) => callUpstreamTool(this.sessions, call.target, settings, call.tool, call.args));
    } catch (error) {
      if (caller.signal && leftByClient(caller.signal)) throw new McpCallError('client_closed_request', `The client left before MCP server '${call.target.name}' answered; the call was stopped.`);
      throw upstreamFailure(error, call.target.name);
    }
  }
}

/** Counts the call against the caller's request limits; a refusal is the MCP error `rate_limited` with its retry delay. */
async function admit(caller: McpCaller): Promise<void> {
  try {
    await caller.admitToolCall?.();
  } catch (error) {
    if (!(error instanceof GatewayError) || error.status !== 429) throw error;
    throw new McpCallError('rate_limited', error.message, { retry_after_seconds: Number(error.headers['retry-after'] ?? 1) });
  }
}

/** A call of a tool the caller's key may not use: `tool_not_found` when it is not exposed, `tool_not_allowed` when it is exposed to other keys only. */
function accessError(access: 'hidden' | 'withheld', server: string, tool: string, name: string): McpCallError {
  if (access === 'withheld') {
    return new McpCallError('tool_not_allowed', `This key may not use the tool '${name}': the organisation allows '${tool}' of MCP server '${server}' to other keys only (the registration's tool_key_ids).`);
  }
  return new McpCallError('tool_not_found', `No tool '${name}' for this key: tools are named <server>__<tool> after the organisation's registered MCP servers; tools/list names those this key may call.`);
}
