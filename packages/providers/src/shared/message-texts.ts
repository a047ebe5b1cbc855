import type { ChatMessage } from '@svc/core';

/** The non-empty text parts of a message's content, in order (image and other parts skipped). */
export function textsOf(content: ChatMessage['content']): string[] {
  if (content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [content];
  const texts: string[] = [];
  for (const part of content) if (part.type === 'text' && part.text !== '') texts.push(part.text);
  return texts;
}
