import type { Caller, ChatMessage, ChatRequest, ChatResult, MemoryReport } from '@svc/core';
import { type MemoryScope, type MemoryStore, type RecalledMemory, type RecallScope, approximateTokens, assembleContext, createPiiRedactor, memoryScopeOf } from '@svc/memory';
import { type MemorySignals, lastUserText } from '@svc/router';
import type { CachePartition } from './cache-stage.js';

/** What the gateway needs of `@svc/memory`'s MemoryStore. */
export type MemoryPort = Pick<MemoryStore, 'remember' | 'recall'>;

/** Default token budget of the injected memory message. */
export const MEMORY_TOKEN_BUDGET = 400;

/** The text of the request's last user message: what memory is recalled for and stored from (the router's one rule). */
export { lastUserText };

/**
 * Where one request's memory lives: it stores into the caller's scope (their end user, else their
 * key), recalls from it (or from the whole organisation when the organisation opted in), and its
 * answers are cached only for the audience whose memory they may hold.
 */
export interface RequestMemory {
  scope: MemoryScope;
  recall: RecallScope;
  partition: CachePartition;
}

/**
 * The request's memory scope, decided once from the caller, the end user (the edge's `endUser`,
 * else the request's own `user`) and the conversation.
 */
export function requestMemory(request: ChatRequest, caller: Caller, endUser: string | undefined): RequestMemory {
  const orgId = caller.org.id;
  const conversationId = request.svc?.conversationId;
  const scope = memoryScopeOf({ orgId, keyId: caller.keyId, endUser: endUser ?? request.user, conversationId });
  if (caller.org.memoryScope === 'organization') {
    return { scope, recall: { orgId, ...(conversationId !== undefined ? { conversationId } : {}) }, partition: { orgId } };
  }
  return { scope, recall: scope, partition: { orgId, audience: scope.subject } };
}

/**
 * The caller's facts relevant to this request, best first. Never rejects: a memory fault costs the
 * request its context, not its answer.
 */
export async function recallForRequest(memory: MemoryPort, request: ChatRequest, scope: RecallScope, limit = 5): Promise<RecalledMemory[]> {
  const query = lastUserText(request);
  if (query.trim().length === 0) return [];
  try {
    return await memory.recall(scope, query, { limit });
  } catch {
    return [];
  }
}

/** What the recalled memories offer the router (its four memory features, `full` mode). */
export function memorySignals(memories: readonly RecalledMemory[], conversationId: string | undefined): MemorySignals {
  let topScore = 0;
  let chars = 0;
  let sameConversation = false;
  for (const memory of memories) {
    if (memory.score > topScore) topScore = memory.score;
    chars += memory.text.length;
    if (conversationId !== undefined && memory.conversationId === conversationId) sameConversation = true;
  }
  return { recalled: memories.length, topScore, chars, sameConversation };
}

/**
 * The request with the recalled facts assembled into one system message (within `tokenBudget`)
 * before its messages, and what was injected; the request itself (and nothing injected, not even
 * an empty message) when none fits. Whether to call it (mode `full`) is the caller's decision.
 */
export function injectMemory(request: ChatRequest, memories: readonly RecalledMemory[], tokenBudget = MEMORY_TOKEN_BUDGET): { request: ChatRequest; report: MemoryReport } {
  const context = assembleContext(memories, tokenBudget);
  if (context.length === 0) return { request, report: { injected: 0, tokens: 0 } };
  const injected = context.split('\n').length - 1;
  return {
    request: { ...request, messages: [{ role: 'system', content: context }, ...request.messages] },
    report: { injected, tokens: approximateTokens(context) },
  };
}

/**
 * Stores the facts the end user stated in the request's last message (never the assistant's
 * answer), in the background, unless the caller sent `svc.enable_memory: false`; PII is redacted
 * first when the request asked for it. Returns how many facts were queued.
 */
export function rememberRequest(memory: MemoryPort, request: ChatRequest, scope: MemoryScope): number {
  if (request.svc?.enableMemory === false) return 0;
  const said = lastUserText(request);
  return said ? memory.remember(scope, said, { redactPii: request.svc?.redactPii === true }) : 0;
}

/** Maps the original values back into an answer (see `@svc/memory`'s `Redaction.restore`). */
export type Restore = (text: string) => string;

/** `message` with `redact` applied to its text (string content and text parts). */
export function redactMessage(message: ChatMessage, redact: (text: string) => string): ChatMessage {
  const { content } = message;
  if (typeof content === 'string') return { ...message, content: redact(content) };
  if (!content) return message;
  return { ...message, content: content.map((part) => (part.type === 'text' ? { ...part, text: redact(part.text) } : part)) };
}

/**
 * The request with emails, phone numbers, cards, IBANs, API keys and IPs in its message texts
 * (and tool-call arguments) replaced by placeholders, one numbering across all messages, and the
 * function that restores them. Callers apply it when `svc.redact_pii` is true.
 */
export function redactRequest(request: ChatRequest): { request: ChatRequest; restore: Restore; redacted: number } {
  const redactor = createPiiRedactor();
  const messages = request.messages.map((message) => {
    const redacted = redactMessage(message, redactor.redact);
    return message.toolCalls
      ? { ...redacted, toolCalls: message.toolCalls.map((call) => ({ ...call, arguments: redactor.redact(call.arguments) })) }
      : redacted;
  });
  const redacted = Object.values(redactor.counts).reduce((sum, n) => sum + n, 0);
  return { request: redacted === 0 ? request : { ...request, messages }, restore: redactor.restore, redacted };
}

/**
 * The answer with placeholders put back in its text and refusals. Tool-call arguments keep
 * their placeholders: a restored value could break the JSON the tool receives, and the caller's
 * own tool code sees exactly what the model produced.
 */
export function restoreResult(result: ChatResult, restore: Restore): ChatResult {
  return {
    ...result,
    choices: result.choices.map((choice) => ({
      ...choice,
      message: {
        ...choice.message,
        content: choice.message.content === null ? null : restore(choice.message.content),
        ...(choice.message.refusal !== undefined ? { refusal: restore(choice.message.refusal) } : {}),
      },
    })),
  };
}
