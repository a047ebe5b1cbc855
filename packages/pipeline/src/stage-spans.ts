import type { ModelInfo } from '@svc/catalog';
import type { SpanAttributes, TraceSpan } from '@svc/telemetry';
import type { CacheMiss } from './chat/cache-stage.js';
import type { CallPlan } from './chat/call-plan.js';
import type { ChatTurn } from './chat/chat-turn.js';
import { type Ending, finish } from './chat/finish.js';
import type { Outbound } from './chat/outbound.js';
import type { ChatJsonResponse, ChatResponse } from './gateway-types.js';
import type { LearnRecorder } from './learn/learn-records.js';

/**
 * The spans of a request's stages (docs/operations.md, Observability): INTERNAL children of the
 * request's span, named `svc.stage.<stage>`, each ended with the attributes its stage decided or
 * with the error it threw. With tracing off the request has no span (`Exchange.trace` is
 * undefined): {@link stageSpan} returns undefined and {@link traced} hands back the stage's own
 * promise, so a stage costs one property read and nothing is allocated.
 */
export type StageName =
  | 'svc.stage.route'
  | 'svc.stage.cache'
  | 'svc.stage.memory'
  | 'svc.stage.plan'
  | 'svc.stage.answer'
  | 'svc.stage.stream'
  | 'svc.stage.finish'
  | 'svc.stage.admit'
  | 'svc.stage.call';

/** A stage's span, started now as a child of `trace`; undefined when the request is not traced. */
export function stageSpan(trace: TraceSpan | undefined, name: StageName): TraceSpan | undefined {
  return trace?.child(name, 'internal');
}

/**
 * `work`, ending `span` once it settles: with `describe(value, context)`, or with its error. No
 * span: `work` itself (not a wrapper). `describe` is a module-level function, never a closure, so
 * an untraced request allocates nothing here.
 */
export function traced<T, C>(span: TraceSpan | undefined, work: Promise<T>, describe: (value: T, context: C) => SpanAttributes, context: C): Promise<T> {
  if (!span) return work;
  return work.then(
    (value) => {
      span.set(describe(value, context));
      span.end();
      return value;
    },
    (error: unknown) => {
      span.end(error);
      throw error;
    },
  );
}

/** Governance, routing, admission, switches and memory scope: what `openTurn` decided. */
export function routeAttributes(turn: ChatTurn): SpanAttributes {
  const { decision, request, exchange } = turn;
  return {
    'gen_ai.request.model': request.model,
    'svc.route.model': decision.model.id,
    'svc.route.tier': decision.tier,
    'svc.route.lane': decision.lane,
    'svc.route.source': decision.source,
    'svc.route.task_family': decision.taskFamily,
    'svc.route.waterfall': decision.waterfall.length,
    'svc.intelligence_mode': exchange.mode,
    'svc.governance': turn.governance !== undefined,
    'svc.memory.scoped': turn.memory !== undefined,
    'svc.switches.shed': turn.shed.length,
  };
}

/** `svc.cache.result`: `hit` (with its type), `miss`, or `off` when the stage did not look. */
export function cacheAttributes(found: { response: ChatResponse } | { miss: CacheMiss | undefined }): SpanAttributes {
  if ('response' in found) {
    const { headers } = found.response;
    const similarity = headers['x-svc-semantic-similarity'];
    return { 'svc.cache.result': 'hit', 'svc.cache.type': headers['x-svc-cache-type'] ?? 'exact', ...(similarity ? { 'svc.cache.similarity': Number(similarity) } : {}) };
  }
  if (!found.miss) return { 'svc.cache.result': 'off' };
  return { 'svc.cache.result': 'miss', 'svc.cache.exact': found.miss.exactKey !== undefined, 'svc.cache.semantic': found.miss.semantic !== undefined };
}

/** Redaction, memory recall and injection, and the route memory settled on. */
export function memoryAttributes(outbound: Outbound, turn: ChatTurn): SpanAttributes {
  const attributes: SpanAttributes = { 'svc.redacted': outbound.restore !== undefined, 'svc.route.model': turn.decision.model.id, 'svc.route.tier': turn.decision.tier };
  if (outbound.memory) {
    attributes['svc.memory.injected'] = outbound.memory.injected;
    attributes['svc.memory.tokens'] = outbound.memory.tokens;
  }
  return attributes;
}

/** The waterfall's settings: attempts, hedging, the organisation's own keys. */
export function planAttributes(plan: CallPlan): SpanAttributes {
  return { 'svc.call.max_attempts': plan.settings.maxAttempts, 'svc.call.hedging': plan.settings.hedging?.enabled === true, 'svc.byok': plan.own !== undefined };
}

/** A JSON answer: the model that answered and its usage. */
export function answerAttributes(response: ChatJsonResponse): SpanAttributes {
  const usage = response.result.usage;
  return {
    'gen_ai.response.model': response.metadata.model ?? response.headers['x-svc-model'] ?? '',
    ...(usage ? { 'gen_ai.usage.input_tokens': usage.promptTokens, 'gen_ai.usage.output_tokens': usage.completionTokens } : {}),
  };
}

/** A stream, once its first event arrived: the model the waterfall reached. */
export function openedAttributes(opened: { model: ModelInfo }): SpanAttributes {
  return { 'gen_ai.response.model': opened.model.id, 'gen_ai.provider.name': opened.model.provider };
}

/** Admission of a non-chat request against the organisation's limits: the tokens it was estimated at. */
export function admitAttributes(_reservation: unknown, estimatedTokens: number): SpanAttributes {
  return { 'svc.admit.estimated_tokens': estimatedTokens };
}

/** An embeddings call through its candidates: the model asked for and the one that answered. */
export function embeddingAttributes(answered: { model: ModelInfo; result: { usage: { promptTokens: number } } }, requested: string): SpanAttributes {
  const { model, result } = answered;
  return {
    'gen_ai.operation.name': 'embeddings',
    'gen_ai.request.model': requested,
    'gen_ai.response.model': model.id,
    'gen_ai.provider.name': model.provider,
    'gen_ai.usage.input_tokens': result.usage.promptTokens,
  };
}

/**
 * {@link finish} in a `svc.stage.finish` span when the request is traced: the outcome, the usage
 * and the cost the ledger row and the decision got.
 */
export function tracedFinish(recorder: LearnRecorder, turn: ChatTurn, ending: Ending): ReturnType<typeof finish> {
  const span = stageSpan(turn.exchange.trace, 'svc.stage.finish');
  if (!span) return finish(recorder, turn, ending);
  try {
    const metadata = finish(recorder, turn, ending);
    span.set(finishAttributes(ending));
    span.end();
    return metadata;
  } catch (error) {
    span.end(error);
    throw error;
  }
}

/** What the finish span reports: the outcome, the model that answered, its usage and cost (a hit: the cached model, cost 0). */
function finishAttributes(ending: Ending): SpanAttributes {
  if (ending.kind === 'cached') {
    const usage = ending.usage;
    return {
      'svc.outcome': 'ok',
      'svc.cache.result': 'hit',
      'gen_ai.response.model': ending.hit.answer.model,
      ...(usage ? { 'gen_ai.usage.input_tokens': usage.promptTokens, 'gen_ai.usage.output_tokens': usage.completionTokens } : {}),
      'svc.cost_usd': 0,
    };
  }
  const usage = ending.spent.usage;
  return {
    'svc.outcome': ending.outcome,
    'gen_ai.response.model': ending.model.id,
    'svc.stream': ending.stream,
    ...(usage ? { 'gen_ai.usage.input_tokens': usage.promptTokens, 'gen_ai.usage.output_tokens': usage.completionTokens } : {}),
    ...(ending.spent.cost ? { 'svc.cost_usd': ending.spent.cost.costUsd } : {}),
  };
}
