import type { ChatMessage, ChatRequest } from '@svc/core';
import { maxTerms, scanText, type TextSignals, termBuckets } from './text-signals.js';

export { maxTerms, scanWindow, termBuckets } from './text-signals.js';

/** Cheap facts about a request, computed once per routing call. */
export interface RequestFeatures extends TextSignals {
  /** Characters of text content over every message. */
  totalChars: number;
  /** Estimated prompt tokens (about four characters per token, plus per-message overhead). */
  promptTokens: number;
  /** Characters of the last user message (what the model is asked now). */
  lastUserChars: number;
  /** User + assistant turns. */
  turns: number;
  hasSystem: boolean;
  tools: boolean;
  json: boolean;
  vision: boolean;
  audio: boolean;
  /** -1 minimal, -0.5 low, 0 unset/medium, 1 high. */
  reasoningEffort: number;
  /** `max_tokens` when given. */
  maxTokens: number | undefined;
}

function textOf(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (content === null) return '';
  let text = '';
  for (const part of content) if (part.type === 'text') text = text ? `${text}\n${part.text}` : part.text;
  return text;
}

/** Text of the last user message (text parts joined), what the router embeds and scans. */
export function lastUserText(request: ChatRequest): string {
  const { messages } = request;
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return textOf(messages[i]!);
  return '';
}

const effortValue = { minimal: -1, low: -0.5, medium: 0, high: 1 } as const;

/** Features with no text signal: what `extractFeatures(request, false)` scans. */
const noText = scanText('');

/** What the messages say without reading their text: lengths, turns, system prompt, media, the last user message. */
interface MessageShape {
  totalChars: number;
  turns: number;
  hasSystem: boolean;
  vision: boolean;
  audio: boolean;
  lastUserIndex: number;
}

function messageShape(messages: ChatRequest['messages']): MessageShape {
  const shape: MessageShape = { totalChars: 0, turns: 0, hasSystem: false, vision: false, audio: false, lastUserIndex: -1 };
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const { content } = message;
    if (message.role === 'system' || message.role === 'developer') shape.hasSystem = true;
    else if (message.role === 'user' || message.role === 'assistant') shape.turns++;
    if (message.role === 'user') shape.lastUserIndex = i;
    if (typeof content === 'string') shape.totalChars += content.length;
    else if (content !== null) {
      for (const part of content) {
        if (part.type === 'text') shape.totalChars += part.text.length;
        else if (part.type === 'image') shape.vision = true;
        else if (part.type === 'audio') shape.audio = true;
      }
    }
  }
  return shape;
}

/**
 * Extracts the routing features of a request. Reads every message's length but scans only the
 * last user message (head and tail within `scanWindow`), so the cost stays flat for long chats.
 * With `text` false (proxy mode) the text is not read at all: only the structural features are
 * set (lengths, turns, system prompt, tools/JSON, vision, audio, reasoning effort, max_tokens),
 * every text signal is zero.
 */
export function extractFeatures(request: ChatRequest, text = true): RequestFeatures {
  const { messages } = request;
  const { totalChars, turns, hasSystem, vision, audio, lastUserIndex } = messageShape(messages);
  const lastUser = lastUserIndex >= 0 ? textOf(messages[lastUserIndex]!) : '';
  // lastUser's length is structural; its content is read only by scanText.
  const s = text ? scanText(lastUser) : noText;
  const tools = (request.tools?.length ?? 0) > 0 && request.toolChoice !== 'none';
  const format = request.responseFormat?.type;
  const effort = request.reasoningEffort ?? request.reasoning?.effort;
  // One literal of a fixed shape: spreading the signals into it costs more than the scan of a short message.
  return {
    code: s.code,
    math: s.math,
    markup: s.markup,
    nonAscii: s.nonAscii,
    reasoningWords: s.reasoningWords,
    constraintWords: s.constraintWords,
    numbers: s.numbers,
    choices: s.choices,
    longWords: s.longWords,
    negations: s.negations,
    questionMarks: s.questionMarks,
    lines: s.lines,
    numericOptions: s.numericOptions,
    mathSymbols: s.mathSymbols,
    writingHits: s.writingHits,
    writingVerbs: s.writingVerbs,
    question: s.question,
    extractionHits: s.extractionHits,
    translationHits: s.translationHits,
    analysisHits: s.analysisHits,
    chatHits: s.chatHits,
    codeHits: s.codeHits,
    mathHits: s.mathHits,
    words: s.words,
    terms: s.terms,
    totalChars,
    promptTokens: Math.ceil(totalChars / 4) + 4 * messages.length + (tools ? 40 * (request.tools?.length ?? 0) : 0),
    lastUserChars: lastUser.length,
    turns,
    hasSystem,
    tools,
    json: format === 'json_object' || format === 'json_schema',
    vision,
    audio,
    reasoningEffort: effort ? effortValue[effort] : 0,
    maxTokens: request.maxTokens,
  };
}

/** Features set when the text is not read (proxy mode): bias, two lengths, turns, tools/JSON, vision, reasoning effort and the term count (0). */
export const structuralDimension = 8;

/** What the organisation's memory offered a request (`full` mode), for the memory features. */
export interface MemorySignals {
  /** Memories recalled for the request. */
  recalled: number;
  /** Score of the best one, 0..1 (similarity blended with recency). */
  topScore: number;
  /** Characters of recalled text. */
  chars: number;
  /** Whether any came from the request's own conversation. */
  sameConversation: boolean;
}

/** The memory features at the end of the dense block; zero outside `full` mode. */
export const memoryDimension = 4;

/** Dense, roughly unit-scaled features at the head of the vector; index 0 is the bias term. */
export const denseDimension = 21 + memoryDimension;

/** Length of the vector `toVector` produces: the dense features, a term count, then up to `maxTerms` term buckets. */
export const featureDimension = denseDimension + 1 + maxTerms;

/**
 * Features a decision is made on, by intelligence mode (document 1's table: 8, 392, 396): the
 * structural ones without the text (proxy), with the text and terms but no memory (cache), all (full).
 */
export const modeFeatureCount = { proxy: structuralDimension, cache: featureDimension - memoryDimension, full: featureDimension } as const;

/**
 * The vector the learned policy sees: `denseDimension` dense features (index 0 the bias), then at
 * `denseDimension` the number n of text terms, then n term buckets (integers below `termBuckets`);
 * entries past them are not read. Writes into `out` when given so the hot path allocates nothing.
 */
export function toVector(f: RequestFeatures, out: Float64Array = new Float64Array(featureDimension), memory?: MemorySignals): Float64Array {
  out[0] = 1;
  out[1] = Math.log1p(f.lastUserChars) / 9;
  out[2] = Math.log1p(f.totalChars) / 11;
  out[3] = Math.min(f.turns, 20) / 20;
  out[4] = f.code;
  out[5] = f.math;
  out[6] = f.markup;
  out[7] = f.tools || f.json ? 1 : 0;
  out[8] = f.vision ? 1 : 0;
  out[9] = f.nonAscii;
  out[10] = f.reasoningEffort;
  out[11] = f.reasoningWords;
  out[12] = f.constraintWords;
  out[13] = f.numbers;
  out[14] = f.choices ? 1 : 0;
  out[15] = f.longWords;
  out[16] = f.negations;
  out[17] = f.questionMarks;
  out[18] = f.lines;
  out[19] = f.numericOptions;
  out[20] = f.mathSymbols;
  out[21] = memory ? Math.min(memory.recalled, 10) / 10 : 0;
  out[22] = memory ? memory.topScore : 0;
  out[23] = memory ? Math.log1p(memory.chars) / 10 : 0;
  out[24] = memory?.sameConversation ? 1 : 0;
  const { terms } = f;
  const n = Math.min(terms.length, maxTerms, out.length - denseDimension - 1);
  out[denseDimension] = n;
  for (let i = 0; i < n; i++) out[denseDimension + 1 + i] = terms[i]! & (termBuckets - 1);
  return out;
}
