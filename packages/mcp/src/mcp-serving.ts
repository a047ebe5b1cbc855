import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type CallToolRequest, CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError } from '@svc/core';
import { blockReason } from '@svc/governance';
import { type McpFetch, guardedFetch } from './guarded-fetch.js';
import { McpCallError, upstreamFailure } from './mcp-call-error.js';
import type { McpConnectionTarget } from './mcp-registry.js';
import type { McpCaller, McpGatewaySettings } from './mcp-types.js';
import { namespacedTool, splitToolName } from './tool-names.js';
import { type UpstreamSettings, callUpstreamTool, listUpstreamTools } from './upstream-client.js';

/**
 * The MCP gateway's work, loaded with the MCP SDK on the first POST (`McpGateway`). One MCP server over an organisation's registered ones: `tools/list` merges their tools as
 * `<server>__<tool>` (only those exposed and not blocked by name), `tools/call` checks the
 * organisation's tool governance and forwards to the server, each call a span and a ledger row.
 * Stateless: every HTTP request is served by a fresh server and fresh upstream connections.
 */
export class McpServing {
  private readonly fetch: McpFetch;

  constructor(private readonly settings: McpGatewaySettings) {
    this.fetch = guardedFetch({ policy: settings.policy, maxResponseBytes: settings.maxResponseBytes, ...(settings.resolve ? { resolve: settings.resolve } : {}) });
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

  private upstream(): UpstreamSettings {
    return { fetch: this.fetch, signal: AbortSignal.timeout(this.settings.timeoutMs), timeoutMs: this.settings.timeoutMs };
  }

  private async listTools(caller: McpCaller): Promise<Tool[]> {
    const [targets, governance] = await Promise.all([this.settings.registry.connections(caller.orgId, caller.keyId), this.settings.governance.get(caller.orgId)]);
    const lists = await Promise.all(
      targets.map(async (target) => {
        try {
          const tools = await listUpstreamTools(target, this.upstream());
          return tools.filter((tool) => target.tools === null || target.tools.includes(tool.name)).map((tool) => ({ ...tool, name: namespacedTool(target.name, tool.name) }));
        } catch (error) {
          this.settings.onListFailure(upstreamFailure(error, target.name), caller.orgId);
          return [];
        }
      }),
    );
    return lists.flat().filter((tool) => !governance.active || governance.nameBlock(tool.name) === undefined);
  }

  private async callTool(caller: McpCaller, params: CallToolRequest['params']): Promise<CallToolResult> {
    const started = performance.now();
    const span = caller.span?.child('mcp tools/call', 'client', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': params.name, 'mcp.method.name': 'tools/call' });
    let failure: McpCallError | undefined;
    try {
      return await this.forward(caller, params);
    } catch (error) {
      // Upstream failures arrive as McpCallError (forward); anything else failed here (the store, the policy).
      failure = error instanceof McpCallError ? error : new McpCallError('internal_error', 'The gateway could not serve this tool call; retry later.');
      throw failure;
    } finally {
      span?.set({ 'svc.mcp.status': failure?.status ?? 200 });
      span?.end(failure);
      const latencyMs = Math.round(performance.now() - started);
      this.settings.onToolCall({ id: `mcp_${crypto.randomUUID()}`, orgId: caller.orgId, keyId: caller.keyId, tool: params.name, status: failure?.status ?? 200, failure: failure?.failure, latencyMs });
    }
  }

  /** The target and tool `name` stands for, when the organisation exposes it to the caller's key. */
  private async resolveTool(caller: McpCaller, name: string): Promise<{ target: McpConnectionTarget; tool: string }> {
    const parts = splitToolName(name);
    const target = parts ? (await this.settings.registry.connections(caller.orgId, caller.keyId)).find((entry) => entry.name === parts.server) : undefined;
    if (!parts || !target || (target.tools !== null && !target.tools.includes(parts.tool))) {
      throw new McpCallError('tool_not_found', `No tool '${name}' for this key: tools are named <server>__<tool> after the organisation's registered MCP servers; tools/list names those this key may call.`);
    }
    return { target, tool: parts.tool };
  }

  private async forward(caller: McpCaller, params: CallToolRequest['params']): Promise<CallToolResult> {
    const { target, tool } = await this.resolveTool(caller, params.name);
    const governance = await this.settings.governance.get(caller.orgId);
    const reason = blockReason({ id: caller.requestId, name: params.name, arguments: JSON.stringify(params.arguments ?? {}) }, governance);
    if (reason) throw new McpCallError('tool_call_blocked', `The call to '${params.name}' is blocked by the organisation's tool policy (${reason}).`);
    await admit(caller);
    try {
      return await callUpstreamTool(target, this.upstream(), tool, params.arguments);
    } catch (error) {
      throw upstreamFailure(error, target.name);
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
