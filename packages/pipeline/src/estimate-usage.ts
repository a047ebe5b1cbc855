import { charsPerToken, estimateTokens, tokensForChars } from '@svc/billing';
import type { ChatMessage, ChatRequest, Usage } from '@svc/core';

/** Tokens of a message's role and framing in the chat format. */
const perMessage = 4;
/**
 * An image's tokens when its pixels are not read: Anthropic's figure for an image at its largest
 * unresized size (~1.15 megapixels / 750), so a count errs towards the larger bill.
 */
const perImage = 1600;
/** A tool definition's framing (its name, type and the schema's wrapper) on top of its JSON. */
const perTool = 8;

type CountTokens = (text: string) => number;
let tokenizer: Promise<CountTokens | undefined> | undefined;

/**
 * The o200k tokenizer (gpt-tokenizer, pure JS: no native build, no network), loaded on first use:
 * its ranks take ~200 ms and a few MB, paid only by the first stream a provider leaves uncounted.
 */
function loadTokenizer(): Promise<CountTokens | undefined> {
  tokenizer ??= import('gpt-tokenizer').then(
    (module) => (text: string) => module.countTokens(text),
    () => undefined,
  );
  return tokenizer;
}

function textOf(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  let text = '';
  if (message.content) for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}

/** Prompt tokens by the ~4-characters heuristic (synchronous; for admission-time estimates). */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) chars += textOf(message).length + perMessage * charsPerToken;
  return tokensForChars(chars);
}

/**
 * Usage for a stream that ended without the provider's count, counted with a real tokenizer over
 * the prompt's text and the streamed text, and marked `estimated` (the provider's own tokenizer
 * may differ; images and tool schemas are not counted).
 */
export async function estimateUsage(messages: readonly ChatMessage[], completionText: string): Promise<Usage> {
  const count = await loadTokenizer();
  let promptTokens = 0;
  for (const message of messages) {
    const text = textOf(message);
    promptTokens += (count ? count(text) : estimateTokens(text)) + perMessage;
  }
  const completionTokens = count ? count(completionText) : estimateTokens(completionText);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true };
}

/**
 * The prompt tokens a chat request would send, for `POST /v1/messages/count_tokens`: system and
 * message text, tool calls and results, tool definitions (name, description, JSON schema) with
 * the o200k tokenizer, images at a fixed {@link perImage}. Exact for OpenAI's o200k models, an
 * estimate for others (their tokenizers are not public); the ~4-characters rule when the
 * tokenizer cannot load.
 */
export async function countPromptTokens(request: Pick<ChatRequest, 'messages' | 'tools'>): Promise<number> {
  const count = (await loadTokenizer()) ?? estimateTokens;
  let tokens = 0;
  for (const message of request.messages) {
    tokens += perMessage + count(textOf(message));
    if (Array.isArray(message.content)) for (const part of message.content) if (part.type === 'image') tokens += perImage;
    for (const call of message.toolCalls ?? []) tokens += count(call.name) + count(call.arguments);
  }
  for (const tool of request.tools ?? []) {
    tokens += perTool + count(tool.name);
    if (tool.description) tokens += count(tool.description);
    if (tool.parameters) tokens += count(JSON.stringify(tool.parameters));
  }
  return tokens;
}
