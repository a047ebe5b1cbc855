import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnectionTarget } from './mcp-registry.js';
import type { McpServing } from './mcp-serving.js';
import type { McpCaller, McpGatewaySettings, McpServerRef } from './mcp-types.js';

/**
 * The MCP protocol revision the gateway prefers; the SDK also accepts a client's earlier supported
 * ones. The SDK's `LATEST_PROTOCOL_VERSION`, written here so that reading it does not load the SDK
 * (a test keeps the two equal).
 */
export const mcpProtocolVersion = '2025-11-25';

/**
 * One MCP server over an organisation's registered ones (`McpServing` does the work), and the
 * model-side calls of Responses `mcp` tools and Messages `mcp_servers`. Stateless towards its
 * clients; towards upstream servers, one pooled session per server and credential. The MCP SDK
 * (with zod, ~6.6 MiB of heap) is imported by the first POST, not at start: a gateway whose
 * clients never call `/mcp` never loads it.
 */
export class McpGateway {
  private serving: Promise<McpServing> | undefined;

  constructor(private readonly settings: McpGatewaySettings) {}

  /** Answers one streamable-HTTP request of `caller` (POST JSON-RPC; GET and DELETE are 405: no sessions). */
  async handle(request: Request, caller: McpCaller): Promise<Response> {
    // Stateless with nothing to push: no standalone stream to GET, no session to DELETE (MCP allows 405 for both).
    if (request.method !== 'POST') return methodNotAllowed();
    return (await this.load()).handle(request, caller);
  }

  /** See {@link McpServing.modelServer}: the server a model request names. */
  async modelServer(caller: McpCaller, ref: McpServerRef): Promise<McpConnectionTarget> {
    return (await this.load()).modelServer(caller, ref);
  }

  /** See {@link McpServing.modelServerTools}. */
  async modelServerTools(target: McpConnectionTarget, caller: McpCaller): Promise<Tool[]> {
    return (await this.load()).modelServerTools(target, caller);
  }

  /** See {@link McpServing.modelToolCall}: a model's call, governed, limited, traced and recorded. */
  async modelToolCall(caller: McpCaller, target: McpConnectionTarget, tool: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    return (await this.load()).modelToolCall(caller, target, tool, args);
  }

  /** Ends every upstream session (shutdown); nothing to end when the SDK was never loaded. */
  async close(): Promise<void> {
    const serving = this.serving;
    this.serving = undefined;
    if (serving) await (await serving.catch(() => undefined))?.close();
  }

  /** The SDK's part, imported once (a failed import is tried again by the next request). */
  private load(): Promise<McpServing> {
    this.serving ??= import('./mcp-serving.js').then(
      ({ McpServing }) => new McpServing(this.settings),
      (error: unknown) => {
        this.serving = undefined;
        throw error;
      },
    );
    return this.serving;
  }
}

function methodNotAllowed(): Response {
  const body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP gateway is stateless; POST JSON-RPC messages to /mcp.' }, id: null };
  return new Response(JSON.stringify(body), { status: 405, headers: { allow: 'POST', 'content-type': 'application/json' } });
}
