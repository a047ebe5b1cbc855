import { textsOf } from '../shared/message-texts.js';
import { type CacheControl, type ChatMessage, type ContentPart, ProviderError } from '@svc/core';
import { parseDataUrl } from '../shared/data-url.js';
import { parseToolArguments } from '../shared/tool-arguments.js';
import type {
  BedrockCachePoint,
  BedrockContentBlock,
  BedrockDocumentBlock,
  BedrockDocumentFormat,
  BedrockImageBlock,
  BedrockImageFormat,
  BedrockMessage,
  BedrockToolResultBlock,
} from './bedrock-api.js';

/** The prompt half of a Converse request. */
export interface BedrockPrompt {
  /** Every system/developer message, in order; absent when there is none. */
  system?: Array<{ text: string } | BedrockCachePoint>;
  messages: BedrockMessage[];
  /** True when the history holds tool calls or results: Converse then requires `toolConfig`. */
  usesTools: boolean;
}

const imageFormats: Readonly<Record<string, BedrockImageFormat>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const documentFormats: Readonly<Record<string, BedrockDocumentFormat>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/**
 * Converts canonical messages to Converse `messages` + `system`:
 * - system and developer messages, wherever they appear, become top-level `system` blocks;
 * - tool messages become user `toolResult` blocks, assistant tool calls `toolUse` blocks;
 * - consecutive turns of one role are merged (Converse requires alternation) and in a merged
 *   user turn the `toolResult` blocks come first, as Claude on Bedrock requires;
 * - empty text is dropped (Converse rejects blank text blocks) and a final assistant turn (a
 *   prefill) loses trailing whitespace, which Claude rejects.
 * Images and documents must be inline base64: Converse reads only bytes or S3 locations, and
 * the gateway does not fetch URLs on a caller's behalf.
 *
 * With `cachePoints` (models that take them), each cache breakpoint becomes a `cachePoint` block
 * right after the block it was on (after a message's last block for the message's own one).
 */
export function convertToBedrockMessages(messages: readonly ChatMessage[], cachePoints = false): BedrockPrompt {
  const points = cachePoints ? cachePoint : noCachePoint;
  const system: Array<{ text: string } | BedrockCachePoint> = [];
  const out: BedrockMessage[] = [];
  let usesTools = false;

  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...systemBlocks(message.content, points), ...points(message.cacheControl));
        break;
      case 'user':
        append(out, 'user', [...userBlocks(message.content, i, points), ...points(message.cacheControl)]);
        break;
      case 'assistant': {
        const blocks: BedrockContentBlock[] = textsOf(message.content).map((text) => ({ text }));
        for (const call of message.toolCalls ?? []) {
          usesTools = true;
          blocks.push({ toolUse: { toolUseId: call.id, name: call.name, input: parseToolArguments('bedrock', call.arguments, i) } });
        }
        append(out, 'assistant', [...blocks, ...points(message.cacheControl)]);
        break;
      }
      case 'tool':
        usesTools = true;
        append(out, 'user', [toolResult(message, i), ...points(message.cacheControl)]);
        break;
    }
  }

  const last = out.at(-1);
  if (last?.role === 'assistant') {
    const block = last.content.at(-1);
    if (block && 'text' in block) {
      block.text = block.text.trimEnd();
      if (block.text === '') last.content.pop();
    }
    if (last.content.length === 0) out.pop();
  }
  return system.length > 0 ? { system, messages: out, usesTools } : { messages: out, usesTools };
}

type CachePoints = (control: CacheControl | undefined) => BedrockCachePoint[];

/** The `cachePoint` block of a breakpoint (none without one). */
export const cachePoint: CachePoints = (control) => {
  if (control === undefined) return [];
  return [{ cachePoint: control.ttl === undefined ? { type: 'default' } : { type: 'default', ttl: control.ttl } }];
};

const noCachePoint: CachePoints = () => [];

function systemBlocks(content: ChatMessage['content'], points: CachePoints): Array<{ text: string } | BedrockCachePoint> {
  if (content === null || typeof content === 'string') return textsOf(content).map((text) => ({ text }));
  return content.flatMap((part) => (part.type === 'text' && part.text !== '' ? [{ text: part.text }, ...points(part.cacheControl)] : []));
}

function append(out: BedrockMessage[], role: BedrockMessage['role'], blocks: BedrockContentBlock[]): void {
  if (blocks.length === 0) return;
  const last = out.at(-1);
  if (last?.role !== role) {
    out.push({ role, content: blocks });
    return;
  }
  for (const block of blocks) {
    if ('toolResult' in block) {
      let at = 0;
      while (last.content[at] !== undefined && 'toolResult' in last.content[at]!) at++;
      last.content.splice(at, 0, block);
    } else {
      last.content.push(block);
    }
  }
}

function userBlocks(content: ChatMessage['content'], index: number, points: CachePoints): BedrockContentBlock[] {
  if (content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const blocks: BedrockContentBlock[] = [];
  for (let position = 0; position < content.length; position++) {
    const part = content[position]!;
    const block = partBlock(part, index, position);
    if (block) blocks.push(block, ...points(part.cacheControl));
  }
  return blocks;
}

function toolResult(message: ChatMessage, index: number): BedrockToolResultBlock {
  if (!message.toolCallId) throw invalid(`messages[${index}]: a tool message needs tool_call_id.`, `messages[${index}].tool_call_id`);
  const content: BedrockToolResultBlock['toolResult']['content'] = [];
  if (typeof message.content === 'string') {
    if (message.content !== '') content.push({ text: message.content });
  } else if (message.content !== null) {
    for (const part of message.content) {
      if (part.type === 'text' && part.text !== '') content.push({ text: part.text });
      else if (part.type === 'image') content.push(imageBlock(part.url, index));
    }
  }
  return { toolResult: { toolUseId: message.toolCallId, content } };
}

function partBlock(part: ContentPart, index: number, position: number): BedrockContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { text: part.text };
    case 'image':
      return imageBlock(part.url, index);
    case 'file':
      return fileBlock(part, index, position);
    case 'audio':
      throw invalid(`messages[${index}]: Bedrock Converse does not accept audio input.`, `messages[${index}].content`);
  }
}

function imageBlock(url: string, index: number): BedrockImageBlock {
  const inline = parseDataUrl('bedrock', url);
  if (!inline) throw invalid(`messages[${index}]: Bedrock accepts images only as base64 data: URLs.`, `messages[${index}].content`);
  const format = imageFormats[inline.mediaType];
  if (!format) throw invalid(`messages[${index}]: Bedrock does not accept ${inline.mediaType} images (png, jpeg, gif, webp only).`, `messages[${index}].content`);
  return { image: { format, source: { bytes: inline.data } } };
}

function fileBlock(part: Extract<ContentPart, { type: 'file' }>, index: number, position: number): BedrockImageBlock | BedrockDocumentBlock {
  if (!part.data) throw invalid(`messages[${index}]: Bedrock needs file data inline (file_id is not supported).`, `messages[${index}].content`);
  const inline = parseDataUrl('bedrock', part.data) ?? { mediaType: part.mediaType ?? 'application/pdf', data: part.data };
  if (inline.mediaType.startsWith('image/')) return imageBlock(`data:${inline.mediaType};base64,${inline.data}`, index);
  const format = documentFormats[inline.mediaType];
  if (!format) throw invalid(`messages[${index}]: Bedrock does not accept ${inline.mediaType} files.`, `messages[${index}].content`);
  return { document: { format, name: documentName(part.filename, `${index}-${position}`), source: { bytes: inline.data } } };
}

/**
 * Converse restricts document names to letters, digits, single spaces, hyphens, parentheses
 * and square brackets, and a name must be unique per request; the part's place keeps it so.
 */
function documentName(filename: string | undefined, place: string): string {
  const base = (filename ?? '').replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ').replace(/\s+/g, ' ').trim();
  return `${base || 'document'} (${place})`;
}

function invalid(message: string, param: string): ProviderError {
  return new ProviderError({ provider: 'bedrock', kind: 'invalid_request', message, param });
}
