import type { ChatMessage, ChatRequest } from '@svc/core';
import { normaliseText, parameterClass, scopeHash } from './scope.js';

/** Bounds of what the semantic cache serves (defaults in brackets). */
export interface EligibilityOptions {
  /** Most user turns in the conversation [3]. Earlier turns must match exactly (they are in the scope). */
  maxUserTurns?: number;
  /** Longest final user message, the embedded text, in characters [2000]. */
  maxPromptChars?: number;
  /** Longest system prompt plus earlier turns, in characters [8000]. */
  maxContextChars?: number;
}

/** What a semantic lookup compares: the final question, and the scope it may be answered within. */
export interface SemanticKey {
  /** The final user message, whitespace collapsed; this is what gets embedded. */
  text: string;
  /** {@link scopeHash} of the model, parameters, system prompt and earlier turns. */
  scope: string;
}

/** Text of a message, or undefined when it holds anything but text (images, audio, files). */
function textOf(message: ChatMessage): string | undefined {
  if (message.content === null) return '';
  if (typeof message.content === 'string') return message.content;
  let text = '';
  for (const part of message.content) {
    if (part.type !== 'text') return undefined;
    text += (text ? '\n' : '') + part.text;
  }
  return text;
}

/**
 * Why a request may not be answered from the semantic cache, or undefined when it may.
 *
 * Served: text-only chats of at most `maxUserTurns` user turns that end with a user message,
 * without tools, tool turns or logprobs, with `enable_cache` not false. The final user
 * message is compared by meaning; the system prompt, earlier turns, model and parameter class
 * are compared exactly (through the scope), because a paraphrase of the question is the same
 * question only under the same instructions.
 */
export function semanticIneligibility(request: ChatRequest, options: EligibilityOptions = {}): string | undefined {
  return keyOrReason(request, options).reason;
}

/** Whether the semantic cache may answer `request` ({@link semanticIneligibility} is the why). */
export function semanticEligible(request: ChatRequest, options: EligibilityOptions = {}): boolean {
  return keyOrReason(request, options).key !== undefined;
}

/** The key of an eligible request, or undefined. */
export function semanticKeyOf(request: ChatRequest, options: EligibilityOptions = {}): SemanticKey | undefined {
  return keyOrReason(request, options).key;
}

function keyOrReason(request: ChatRequest, options: EligibilityOptions): { key?: SemanticKey; reason?: string } {
  const maxUserTurns = options.maxUserTurns ?? 3;
  const maxPromptChars = options.maxPromptChars ?? 2000;
  const maxContextChars = options.maxContextChars ?? 8000;
  if (request.svc?.enableCache === false) return { reason: 'enable_cache is false' };
  if ((request.tools?.length ?? 0) > 0) return { reason: 'tools' };
  if (request.logprobs) return { reason: 'logprobs' };
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return { reason: 'does not end with a user message' };
  const system: string[] = [];
  const history: string[] = [];
  let userTurns = 0;
  let contextChars = 0;
  for (const message of request.messages) {
    if (message.role === 'tool' || (message.toolCalls?.length ?? 0) > 0) return { reason: 'tool turns' };
    const text = textOf(message);
    if (text === undefined) return { reason: 'non-text content' };
    if (message.role === 'user') userTurns++;
    if (message === last) break;
    const normalised = normaliseText(text);
    contextChars += normalised.length;
    if (message.role === 'system' || message.role === 'developer') system.push(normalised);
    else history.push(`${message.role}: ${normalised}`);
  }
  if (userTurns > maxUserTurns) return { reason: `more than ${maxUserTurns} user turns` };
  if (contextChars > maxContextChars) return { reason: `system prompt and history longer than ${maxContextChars} characters` };
  const text = (textOf(last) ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return { reason: 'empty question' };
  if (text.length > maxPromptChars) return { reason: `question longer than ${maxPromptChars} characters` };
  return { key: { text, scope: scopeHash(parameterClass(request, system.join('\n'), history.join('\n'))) } };
}
