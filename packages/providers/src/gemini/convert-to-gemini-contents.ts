import { type ChatMessage, type ContentPart, ProviderError } from '@svc/core';
import { parseDataUrl } from '../shared/data-url.js';
import { parseToolArguments } from '../shared/tool-arguments.js';
import type { GeminiContent, GeminiPart } from './gemini-api.js';

/**
 * Gemini 3 rejects a replayed `functionCall` part without the `thoughtSignature` it was
 * issued with, and the canonical model carries no signatures (the history may even come from
 * another provider). Google documents this value as the way to replay such history; older
 * models ignore it. It goes on the first call of each model turn, where Gemini puts the real one.
 */
export const GEMINI_SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** The prompt half of a generateContent request. */
export interface GeminiPrompt {
  systemInstruction?: { parts: Array<{ text: string }> };
  contents: GeminiContent[];
}

/**
 * Converts canonical messages to Gemini `contents`:
 * - system and developer messages, wherever they appear, become `systemInstruction`;
 * - assistant turns become role `model` with `functionCall` parts (arguments parsed to `args`);
 * - tool messages become user `functionResponse` parts. Gemini matches responses by function
 *   *name*, so the name is looked up from the assistant call with the same id (latest wins,
 *   since generated ids may repeat across turns), falling back to the tool message's `name`.
 *   The result text is sent as `{output: text}`, the key Gemini documents for function output;
 * - consecutive turns of one role are merged (all responses to one model turn belong together).
 */
export function convertToGeminiContents(messages: readonly ChatMessage[]): GeminiPrompt {
  const system: Array<{ text: string }> = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>();

  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message.content);
        if (text !== '') system.push({ text });
        break;
      }
      case 'user':
        append(contents, 'user', userParts(message.content, i));
        break;
      case 'assistant': {
        const parts: GeminiPart[] = [];
        const text = textOf(message.content);
        if (text !== '') parts.push({ text });
        const calls = message.toolCalls ?? [];
        for (let c = 0; c < calls.length; c++) {
          const call = calls[c]!;
          toolNames.set(call.id, call.name);
          const part: Extract<GeminiPart, { functionCall: unknown }> = { functionCall: { name: call.name, args: parseToolArguments('gemini', call.arguments, i) } };
          if (c === 0) part.thoughtSignature = GEMINI_SKIP_THOUGHT_SIGNATURE;
          parts.push(part);
        }
        append(contents, 'model', parts);
        break;
      }
      case 'tool': {
        const name = (message.toolCallId === undefined ? undefined : toolNames.get(message.toolCallId)) ?? message.name;
        if (!name) throw invalid(`messages[${i}]: no earlier assistant tool call has id '${message.toolCallId ?? ''}'.`, `messages[${i}].tool_call_id`);
        append(contents, 'user', [{ functionResponse: { name, response: { output: textOf(message.content) } } }]);
        break;
      }
    }
  }
  return system.length > 0 ? { systemInstruction: { parts: system }, contents } : { contents };
}

function append(contents: GeminiContent[], role: GeminiContent['role'], parts: GeminiPart[]): void {
  if (parts.length === 0) return;
  const last = contents.at(-1);
  if (last?.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

function textOf(content: ChatMessage['content']): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

function userParts(content: ChatMessage['content'], index: number): GeminiPart[] {
  if (content === null) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const parts: GeminiPart[] = [];
  for (const part of content) {
    const converted = toPart(part, index);
    if (converted) parts.push(converted);
  }
  return parts;
}

function toPart(part: ContentPart, index: number): GeminiPart | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { text: part.text };
    case 'image': {
      const inline = parseDataUrl('gemini', part.url);
      if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
      return { fileData: { mimeType: imageMimeType(part.url), fileUri: part.url } };
    }
    case 'audio':
      return { inlineData: { mimeType: `audio/${part.format}`, data: part.data } };
    case 'file': {
      if (part.fileId) return { fileData: { ...(part.mediaType ? { mimeType: part.mediaType } : {}), fileUri: part.fileId } };
      if (!part.data) throw invalid(`messages[${index}]: a file part needs data or file_id.`, `messages[${index}].content`);
      const inline = parseDataUrl('gemini', part.data) ?? { mediaType: part.mediaType ?? 'application/pdf', data: part.data };
      return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
    }
  }
}

const imageTypes: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

/** `fileData` needs a MIME type; a URL only hints at it through its extension. */
function imageMimeType(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return imageTypes[extension] ?? 'image/jpeg';
}

function invalid(message: string, param: string): ProviderError {
  return new ProviderError({ provider: 'gemini', kind: 'invalid_request', message, param });
}
