import type { McpGateway } from '@svc/mcp';

type CallToolResult = Awaited<ReturnType<McpGateway['modelToolCall']>>;

/** Longest tool output fed back to the model and reported in `mcp_call.output`, characters. */
const maxOutputChars = 100_000;

/**
 * A tool result as the text the model reads and `mcp_call.output` reports: the text parts
 * joined, any other part (image, resource, structured content) as its JSON.
 */
export function callOutputText(result: CallToolResult): string {
  const parts = result.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part)));
  const text = parts.length > 0 ? parts.join('\n') : result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '';
  return text.length > maxOutputChars ? text.slice(0, maxOutputChars) : text;
}
