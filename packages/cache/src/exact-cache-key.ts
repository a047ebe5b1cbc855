import { hash } from 'node:crypto';
import type { ChatMessage, ChatRequest, SvcOptions } from '@svc/core';
import { canonicalEncoding } from './canonical-encoding.js';

/** Cache policy knobs of {@link exactCacheKey}. */
export interface ExactCacheKeyOptions {
  /**
   * Cache requests that ask for sampling (`temperature > 0`) without a `seed` (the organisation
   * opted in: it accepts that a repeated prompt gets the first answer again). Default false.
   * Never extends to `n > 1`, which is cached only when deterministic.
   */
  allowNonDeterministic?: boolean;
  /**
   * Who inside the organisation may share the entry (a memory scope in intelligence mode `full`,
   * where an answer may hold what one end user told the gateway); absent: the whole organisation.
   */
  audience?: string;
}

/** Why {@link exactCacheKey} declined a request. */
export type UncacheableReason =
  /** `logprobs` or `top_logprobs` asked for: the answer is about this one sampling. */
  | 'logprobs'
  /** `n > 1` without `temperature: 0` or a `seed`: the caller asked for several samples. */
  | 'multiple_choices'
  /** `temperature > 0` without a `seed`, and the organisation did not opt in. */
  | 'non_deterministic';

/**
 * What each request field does to the key. `keyed` fields change the answer (or the model
 * chosen for it) and are hashed; `ignored` ones do not, so e.g. a streamed and a non-streamed
 * request share an entry. Typed against `ChatRequest`, so a field added to core does not
 * compile until it is decided here.
 */
const requestFields = {
  model: 'keyed',
  messages: 'keyed',
  n: 'keyed',
  maxTokens: 'keyed',
  temperature: 'keyed',
  topP: 'keyed',
  frequencyPenalty: 'keyed',
  presencePenalty: 'keyed',
  stop: 'keyed',
  seed: 'keyed',
  logprobs: 'keyed',
  topLogprobs: 'keyed',
  tools: 'keyed',
  toolChoice: 'keyed',
  parallelToolCalls: 'keyed',
  responseFormat: 'keyed',
  reasoningEffort: 'keyed',
  reasoning: 'keyed',
  // A cost-oriented routing hint: it can change the model.
  serviceTier: 'keyed',
  routingHints: 'keyed',
  routingOverride: 'keyed',
  // Only the members listed in `svcFields` below.
  svc: 'keyed',
  stream: 'ignored',
  includeUsage: 'ignored',
  user: 'ignored',
  metadata: 'ignored',
  // Whether the caller lets the request be kept (shadow judging): it does not change the answer.
  store: 'ignored',
  // An answer is never served to a request that did not allow the model that gave it.
  models: 'keyed',
} as const satisfies Record<keyof ChatRequest, 'keyed' | 'ignored'>;

/** The `svc` block: what steers routing or rewrites the prompt is keyed; ids and toggles are not. */
const svcFields = {
  workflowType: 'keyed',
  planningMode: 'keyed',
  reliabilityLevel: 'keyed',
  outputVerification: 'keyed',
  // Redaction changes what the provider sees.
  redactPii: 'keyed',
  voiceMode: 'keyed',
  chainId: 'ignored',
  conversationId: 'ignored',
  maxChainSteps: 'ignored',
  chainTimeoutSecs: 'ignored',
  enableMemory: 'ignored',
  enableSpeculation: 'ignored',
  enableHedging: 'ignored',
  enableCache: 'ignored',
  intelligenceMode: 'ignored',
  // How long the caller waits says nothing about the answer.
  timeoutMs: 'ignored',
} as const satisfies Record<keyof SvcOptions, 'keyed' | 'ignored'>;

const keyedRequestFields = keysOf(requestFields);
const keyedSvcFields = keysOf(svcFields);
const optionalBlocks = ['svc', 'routingHints', 'routingOverride', 'reasoning'] as const;

/** Bumped whenever the canonical form changes, so old L1 entries are never read as new ones. */
const KEY_FORMAT = 'exact/1';
/** Length of a base64url SHA-256 digest. */
const DIGEST_LENGTH = 43;

/**
 * The exact-cache key of `request` for `orgId`, or undefined when the request must not be
 * cached (see {@link uncacheableReason}).
 *
 * The key is `<orgId>:<sha256, base64url>` over a canonical encoding (sorted keys at every
 * depth) of every field that changes the answer, and of the organisation, so entries are never
 * shared across organisations and logically equal requests share one entry whatever their JSON
 * key order. `stream`, `stream_options.include_usage`, `user`, `metadata` and the `svc` ids and
 * toggles are left out. A content array holding one text part keys like that text, and `stop`
 * is a set. Tool-call arguments in the history are hashed as the text they are.
 */
export function exactCacheKey(request: ChatRequest, orgId: string, options: ExactCacheKeyOptions = {}): string | undefined {
  if (uncacheableReason(request, options) !== undefined) return undefined;
  const keyed: Record<string, unknown> = { format: KEY_FORMAT, org: orgId };
  if (options.audience !== undefined) keyed.audience = options.audience;
  for (const field of keyedRequestFields) if (request[field] !== undefined) keyed[field] = request[field];
  keyed.messages = request.messages.map(canonicalMessage);
  keyed.stop = request.stop && request.stop.length > 0 ? [...request.stop].sort() : undefined;
  keyed.svc = request.svc && pick(request.svc, keyedSvcFields);
  // An empty block says nothing: `routing_hints: {}` keys like no hints at all.
  for (const field of optionalBlocks) if (isEmpty(keyed[field])) keyed[field] = undefined;
  return `${orgId}:${hash('sha256', canonicalEncoding(keyed), 'base64url')}`;
}

/** The organisation a key of {@link exactCacheKey} belongs to; undefined for anything else. */
export function orgOfExactKey(key: string): string | undefined {
  const separator = key.length - DIGEST_LENGTH - 1;
  return separator >= 0 && key.charCodeAt(separator) === 58 /* ':' */ ? key.slice(0, separator) : undefined;
}

/**
 * Why a request must not be cached, or undefined when it may be. A request without
 * `temperature` counts as deterministic enough: it stated no wish for variety, and
 * `enable_cache: false` opts it out. Requests whose answer is a tool call are cacheable.
 */
export function uncacheableReason(request: ChatRequest, options: ExactCacheKeyOptions = {}): UncacheableReason | undefined {
  if (request.logprobs === true || (request.topLogprobs ?? 0) > 0) return 'logprobs';
  const deterministic = request.temperature === 0 || request.seed !== undefined;
  if (request.n > 1) return deterministic ? undefined : 'multiple_choices';
  const sampled = request.temperature !== undefined && request.temperature > 0;
  if (sampled && request.seed === undefined && options.allowNonDeterministic !== true) return 'non_deterministic';
  return undefined;
}

function canonicalMessage(message: ChatMessage): ChatMessage {
  const { content } = message;
  if (Array.isArray(content) && content.length === 1 && content[0]!.type === 'text') {
    return { ...message, content: content[0]!.text };
  }
  return message;
}

function keysOf<T extends string>(table: Record<T, 'keyed' | 'ignored'>): T[] {
  return (Object.keys(table) as T[]).filter((key) => table[key] === 'keyed');
}

function isEmpty(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const member of Object.values(value)) if (member !== undefined) return false;
  return true;
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) picked[key] = value[key];
  return picked;
}
