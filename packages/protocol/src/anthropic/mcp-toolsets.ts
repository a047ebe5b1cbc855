import { invalidRequest } from '@svc/core';
import * as v from 'valibot';
import type { ResponsesMcpTool } from '../responses/responses-request-schema.js';
import { type AnthropicCountTokensRequest, isMcpToolset, mcpServerSchema, mcpToolsetSchema } from './messages-request-schema.js';

type McpServer = v.InferOutput<typeof mcpServerSchema>;
type McpToolset = v.InferOutput<typeof mcpToolsetSchema>;

/** Which tools of a server an `mcp_toolset` offers: each listed tool's own `enabled`, else the default. */
export interface McpToolsetRule {
  enabledByDefault: boolean;
  enabled: Readonly<Record<string, boolean>>;
}

/** A remote MCP server as the gateway's MCP loop reads it: OpenAI's `mcp` tool, and an Anthropic toolset's rule. */
export type McpServerSpec = ResponsesMcpTool & { toolset?: McpToolsetRule };

/**
 * The rules of the `mcp-client-2025-11-20` form, checked on a body the schema accepted: each
 * `mcp_toolset` names a server of `mcp_servers`, no server is named twice, and once toolsets are
 * used every server has one and none keeps the older `tool_configuration`.
 *
 * @throws GatewayError 400 naming the offending toolset or server.
 */
export function checkMcpToolsets(wire: Pick<AnthropicCountTokensRequest, 'tools' | 'mcp_servers'>): void {
  const servers = wire.mcp_servers ?? [];
  const named = new Set<string>();
  (wire.tools ?? []).forEach((tool, index) => {
    if (!isMcpToolset(tool)) return;
    const param = `tools.${index}.mcp_server_name`;
    if (!servers.some((server) => server.name === tool.mcp_server_name)) throw invalidRequest(`Invalid '${param}': '${tool.mcp_server_name}' is not the name of a server in mcp_servers.`, param);
    if (named.has(tool.mcp_server_name)) throw invalidRequest(`Invalid '${param}': the server '${tool.mcp_server_name}' already has an mcp_toolset; give each server one.`, param);
    named.add(tool.mcp_server_name);
  });
  if (named.size === 0) return;
  servers.forEach((server, index) => {
    if (!named.has(server.name)) throw invalidRequest(`Invalid 'mcp_servers.${index}': the server '${server.name}' has no mcp_toolset in tools; with toolsets every server needs one.`, `mcp_servers.${index}`);
    if (server.tool_configuration != null) {
      const param = `mcp_servers.${index}.tool_configuration`;
      throw invalidRequest(`Invalid '${param}': with mcp_toolset (mcp-client-2025-11-20) a server's tools are chosen by its toolset, not tool_configuration.`, param);
    }
  });
}

/**
 * The `mcp_servers` of a Messages body that `decodeMessagesRequest` accepted, as the gateway's MCP
 * tools (OpenAI's `mcp` tool shape): the server's `name` labels it, its `authorization_token` is
 * sent as a bearer token, and no call waits for approval (Messages has none). Its tools are those
 * its `mcp_toolset` enables, or with the older form those `tool_configuration.allowed_tools`
 * lists; a server with `tool_configuration.enabled: false` is left out.
 */
export function mcpServersOf(body: unknown): McpServerSpec[] {
  const wire = v.parse(mcpBodySchema, body);
  const toolsets = new Map<string, McpToolset>();
  for (const tool of wire.tools ?? []) if (isMcpToolset(tool)) toolsets.set(tool.mcp_server_name, tool);
  return (wire.mcp_servers ?? []).flatMap((server) => {
    if (server.tool_configuration?.enabled === false) return [];
    const toolset = toolsets.get(server.name);
    return [toolset ? { ...serverTool(server), toolset: toolsetRule(toolset) } : serverTool(server)];
  });
}

function serverTool(server: McpServer): ResponsesMcpTool {
  const tool: ResponsesMcpTool = { type: 'mcp', server_label: server.name, server_url: server.url, require_approval: 'never' };
  if (server.authorization_token != null) tool.authorization = server.authorization_token;
  if (server.tool_configuration?.allowed_tools != null) tool.allowed_tools = server.tool_configuration.allowed_tools;
  return tool;
}

function toolsetRule(toolset: McpToolset): McpToolsetRule {
  const enabled: Record<string, boolean> = {};
  for (const [name, config] of Object.entries(toolset.configs ?? {})) if (config.enabled != null) enabled[name] = config.enabled;
  return { enabledByDefault: toolset.default_config?.enabled ?? true, enabled };
}

const toolEntry = v.lazy((input) => (isMcpToolset(input) ? mcpToolsetSchema : v.unknown()));
const mcpBodySchema = v.object({ mcp_servers: v.nullish(v.array(mcpServerSchema)), tools: v.nullish(v.array(toolEntry)) });
