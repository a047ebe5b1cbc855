import type { ChatMessage, ContentPart } from '@svc/core';
import type { OpenAIContentPart, OpenAIMessage, OpenAIToolCall } from './openai-api.js';

/**
 * Canonical messages -> OpenAI wire messages. Plain string content is passed by reference, so
 * the common text-only conversation costs one small object per message.
 *
 * `developerRole: false` sends developer messages as `system` for vendors that only know that.
 */
export function convertToOpenAIMessages(messages: readonly ChatMessage[], developerRole: boolean): OpenAIMessage[] {
  const out: OpenAIMessage[] = new Array(messages.length);
  for (let i = 0; i < messages.length; i++) {
    out[i] = convertMessage(messages[i]!, developerRole);
  }
  return out;
}

function convertMessage(message: ChatMessage, developerRole: boolean): OpenAIMessage {
  switch (message.role) {
    case 'system':
    case 'developer':
    case 'user': {
      const role = message.role === 'developer' && !developerRole ? 'system' : message.role;
      const wire: Extract<OpenAIMessage, { role: 'system' | 'developer' | 'user' }> = { role, content: convertContent(message.content) };
      if (message.name !== undefined) wire.name = message.name;
      return wire;
    }
    case 'assistant': {
      const wire: Extract<OpenAIMessage, { role: 'assistant' }> = {
        role: 'assistant',
        content: message.content === null || typeof message.content === 'string' ? message.content : convertContent(message.content),
      };
      if (message.name !== undefined) wire.name = message.name;
      if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
        wire.tool_calls = message.toolCalls.map(
          (call): OpenAIToolCall => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }),
        );
      }
      if (message.refusal !== undefined) wire.refusal = message.refusal;
      return wire;
    }
    case 'tool':
      return { role: 'tool', content: convertContent(message.content), tool_call_id: message.toolCallId ?? '' };
  }
}

function convertContent(content: string | ContentPart[] | null): string | OpenAIContentPart[] {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map(convertPart);
}

function convertPart(part: ContentPart): OpenAIContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image_url', image_url: part.detail === undefined ? { url: part.url } : { url: part.url, detail: part.detail } };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: part.data, format: part.format } };
    case 'file': {
      const file: { file_data?: string; file_id?: string; filename?: string } = {};
      if (part.data !== undefined) file.file_data = toDataUrl(part.data, part.mediaType);
      if (part.fileId !== undefined) file.file_id = part.fileId;
      if (part.filename !== undefined) file.filename = part.filename;
      return { type: 'file', file };
    }
  }
}

/** OpenAI wants inline files as `data:` URLs; canonical parts may carry bare base64. */
function toDataUrl(data: string, mediaType: string | undefined): string {
  if (data.startsWith('data:')) return data;
  return `data:${mediaType ?? 'application/octet-stream'};base64,${data}`;
}
