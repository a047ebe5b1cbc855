import { type ChatMessage, type ChatRequest, invalidRequest, namespacedTool, toGatewayError } from '@svc/core';
import type { McpCaller } from '@svc/mcp';
import { type ChatJsonResponse, replayStream } from '@svc/pipeline';
import { type DecodedResponsesRequest, type McpApprovalAnswer, type ResponseObject, type ResponseMeta, ResponseStreamEncoder, encodeResponse } from '@svc/protocol';
import { type ApprovedCall, type McpLoopEnd, type McpLoopEvent, runMcpTools } from '../mcp-tools/mcp-tool-loop.js';
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

function loopOf(run: McpResponseRun): AsyncGenerator<McpLoopEvent, McpLoopEnd> {
  return runMcpTools({
    request: run.request,
    mcpTools: run.decoded.mcpTools,
    approved: approvedCalls(run.decoded.approvals, run.previousOutput),
    gateway: run.gateway,
    caller: run.caller,
    chat: run.chat,
  });
}

/** The `response` with its MCP items first, then the final round's output. */
function encodeWithItems(run: McpResponseRun, end: McpLoopEnd, items: McpLoopEvent['item'][]): ResponseObject {
  const { response } = end;
  const body = encodeResponse(response.result, { ...run.meta, model: response.metadata.model ?? response.result.model, request: run.request, echo: run.decoded.echo, svcMetadata: response.metadata });
  const waiting = items.some((item) => item.type === 'mcp_approval_request');
  const rest = waiting ? body.output.filter((item) => item.type !== 'message' || item.content.some((part) => part.type !== 'output_text' || part.text !== '')) : body.output;
  body.output = [...items, ...rest];
  return body;
}

/** The whole `response` of a request with MCP tools, kept unless `store: false`; with the last round's headers. */
export async function mcpJsonResponse(run: McpResponseRun): Promise<{ body: ResponseObject; headers: Record<string, string> }> {
  const loop = loopOf(run);
  const items: McpLoopEvent['item'][] = [];
  let step = await loop.next();
  for (; !step.done; step = await loop.next()) {
    if (step.value.phase === 'done' || step.value.item.type === 'mcp_approval_request') items.push(step.value.item);
  }
  const body = encodeWithItems(run, step.value, items);
  await run.keep?.(body, step.value.turns);
  return { body, headers: step.value.response.headers };
}

/**
 * The Responses event stream of a request with MCP tools: each list and call as it happens
 * (`response.mcp_list_tools.*`, `response.mcp_call.*`), then the final answer's events; the
 * rounds run whole, so the answer's text arrives once the last round is done.
 */
export async function* mcpStreamResponse(run: McpResponseRun): AsyncGenerator<string> {
  const encoder = new ResponseStreamEncoder({ ...run.meta, model: run.request.model, request: run.request, echo: run.decoded.echo });
  yield encoder.start();
  let end: McpLoopEnd;
  try {
    const loop = loopOf(run);
    let step = await loop.next();
    for (; !step.done; step = await loop.next()) {
      yield step.value.phase === 'started' ? encoder.mcpItemStarted(step.value.item) : encoder.mcpItemDone(step.value.item);
    }
    end = step.value;
  } catch (error) {
    yield encoder.error(toGatewayError(error));
    return;
  }
  for (const event of replayStream(end.response.result, end.response.result.usage)) yield encoder.event(event);
  const last = encoder.end(end.response.metadata);
  if (encoder.finalResponse) await run.keep?.(encoder.finalResponse, end.turns);
  yield last;
}
