import { type ToolDefinition, namespacedTool } from '@svc/core';
import type { McpCaller, McpConnectionTarget, McpGateway } from '@svc/mcp';
import { type McpListToolsItem, type McpServerSpec, type McpToolFilter, type ResponsesMcpTool, randomItemId } from '@svc/protocol';

/** What the model-side MCP loop needs of the MCP gateway. */
export type McpModelTools = Pick<McpGateway, 'modelServer' | 'modelServerTools' | 'modelToolCall'>;

/** One MCP tool offered to the model as the function `<server_label>__<tool>`. */
export interface OfferedMcpTool {
  label: string;
  tool: string;
  target: McpConnectionTarget;
  /** The request's `require_approval` asks the caller before this tool runs. */
  needsApproval: boolean;
}

/** The request's MCP servers as the model sees them: function tools, and what each name runs. */
export interface McpToolSet {
  definitions: ToolDefinition[];
  byName: Map<string, OfferedMcpTool>;
}

const matches = (filter: McpToolFilter | null | undefined, tool: string): boolean => filter?.tool_names?.includes(tool) ?? false;

/**
 * `require_approval` (default `always`, as OpenAI's): whether `tool` waits for the caller. With
 * filters, a tool named in `never` runs, one named in `always` waits, and the others wait unless
 * an `always` filter was given (it then lists every tool that waits).
 */
export function needsApproval(spec: ResponsesMcpTool, tool: string): boolean {
  const rule = spec.require_approval ?? 'always';
  if (typeof rule === 'string') return rule === 'always';
  if (matches(rule.never, tool)) return false;
  return matches(rule.always, tool) || rule.always == null;
}

/** Whether `tool` is offered: enabled by the server's toolset (Anthropic's `mcp_toolset`) and named by `allowed_tools`. */
function allowed(spec: McpServerSpec, tool: string): boolean {
  if (spec.toolset && !(spec.toolset.enabled[tool] ?? spec.toolset.enabledByDefault)) return false;
  const rule = spec.allowed_tools;
  if (rule == null) return true;
  return Array.isArray(rule) ? rule.includes(tool) : matches(rule, tool) || rule.tool_names == null;
}

/** The headers a `server_url` tool sends: its `headers`, and `authorization` as a bearer token. */
function requestHeaders(spec: ResponsesMcpTool): Record<string, string> {
  const headers: Record<string, string> = { ...(spec.headers ?? {}) };
  if (spec.authorization != null) headers['authorization'] = `Bearer ${spec.authorization}`;
  return headers;
}

/**
 * Lists one `mcp` tool's server: the `mcp_list_tools` item (with `error` when it could not be
 * listed: the model then answers without its tools) and the tools it offers to the model.
 */
export async function listMcpServer(gateway: McpModelTools, caller: McpCaller, spec: McpServerSpec, id = randomItemId('mcpl')): Promise<{ item: McpListToolsItem; offered: OfferedMcpTool[] }> {
  const label = spec.server_label;
  const item: McpListToolsItem = { type: 'mcp_list_tools', id, server_label: label, tools: [], error: null };
  try {
    const ref = spec.server_url == null ? { label } : { label, url: spec.server_url, headers: requestHeaders(spec) };
    const target = await gateway.modelServer(caller, ref);
    const tools = (await gateway.modelServerTools(target, caller)).filter((tool) => allowed(spec, tool.name));
    item.tools = tools.map((tool) => ({ name: tool.name, description: tool.description ?? null, input_schema: tool.inputSchema, annotations: tool.annotations ?? null }));
    return { item, offered: tools.map((tool) => ({ label, tool: tool.name, target, needsApproval: needsApproval(spec, tool.name) })) };
  } catch (error) {
    item.error = error instanceof Error ? error.message : String(error);
    return { item, offered: [] };
  }
}

/** The function tools of `offered` (schemas and descriptions as the servers listed them) and what each name runs. */
export function toolSetOf(items: readonly McpListToolsItem[], offered: readonly OfferedMcpTool[]): McpToolSet {
  const byName = new Map(offered.map((entry) => [namespacedTool(entry.label, entry.tool), entry]));
  const definitions = items.flatMap((item) =>
    item.tools.map((tool) => ({ name: namespacedTool(item.server_label, tool.name), ...(tool.description !== null ? { description: tool.description } : {}), parameters: tool.input_schema })),
  );
  return { definitions, byName };
}
