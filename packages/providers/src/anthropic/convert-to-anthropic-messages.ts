import { textsOf } from '../shared/message-texts.js';
import { type CacheControl, type ChatMessage, type ContentPart, ProviderError } from '@svc/core';
import { parseDataUrl } from '../shared/data-url.js';
import { parseToolArguments } from '../shared/tool-arguments.js';
import type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
} from './anthropic-api.js';

/** The prompt half of a Messages request. */
export interface AnthropicPrompt {
  /** Every system/developer message, in order; absent when there is none. */
  system?: AnthropicTextBlock[];
  messages: AnthropicMessage[];
}

/**
 * Converts canonical messages to Anthropic's shape:
 * - system and developer messages, wherever they appear, become top-level `system` blocks
 *   (Anthropic has no mid-conversation system turn);
 * - tool messages become user `tool_result` blocks, assistant tool calls `tool_use` blocks;
 * - consecutive turns of one role are merged, since Anthropic requires alternation, and in a
 *   merged user turn the `tool_result` blocks come first, as Anthropic requires;
 * - empty text is dropped (Anthropic rejects empty text blocks) and a final assistant turn
 *   (a prefill) loses trailing whitespace, which Anthropic also rejects;
 * - cache breakpoints become `cache_control` on the block they were on (a message's own
 *   breakpoint on its last block), so prompt caching survives whatever protocol the client used.
 */
export function convertToAnthropicMessages(messages: readonly ChatMessage[]): AnthropicPrompt {
  const system: AnthropicTextBlock[] = [];
  const out: AnthropicMessage[] = [];

  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...marked(systemBlocks(message.content), message.cacheControl));
        break;
      case 'user':
        append(out, 'user', marked(userBlocks(message.content, i), message.cacheControl));
        break;
      case 'assistant':
        append(out, 'assistant', marked(assistantBlocks(message, i), message.cacheControl));
        break;
      case 'tool':
        append(out, 'user', marked([toolResult(message, i)], message.cacheControl));
        break;
    }
  }

  const last = out.at(-1);
  if (last?.role === 'assistant') {
    trimTrailingWhitespace(last);
    if (last.content.length === 0) out.pop();
  }
  return system.length > 0 ? { system, messages: out } : { messages: out };
}

/** Anthropic's `cache_control` of a canonical breakpoint. */
export function anthropicCacheControl(control: CacheControl): AnthropicCacheControl {
  return control.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: control.ttl };
}

/** `block` with the part's breakpoint, if it has one. */
function cached<T extends { cache_control?: AnthropicCacheControl }>(block: T, control: CacheControl | undefined): T {
  if (control !== undefined) block.cache_control = anthropicCacheControl(control);
  return block;
}

/** A message's own breakpoint goes on its last block. */
function marked<T extends { cache_control?: AnthropicCacheControl }>(blocks: T[], control: CacheControl | undefined): T[] {
  const last = blocks.at(-1);
  if (last !== undefined) cached(last, control);
  return blocks;
}

function systemBlocks(content: ChatMessage['content']): AnthropicTextBlock[] {
  if (content === null || typeof content === 'string') return textsOf(content).map((text) => ({ type: 'text', text }));
  const blocks: AnthropicTextBlock[] = [];
  for (const part of content) if (part.type === 'text' && part.text !== '') blocks.push(cached<AnthropicTextBlock>({ type: 'text', text: part.text }, part.cacheControl));
  return blocks;
}

function append(out: AnthropicMessage[], role: AnthropicMessage['role'], blocks: AnthropicContentBlock[]): void {
  if (blocks.length === 0) return;
  const last = out.at(-1);
  if (last?.role !== role) {
    out.push({ role, content: blocks });
    return;
  }
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      let at = 0;
      while (last.content[at]?.type === 'tool_result') at++;
      last.content.splice(at, 0, block);
    } else {
      last.content.push(block);
    }
  }
}

function userBlocks(content: ChatMessage['content'], index: number): AnthropicContentBlock[] {
  if (content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: AnthropicContentBlock[] = [];
  for (const part of content) {
    const block = partBlock(part, index);
    if (block) blocks.push(block);
  }
  return blocks;
}

function assistantBlocks(message: ChatMessage, index: number): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  for (const text of textsOf(message.content)) blocks.push({ type: 'text', text });
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseToolArguments('anthropic', call.arguments, index) });
  }
  return blocks;
}

function toolResult(message: ChatMessage, index: number): AnthropicToolResultBlock {
  if (!message.toolCallId) throw invalid(`messages[${index}]: a tool message needs tool_call_id.`, `messages[${index}].tool_call_id`);
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: message.toolCallId };
  const { content } = message;
  if (typeof content === 'string') {
    if (content !== '') block.content = content;
  } else if (content !== null) {
    const parts: Array<AnthropicTextBlock | AnthropicImageBlock> = [];
    for (const part of content) {
      if (part.type === 'text' && part.text !== '') parts.push(cached<AnthropicTextBlock>({ type: 'text', text: part.text }, part.cacheControl));
      else if (part.type === 'image') parts.push(cached(imageBlock(part.url), part.cacheControl));
    }
    if (parts.length > 0) block.content = parts;
  }
  return block;
}

function partBlock(part: ContentPart, index: number): AnthropicContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : cached<AnthropicTextBlock>({ type: 'text', text: part.text }, part.cacheControl);
    case 'image':
      return cached(imageBlock(part.url), part.cacheControl);
    case 'file':
      return cached(fileBlock(part, index), part.cacheControl);
    case 'audio':
      throw invalid(`messages[${index}]: Anthropic models do not accept audio input.`, `messages[${index}].content`);
  }
}

function imageBlock(url: string): AnthropicImageBlock {
  const inline = parseDataUrl('anthropic', url);
  if (inline) return { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  return { type: 'image', source: { type: 'url', url } };
}

function fileBlock(part: Extract<ContentPart, { type: 'file' }>, index: number): AnthropicImageBlock | AnthropicDocumentBlock {
  if (part.fileId) return { type: 'document', source: { type: 'file', file_id: part.fileId } };
  if (!part.data) throw invalid(`messages[${index}]: a file part needs data or file_id.`, `messages[${index}].content`);
  const inline = parseDataUrl('anthropic', part.data) ?? { mediaType: part.mediaType ?? 'application/pdf', data: part.data };
  const title = part.filename;
  if (inline.mediaType.startsWith('image/')) return { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  if (inline.mediaType === 'text/plain') {
    const text = Buffer.from(inline.data, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...(title ? { title } : {}) };
  }
  if (inline.mediaType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: inline.data }, ...(title ? { title } : {}) };
  }
  throw invalid(`messages[${index}]: Anthropic does not accept ${inline.mediaType} files (PDF, plain text and images only).`, `messages[${index}].content`);
}

function trimTrailingWhitespace(message: AnthropicMessage): void {
  const block = message.content.at(-1);
  if (block?.type !== 'text') return;
  block.text = block.text.trimEnd();
  if (block.text === '') message.content.pop();
}

function invalid(message: string, param: string): ProviderError {
  return new ProviderError({ provider: 'anthropic', kind: 'invalid_request', message, param });
}
