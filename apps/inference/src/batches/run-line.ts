import { requireScope } from '@svc/auth';
import { type Caller, batchLineRequestId, batchRequestId, invalidRequest, randomId, toGatewayError } from '@svc/core';
import type { AnsweredBatchLine, BatchLineRecord } from '@svc/db';
import { type EmbedDeps, type Exchange, resolveIntelligenceMode } from '@svc/pipeline';
import { type BatchEndpoint, decodeChatRequest, decodeMessagesRequest, encodeMessagesResponse, mcpServersOf } from '@svc/protocol';
import { chatCompletionBody } from '../routes/chat-completions.js';
import { embeddingsAnswer } from '../routes/embeddings.js';
import { type ResponsesDeps, answerResponse } from '../routes/responses.js';

/** What a batch line's request needs from the app: the chat gateway, the kept responses and the embed stage's deps. */
export type LineDeps = ResponsesDeps & EmbedDeps;

/** The exchange of one line: the batch's key as caller, the line's request id, the organisation's mode unless the body sets one. */
function lineExchange(line: LineOf, requestId: string, signal: AbortSignal, bodyMode?: Exchange['mode']): Exchange {
  const { caller, batchId } = line;
  return { caller, requestId, startedAt: performance.now(), signal, mode: resolveIntelligenceMode(undefined, bodyMode, caller.org.defaultIntelligenceMode), background: true, budgetHeld: line.budgetHeld, tags: { batch_id: batchId } };
}

/** Whose line runs and in which batch: its ledger rows carry the tag `batch_id`. */
export interface LineOf {
  caller: Caller;
  batchId: string;
  endpoint: LineEndpoint;
  /** The batch holds its budget (its hold is not ended): the line's estimate is counted, not checked against the budget again. */
  budgetHeld: boolean;
}

/** The endpoints a stored batch's lines call: OpenAI's, and Anthropic's Messages (Message Batches). */
export type LineEndpoint = BatchEndpoint | '/v1/messages';

/** An Anthropic Messages body through the chat gateway, answered as the `message`. */
async function answerMessage(deps: LineDeps, body: Record<string, unknown>, exchange: (mode?: Exchange['mode']) => Exchange): Promise<object> {
  const request = decodeMessagesRequest(body);
  if (mcpServersOf(body).length > 0) throw invalidRequest('MCP servers are served on the interactive endpoint only, not in batches.', 'mcp_servers');
  request.stream = false;
  const context = exchange(request.svc?.intelligenceMode);
  requireScope(context.caller, 'inference:chat');
  const response = await deps.gateway.chat(request, context);
  if (response.kind !== 'json') throw new Error('a non-stream messages request was answered as a stream');
  return encodeMessagesResponse(response.result, { id: `msg_${randomId(24)}`, model: response.metadata.model ?? response.result.model, svcMetadata: response.metadata });
}

/** The body a line's request is answered with, through the same stages as the interactive endpoint. */
async function answer(deps: LineDeps, endpoint: LineEndpoint, body: Record<string, unknown>, exchange: (mode?: Exchange['mode']) => Exchange): Promise<object> {
  if (endpoint === '/v1/messages') return answerMessage(deps, body, exchange);
  if (endpoint === '/v1/responses') {
    requireScope(exchange().caller, 'inference:chat');
    return answerResponse(deps, body, exchange);
  }
  if (endpoint === '/v1/embeddings') {
    const context = exchange();
    requireScope(context.caller, 'inference:embeddings');
    return (await embeddingsAnswer(deps, body, context)).body;
  }
  const request = decodeChatRequest(body);
  // A batch line is answered whole: a `stream` flag is not honoured.
  request.stream = false;
  const context = exchange(request.svc?.intelligenceMode);
  requireScope(context.caller, 'inference:chat');
  const response = await deps.gateway.chat(request, context);
  if (response.kind !== 'json') throw new Error('a non-stream chat request was answered as a stream');
  return chatCompletionBody(response);
}

/**
 * Runs one line of a batch as the key that submitted it, through the pipeline (limits, budgets,
 * routing, fallback, the ledger: one ledger row per line), into its output line in OpenAI's
 * shape: `{id, custom_id, response: {status_code, request_id, body}, error: null}`; a refusal is
 * the endpoint's error body with its status. Every attempt at a line has the same request id, so
 * a line run again after a crash keeps one ledger row: the last attempt's, whose answer is kept.
 */
export async function runBatchLine(deps: LineDeps, of: LineOf, line: BatchLineRecord, signal: AbortSignal): Promise<Omit<AnsweredBatchLine, 'customId'>> {
  const requestId = batchLineRequestId(of.batchId, line.line);
  let statusCode = 200;
  let body: object;
  try {
    body = await answer(deps, of.endpoint, line.body, (mode) => lineExchange(of, requestId, signal, mode));
  } catch (thrown) {
    const error = toGatewayError(thrown);
    statusCode = error.status;
    body = { error: error.toBody() };
  }
  const result = { id: batchRequestId(), custom_id: line.customId, response: { status_code: statusCode, request_id: requestId, body }, error: null };
  return { line: line.line, statusCode, result };
}
