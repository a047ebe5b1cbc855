import { type Caller, type ChatResult, batchLineRequestId, batchRequestId, chatCompletionId, isProviderError, randomId, toGatewayError } from '@svc/core';
import type { AnsweredBatchLine, BatchLineRecord, BatchRecord } from '@svc/db';
import { type Exchange, type NativeLinePlan, type OrgProviders, type UnitStageDeps, planNativeLine, recordNativeLine, resolveIntelligenceMode } from '@svc/pipeline';
import { decodeChatRequest, decodeMessagesRequest, encodeChatCompletion, encodeMessagesResponse, mcpServersOf } from '@svc/protocol';
import type { NativeBatchLine } from '@svc/providers';

/** The endpoints whose lines may go to a provider's own batch API: chat, as OpenAI's and Anthropic's batch APIs take it. */
export const NATIVE_ENDPOINTS: readonly string[] = ['/v1/chat/completions', '/v1/messages'];

/**
 * The upstream `custom_id` of a line: its number and its part's id (unique, and within every
 * provider's custom id rules: Anthropic's `^[a-zA-Z0-9_-]{1,64}$`). The part id lets a Message
 * Batch found by listing (a lost submission) be confirmed as the part's by its results.
 */
export const upstreamId = (line: number, part: string) => `line-${line}-${part}`;

/** The line and part an upstream custom id names; `part` is undefined for `line-N` (a part submitted by a release before the part id). */
export function lineOfUpstreamId(id: string): { line: number; part: string | undefined } | undefined {
  const match = /^line-(\d+)(?:-(nb_[A-Za-z0-9]+))?$/.exec(id);
  return match ? { line: Number(match[1]), part: match[2] } : undefined;
}

/** The line's request decoded as its endpoint decodes it; undefined when it does not decode (the gateway's path answers its 400). */
function decodeLine(endpoint: string, body: Record<string, unknown>) {
  try {
    if (endpoint === '/v1/messages') return mcpServersOf(body).length > 0 ? undefined : decodeMessagesRequest(body);
    return decodeChatRequest(body);
  } catch {
    return undefined;
  }
}

/** How the line goes to its provider's batch API, or undefined when the gateway runs it. */
export function planLine(deps: Pick<UnitStageDeps, 'catalog'>, org: OrgProviders, caller: Caller, endpoint: string, line: Pick<BatchLineRecord, 'body'>) {
  const request = decodeLine(endpoint, line.body);
  const plan = request && planNativeLine(deps, org, caller, request);
  return plan && request ? { plan, requested: request.model, metadata: request.metadata } : undefined;
}

export type PlannedLine = NonNullable<ReturnType<typeof planLine>>;

/** The exchange a native line is recorded under: the batch's key, the line's request id (as on the gateway's path), tagged with the batch. */
function lineExchange(caller: Caller, batch: BatchRecord, line: number, metadata: Record<string, string> | undefined): Exchange {
  return {
    caller,
    requestId: batchLineRequestId(batch.id, line),
    startedAt: performance.now(),
    signal: AbortSignal.timeout(60_000),
    mode: resolveIntelligenceMode(undefined, undefined, caller.org.defaultIntelligenceMode),
    tags: { ...metadata, batch_id: batch.id },
  };
}

/** The answered line's body in its endpoint's shape. */
function answerBody(endpoint: string, result: ChatResult, model: string, metadata: ReturnType<typeof recordNativeLine>): object {
  if (endpoint === '/v1/messages') return encodeMessagesResponse(result, { id: `msg_${randomId(24)}`, model, svcMetadata: metadata });
  return encodeChatCompletion(result, { id: chatCompletionId(), created: Math.floor(Date.now() / 1000), model, svcMetadata: metadata }).body;
}

/** What reading a native line gave: its answer to record (and its bill), or `retry` (a failure another model may not have: the gateway runs it), or `not_run`. */
export type NativeOutcome = { kind: 'answer'; answer: Omit<AnsweredBatchLine, 'customId'>; tokens: number; costUsd: number } | { kind: 'retry' } | { kind: 'not_run' };

/**
 * Reads one result line for its request: an answer is recorded as the gateway's path records one
 * (a ledger row at the batch price, the same request id and tags) and answered in the endpoint's
 * shape; a refusal the gateway could not have avoided (400, 404...) is the line's error.
 */
export function readNativeLine(deps: UnitStageDeps, context: { caller: Caller; batch: BatchRecord; line: BatchLineRecord; planned: PlannedLine }, result: NativeBatchLine): NativeOutcome {
  const { caller, batch, line, planned } = context;
  const { plan } = planned;
  let answered: ChatResult | undefined;
  try {
    answered = result.read(plan.request);
  } catch (error) {
    if (isProviderError(error) && error.retryable) return { kind: 'retry' };
    const failure = toGatewayError(error);
    const requestId = batchLineRequestId(batch.id, line.line);
    return { kind: 'answer', tokens: 0, costUsd: 0, answer: { line: line.line, statusCode: failure.status, result: { id: batchRequestId(), custom_id: line.customId, response: { status_code: failure.status, request_id: requestId, body: { error: failure.toBody() } }, error: null } } };
  }
  if (!answered) return { kind: 'not_run' };
  const exchange = lineExchange(caller, batch, line.line, planned.metadata);
  const metadata = recordNativeLine(deps, exchange, { model: plan.model, byok: plan.byok, requestedModel: planned.requested, result: answered });
  const body = answerBody(batch.endpoint, answered, plan.model.id, metadata);
  const tokens = (answered.usage?.promptTokens ?? 0) + (answered.usage?.completionTokens ?? 0);
  const response = { status_code: 200, request_id: exchange.requestId, body };
  return { kind: 'answer', tokens, costUsd: plan.byok ? 0 : (metadata.cost_usd ?? 0), answer: { line: line.line, statusCode: 200, result: { id: batchRequestId(), custom_id: line.customId, response, error: null } } };
}

export type { NativeLinePlan };
