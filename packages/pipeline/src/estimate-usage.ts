import type { ChatMessage, Usage } from '@svc/core';

/** ~4 characters per token: the usual English average, used only when a provider reports none. */
const charsPerToken = 4;

export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    if (typeof message.content === 'string') chars += message.content.length;
    else if (message.content) for (const part of message.content) if (part.type === 'text') chars += part.text.length;
    chars += 4; // role and framing
  }
  return Math.ceil(chars / charsPerToken);
}

/** Usage for a stream that ended without the provider's count; marked `estimated`. */
export function estimateUsage(messages: readonly ChatMessage[], completionChars: number): Usage {
  const promptTokens = estimatePromptTokens(messages);
  const completionTokens = Math.ceil(completionChars / charsPerToken);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true };
}
