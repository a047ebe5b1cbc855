import { type ChatMessage, type ChatRequest, type TextPart, invalidRequest } from '@svc/core';
import { readJson } from '@svc/inference';
import { type RequestFeatures, classify, extractFeatures } from '@svc/router';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';

/**
 * Most text one call classifies, in characters (the prompt, or the text of every message).
 * The classifier only scans the head and tail of the last user message, so more text would buy
 * nothing but work on a public, unauthenticated endpoint.
 */
export const maxClassifyChars = 100_000;

const role = v.picklist(['system', 'developer', 'user', 'assistant', 'tool'], 'must be one of system, developer, user, assistant, tool');
/** A content part: `text` parts need a string `text`; other part types are accepted and ignored. */
const part = v.pipe(
  v.looseObject({ type: v.string('must be a string'), text: v.optional(v.unknown()) }),
  v.forward(
    v.partialCheck([['type'], ['text']], (p) => p.type !== 'text' || typeof p.text === 'string', 'must be a string'),
    ['text'],
  ),
);
const message = v.looseObject({
  role,
  content: v.nullish(v.union([v.string(), v.array(part)], 'must be a string or an array of content parts')),
});
const bodySchema = v.looseObject({
  prompt: v.nullish(
    v.pipe(
      v.string('must be a string'),
      v.check((text) => text.trim().length > 0, 'must not be empty'),
      v.maxLength(maxClassifyChars, `at most ${maxClassifyChars} characters`),
    ),
  ),
  messages: v.nullish(v.pipe(v.array(message, 'must be an array of messages'), v.minLength(1, 'must not be empty'))),
});

type Body = v.InferOutput<typeof bodySchema>;

/** The canonical messages of a body; text parts only, since nothing else changes the verdict here. */
function toMessages(body: Body): ChatMessage[] {
  if (body.prompt != null) {
    if (body.messages != null) throw invalidRequest('Send either `prompt` or `messages`, not both.', 'messages');
    return [{ role: 'user', content: body.prompt }];
  }
  if (body.messages == null) throw invalidRequest('Send `prompt` (a string) or `messages` (an array of chat messages).', 'prompt');
  let chars = 0;
  const messages = body.messages.map((m): ChatMessage => {
    if (typeof m.content === 'string') {
      chars += m.content.length;
      return { role: m.role, content: m.content };
    }
    if (m.content == null) return { role: m.role, content: null };
    const parts: TextPart[] = [];
    for (const p of m.content) {
      if (p.type !== 'text' || typeof p.text !== 'string') continue;
      chars += p.text.length;
      parts.push({ type: 'text', text: p.text });
    }
    return { role: m.role, content: parts };
  });
  if (chars > maxClassifyChars) throw invalidRequest(`messages: at most ${maxClassifyChars} characters of text in all.`, 'messages');
  return messages;
}

/** Feature wire names. `maxTokens` and `reasoningEffort` are left out: this endpoint never sets them. */
const featureNames = {
  totalChars: 'total_chars',
  promptTokens: 'prompt_tokens',
  lastUserChars: 'last_user_chars',
  turns: 'turns',
  hasSystem: 'has_system',
  tools: 'tools',
  json: 'json',
  vision: 'vision',
  audio: 'audio',
  code: 'code',
  math: 'math',
  markup: 'markup',
  nonAscii: 'non_ascii',
  reasoningWords: 'reasoning_words',
  constraintWords: 'constraint_words',
  numbers: 'numbers',
  choices: 'choices',
  longWords: 'long_words',
  question: 'question',
  words: 'words',
  writingHits: 'writing_hits',
  writingVerbs: 'writing_verbs',
  extractionHits: 'extraction_hits',
  translationHits: 'translation_hits',
  analysisHits: 'analysis_hits',
  chatHits: 'chat_hits',
  codeHits: 'code_hits',
  mathHits: 'math_hits',
} as const satisfies Record<Exclude<keyof RequestFeatures, 'maxTokens' | 'reasoningEffort'>, string>;

const round = (n: number) => Math.round(n * 1000) / 1000;

function featuresToWire(features: RequestFeatures): Record<string, number | boolean> {
  const wire: Record<string, number | boolean> = {};
  for (const [name, wireName] of Object.entries(featureNames) as [keyof typeof featureNames, string][]) {
    const value = features[name];
    wire[wireName] = typeof value === 'number' ? round(value) : value;
  }
  return wire;
}

/**
 * `POST /classify_complexity` (spec document 2), mounted at `/v1/classify_complexity`: public,
 * pure compute, no writes. Body `{prompt}` or `{messages}`; extra fields are ignored.
 * Answers `{complexity, task_family, score, features}` from the router's own classifier, so the
 * verdict is the one routing would reach for the same text.
 */
export function registerClassifyComplexity(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.post('/v1/classify_complexity', async (c) => {
    const body = validate(bodySchema, await readJson(c, deps.maxBodyBytes));
    const request: ChatRequest = { model: 'auto', messages: toMessages(body), stream: false, n: 1, includeUsage: false };
    const features = extractFeatures(request);
    const verdict = classify(features);
    return c.json({
      complexity: verdict.complexity,
      task_family: verdict.taskFamily,
      score: round(verdict.score),
      features: featuresToWire(features),
    });
  });
}
