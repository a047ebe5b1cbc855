import { type ChatRequest, randomId, toGatewayError } from '@svc/core';
import type { McpCaller } from '@svc/mcp';
import type { ChatJsonResponse } from '@svc/pipeline';
import { type AnthropicMcpBlock, type AnthropicMessage, MessagesStreamEncoder, type McpServerSpec, encodeMessagesResponse } from '@svc/protocol';
import { type McpLoopEnd, type McpLoopEvent, runMcpTools } from '../mcp-tools/mcp-tool-loop.js';
import type { McpModelTools } from '../mcp-tools/mcp-tool-set.js';
import type { StreamRound } from '../mcp-tools/mcp-streamed-round.js';

/** A Messages request with `mcp_servers`, ready to run. */
export interface McpMessagesRun {
  request: ChatRequest;
  servers: McpServerSpec[];
  gateway: McpModelTools;
  caller: McpCaller;
  /** One model round, answered whole. */
  chat(request: ChatRequest, round: number): Promise<ChatJsonResponse>;
  /** One model round, streamed (a streamed message streams every round's text). */
  stream: StreamRound;
  id: string;
  requestId: string;
}

/** A finished `mcp_call` as Anthropic reports it: the `mcp_tool_use` block and its `mcp_tool_result`. */
function blocksOf(event: McpLoopEvent): AnthropicMcpBlock[] {
  if (event.phase !== 'done' || event.item.type !== 'mcp_call') return [];
  const { item } = event;
  const id = `mcptoolu_${randomId(24)}`;
  let input: unknown = {};
  try {
    input = JSON.parse(item.arguments === '' ? '{}' : item.arguments);
  } catch {
    input = {};
  }
  const text = item.output ?? item.error ?? '';
  return [
    { type: 'mcp_tool_use', id, name: item.name, server_name: item.server_label, input },
    { type: 'mcp_tool_result', tool_use_id: id, is_error: item.status === 'failed', content: [{ type: 'text', text }] },
  ];
}

function loopOf(run: McpMessagesRun, streamed: boolean): AsyncGenerator<McpLoopEvent, McpLoopEnd> {
  return runMcpTools({ request: run.request, mcpTools: run.servers, approved: [], gateway: run.gateway, caller: run.caller, chat: run.chat, ...(streamed ? { stream: run.stream } : {}) });
}

/**
 * The whole `message` of a request with `mcp_servers`: an `mcp_tool_use` and an
 * `mcp_tool_result` block per call the gateway ran, then the final round's content.
 */
export async function mcpMessagesJson(run: McpMessagesRun): Promise<{ body: AnthropicMessage; headers: Record<string, string> }> {
  const loop = loopOf(run, false);
  const blocks: AnthropicMcpBlock[] = [];
  let step = await loop.next();
  for (; !step.done; step = await loop.next()) blocks.push(...blocksOf(step.value));
  const { response } = step.value;
  const body = encodeMessagesResponse(response.result, { id: run.id, model: response.metadata.model ?? response.result.model, svcMetadata: response.metadata });
  body.content = [...blocks, ...body.content];
  return { body, headers: response.headers };
}

/**
 * The Messages event stream of a request with `mcp_servers`: every round's text token by token as
 * the provider sends it, each call's blocks once it is done, the last round's own tool calls once
 * it is whole, then the usage of every round.
 */
export async function* mcpMessagesStream(run: McpMessagesRun): AsyncGenerator<string> {
  const encoder = new MessagesStreamEncoder({ id: run.id, model: run.request.model });
  yield encoder.start();
  let end: McpLoopEnd;
  try {
    const loop = loopOf(run, true);
    let step = await loop.next();
    for (; !step.done; step = await loop.next()) yield framesOf(encoder, step.value);
    end = step.value;
  } catch (error) {
    yield encoder.error(toGatewayError(error), run.requestId);
    return;
  }
  const usage = end.response.result.usage;
  if (usage) encoder.event({ type: 'usage', usage });
  yield encoder.end(end.response.metadata);
}

function framesOf(encoder: MessagesStreamEncoder, event: McpLoopEvent): string {
  if (event.phase === 'answer') return encoder.event(event.event);
  return blocksOf(event)
    .map((block) => encoder.mcpBlock(block))
    .join('');
}
