/**
 * Between an MCP server's name and its tool's at the gateway (`search__query`), wherever a tool is
 * named: the `/mcp` server, the model's function tools, replayed `mcp_call` items. Server names hold no `_`.
 */
export const toolSeparator = '__';

/** The gateway's name of `tool` on `server`. */
export function namespacedTool(server: string, tool: string): string {
  return `${server}${toolSeparator}${tool}`;
}

/** The server and tool a gateway tool name stands for; undefined when it has no separator. */
export function splitToolName(name: string): { server: string; tool: string } | undefined {
  const at = name.indexOf(toolSeparator);
  if (at <= 0) return undefined;
  return { server: name.slice(0, at), tool: name.slice(at + toolSeparator.length) };
}
