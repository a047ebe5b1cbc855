import type { ChatMessage, ChatRequest, ChatResult, ContentPart } from '@svc/core';
import { assembleContext, createPiiRedactor, type RecalledMemory, type RecallOptions } from '@svc/memory';
import type { MemorySignals } from '@svc/router';

/** What the gateway needs of `@svc/memory`'s MemoryStore. */
export interface MemoryPort {
  remember(orgId: string, conversationId: string | undefined, text: string, role: string): boolean;
  recall(orgId: string, query: string, options?: RecallOptions): Promise<RecalledMemory[]>;
}

/** Default token budget of the injected memory message. */
export const MEMORY_TOKEN_BUDGET = 400;

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .filter((part): part is Extract<ContentPart, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** The text of the request's last user message: what memory is recalled for and stored from. */
export function lastUserText(request: ChatRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role === 'user') return textOf(message.content);
  }
  return '';
}

/**
 * Memories of the caller's organisation for this request (its conversation's when
 * `svc.conversation_id` is set), best first. Never rejects: a memory fault costs the request
 * its context, not its answer.
 */
export async function recallForRequest(memory: MemoryPort, request: ChatRequest, orgId: string, limit = 5): Promise<RecalledMemory[]> {
  const query = lastUserText(request);
  if (query.trim().length === 0) return [];
  const conversationId = request.svc?.conversationId;
  try {
    return await memory.recall(orgId, query, { limit, ...(conversationId ? { conversationId } : {}) });
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
 * The request with the memories assembled into one system message (within `tokenBudget`)
 * before its messages; the request itself when none fits. Whether to call it (mode `full`) is
 * the caller's decision.
 */
export function injectMemory(request: ChatRequest, memories: readonly RecalledMemory[], tokenBudget = MEMORY_TOKEN_BUDGET): ChatRequest {
  // The same sentence remembered many times is one memory: the best-ranked copy is kept.
  const seen = new Set<string>();
  const distinct = memories.filter((memory) => {
    const key = `${memory.role}\u0000${memory.text.trim().toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const context = assembleContext(distinct, tokenBudget);
  if (context.length === 0) return request;
  return { ...request, messages: [{ role: 'system', content: context }, ...request.messages] };
}

/**
 * Stores the last user message and the answer in the background, unless the caller sent
 * `svc.enable_memory: false`. Returns how many were queued.
 */
export function rememberExchange(memory: MemoryPort, request: ChatRequest, result: ChatResult, orgId: string): number {
  if (request.svc?.enableMemory === false) return 0;
  const conversationId = request.svc?.conversationId;
  let queued = 0;
  const question = lastUserText(request);
  if (question && memory.remember(orgId, conversationId, question, 'user')) queued++;
  const answer = result.choices[0]?.message.content;
  if (answer && memory.remember(orgId, conversationId, answer, 'assistant')) queued++;
  return queued;
}

/** Maps the original values back into an answer (see `@svc/memory`'s `Redaction.restore`). */
export type Restore = (text: string) => string;

function redactMessage(message: ChatMessage, redact: (text: string) => string): ChatMessage {
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
