import { type ChatMessage, type ChatRequest, type TextPart, invalidRequest } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { defineRoute, jsonResponse, publicAccess } from '@svc/openapi';
import { classify, extractFeatures, scalarFeatures } from '@svc/router';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { readJson } from '../read-json.js';

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

const round = (n: number) => Math.round(n * 1000) / 1000;

export const classifyComplexityRoute = defineRoute({
  method: 'post',
  path: '/v1/classify_complexity',
  operationId: 'classifyComplexity',
  summary: 'Classify a prompt as the router would',
  description: `Send \`prompt\` (a string) or \`messages\` (chat messages; text parts count, other parts are ignored), at most ${maxClassifyChars} characters of text. Pure computation: nothing is stored or routed.`,
  tags: ['Routing'],
  auth: publicAccess,
  body: { schema: bodySchema, name: 'ClassifyComplexityRequest' },
  responses: { 200: jsonResponse('`{complexity, task_family, score, features}`.') },
  errors: [400, 413],
});

export function registerClassifyComplexity(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(classifyComplexityRoute, async (c) => {
    const body = validate(bodySchema, await readJson(c, deps.maxBodyBytes));
    const request: ChatRequest = { model: 'auto', messages: toMessages(body), stream: false, n: 1, includeUsage: false };
    const features = extractFeatures(request);
    const verdict = classify(features);
    return c.json({
      complexity: verdict.complexity,
      task_family: verdict.taskFamily,
      score: round(verdict.score),
      features: scalarFeatures(features),
    });
  });
}
