import { type ChatMessage, type ContentPart, ProviderError } from '@svc/core';
import type { CohereContentPart, CohereMessage } from './cohere-api.js';

/**
 * Canonical messages -> Cohere v2 messages. `developer` becomes `system`. An assistant turn that
 * called tools sends its text as `tool_plan`, the field Cohere itself fills with the text that
 * precedes its tool calls (and that the adapter returns as content), so a conversation
 * round-trips. Audio and file parts have no Cohere chat equivalent: an `invalid_request` error
 * rather than a request that silently drops what the caller sent.
 */
export function convertToCohereMessages(messages: readonly ChatMessage[]): CohereMessage[] {
  return messages.map(convertMessage);
}

function convertMessage(message: ChatMessage, index: number): CohereMessage {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: convertContent(message.content, index) };
    case 'user':
      return { role: 'user', content: convertContent(message.content, index) };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: convertContent(message.content, index) };
    case 'assistant': {
      const text = textOf(message.content, index);
      if (message.toolCalls === undefined || message.toolCalls.length === 0) return { role: 'assistant', content: text };
      const wire: Extract<CohereMessage, { role: 'assistant' }> = {
        role: 'assistant',
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          // Cohere rejects an empty arguments string for a call without parameters.
          function: { name: call.name, arguments: call.arguments.trim() === '' ? '{}' : call.arguments },
        })),
      };
      if (text !== '') wire.tool_plan = text;
      return wire;
    }
  }
}

function convertContent(content: string | ContentPart[] | null, index: number): string | CohereContentPart[] {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => convertPart(part, index));
}

function convertPart(part: ContentPart, index: number): CohereContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      // Cohere takes https and base64 `data:` URLs alike, so the URL passes through unchanged.
      return { type: 'image_url', image_url: part.detail === undefined ? { url: part.url } : { url: part.url, detail: part.detail } };
    default:
      throw unsupported(part.type, index);
  }
}

/** Assistant content is text only on the Cohere wire. */
function textOf(content: string | ContentPart[] | null, index: number): string {
  if (content === null || typeof content === 'string') return content ?? '';
  let text = '';
  for (const part of content) {
    if (part.type !== 'text') throw unsupported(part.type, index);
    text += part.text;
  }
  return text;
}

function unsupported(type: string, index: number): ProviderError {
  return new ProviderError({
    provider: 'cohere',
    kind: 'invalid_request',
    message: `messages[${index}]: Cohere chat does not accept ${type} content here.`,
    param: `messages[${index}].content`,
  });
}
