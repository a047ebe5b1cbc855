import type { ChatMessage, ChatRequest } from '@svc/core';
import { VERDICT_SCHEMA_NAME } from './verdict.js';

/** Longest conversation text the judge is shown, in characters (head and tail kept). */
const MAX_CONVERSATION_CHARS = 12_000;
/** Longest answer the judge is shown, in characters. */
const MAX_ANSWER_CHARS = 8_000;

const INSTRUCTIONS =
  'You are an impartial judge comparing two answers to the same conversation. Judge which answer better serves the user: correctness first, then helpfulness, completeness and clarity. Length is not quality. Answer "tie" when neither is better. Reply only with JSON: {"winner": "A" | "B" | "tie"}.';

function textOf(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[...]\n${text.slice(-half)}`;
}

/** The conversation as the judge reads it: one `role: text` block per message. */
export function conversationText(request: ChatRequest): string {
  return clip(request.messages.map((message) => `${message.role}: ${textOf(message)}`).join('\n\n'), MAX_CONVERSATION_CHARS);
}

/**
 * The judge's request: the conversation, then `[Answer A]` and `[Answer B]`, and a JSON answer
 * format `{winner}`; temperature 0 and a short answer.
 */
export function judgeRequest(judgeModel: string, conversation: string, answerA: string, answerB: string): ChatRequest {
  const prompt = `[Conversation]\n${conversation}\n\n[Answer A]\n${clip(answerA, MAX_ANSWER_CHARS)}\n\n[Answer B]\n${clip(answerB, MAX_ANSWER_CHARS)}\n\n[End of answers]`;
  return {
    model: judgeModel,
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: prompt },
    ],
    stream: false,
    n: 1,
    includeUsage: false,
    temperature: 0,
    maxTokens: 32,
    responseFormat: {
      type: 'json_schema',
      name: VERDICT_SCHEMA_NAME,
      strict: true,
      schema: { type: 'object', properties: { winner: { type: 'string', enum: ['A', 'B', 'tie'] } }, required: ['winner'], additionalProperties: false },
    },
  };
}
