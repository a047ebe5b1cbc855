import { type ChatMessage, type ChatRequest, invalidRequest, namespacedTool, toGatewayError } from '@svc/core';
import type { McpCaller } from '@svc/mcp';
import type { ChatJsonResponse } from '@svc/pipeline';
import { type DecodedResponsesRequest, type McpApprovalAnswer, type ResponseObject, type ResponseMeta, ResponseStreamEncoder, encodeResponse } from '@svc/protocol';
import { type ApprovedCall, type McpItemEvent, type McpLoopEnd, type McpLoopEvent, runMcpTools } from '../mcp-tools/mcp-tool-loop.js';
import type { StreamRound } from '../mcp-tools/mcp-streamed-round.js';
import type { McpModelTools } from '../mcp-tools/mcp-tool-set.js';

/** Keeps a finished response with the turns its tool rounds added; undefined with `store: false`. */
export type KeepWithTurns = ((response: ResponseObject, toolTurns: ChatMessage[]) => Promise<void>) | undefined;

/** A Responses request with `mcp` tools (or approval answers), ready to run. */
export interface McpResponseRun {
  decoded: DecodedResponsesRequest;
  request: ChatRequest;
  keep: KeepWithTurns;
  /** The output of the response this request continues (its approval requests), if any. */
  previousOutput: ResponseObject['output'] | undefined;
  gateway: McpModelTools;
  caller: McpCaller;
  /** One model round, answered whole. */
  chat(request: ChatRequest, round: number): Promise<ChatJsonResponse>;
  /** One model round, streamed (a streamed response streams every round's text). */
  stream: StreamRound;
  meta: Pick<ResponseMeta, 'id' | 'createdAt'>;
}

/** Whether a decoded request takes the MCP path: `mcp` tools, or answers to approval requests. */
export const usesMcpTools = (decoded: DecodedResponsesRequest): boolean => decoded.mcpTools.length > 0 || decoded.approvals.length > 0;

/** The approval requests of the continued response that `answers` answer, as the calls to run. */
function approvedCalls(answers: readonly McpApprovalAnswer[], previousOutput: ResponseObject['output'] | undefined): ApprovedCall[] {
  return answers.map((answer) => {
    const asked = previousOutput?.find((item) => item.type === 'mcp_approval_request' && item.id === answer.approvalRequestId);
    if (asked?.type !== 'mcp_approval_request') {
      throw invalidRequest(`No mcp_approval_request '${answer.approvalRequestId.slice(0, 64)}' in the response that previous_response_id names.`, 'input');
    }
    return { approvalRequestId: asked.id, name: namespacedTool(asked.server_label, asked.name), arguments: asked.arguments, approve: answer.approve, reason: answer.reason };
  });
}

function loopOf(run: McpResponseRun, streamed: boolean): AsyncGenerator<McpLoopEvent, McpLoopEnd> {
  return runMcpTools({
    request: run.request,
    mcpTools: run.decoded.mcpTools,
    approved: approvedCalls(run.decoded.approvals, run.previousOutput),
    gateway: run.gateway,
    caller: run.caller,
    chat: run.chat,
    ...(streamed ? { stream: run.stream } : {}),
  });
}

/** The `response` with its MCP items first, then the final round's output. */
function encodeWithItems(run: McpResponseRun, end: McpLoopEnd, items: McpItemEvent['item'][]): ResponseObject {
  const { response } = end;
  const body = encodeResponse(response.result, { ...run.meta, model: response.metadata.model ?? response.result.model, request: run.request, echo: run.decoded.echo, svcMetadata: response.metadata });
  const waiting = items.some((item) => item.type === 'mcp_approval_request');
  const rest = waiting ? body.output.filter((item) => item.type !== 'message' || item.content.some((part) => part.type !== 'output_text' || part.text !== '')) : body.output;
  body.output = [...items, ...rest];
  return body;
}

/** The whole `response` of a request with MCP tools, kept unless `store: false`; with the last round's headers. */
export async function mcpJsonResponse(run: McpResponseRun): Promise<{ body: ResponseObject; headers: Record<string, string> }> {
  const loop = loopOf(run, false);
  const items: McpItemEvent['item'][] = [];
  let step = await loop.next();
  for (; !step.done; step = await loop.next()) {
    const event = step.value;
    if (event.phase !== 'answer' && (event.phase === 'done' || event.item.type === 'mcp_approval_request')) items.push(event.item);
  }
  const body = encodeWithItems(run, step.value, items);
  await run.keep?.(body, step.value.turns);
  return { body, headers: step.value.response.headers };
}

/**
 * The Responses event stream of a request with MCP tools: each list and call as it happens
 * (`response.mcp_list_tools.*`, `response.mcp_call.*`), and every round's text token by token as
 * the provider sends it (a round's text before its calls is a message item before their items);
 * the last round's own tool calls and finish once it is whole, then the usage of every round.
 */
export async function* mcpStreamResponse(run: McpResponseRun): AsyncGenerator<string> {
  const encoder = new ResponseStreamEncoder({ ...run.meta, model: run.request.model, request: run.request, echo: run.decoded.echo });
  yield encoder.start();
  let end: McpLoopEnd;
  try {
    const loop = loopOf(run, true);
    let step = await loop.next();
    for (; !step.done; step = await loop.next()) yield frameOf(encoder, step.value);
    end = step.value;
  } catch (error) {
    yield encoder.error(toGatewayError(error));
    return;
  }
  const usage = end.response.result.usage;
  if (usage) encoder.event({ type: 'usage', usage });
  const last = encoder.end(end.response.metadata);
  if (encoder.finalResponse) await run.keep?.(encoder.finalResponse, end.turns);
  yield last;
}

function frameOf(encoder: ResponseStreamEncoder, event: McpLoopEvent): string {
  if (event.phase === 'answer') return encoder.event(event.event);
  return event.phase === 'started' ? encoder.mcpItemStarted(event.item) : encoder.mcpItemDone(event.item);
}
