import { type ChatMessage, type ContentPart, invalidRequest, type ToolCall } from '@svc/core';
import { withCacheControl } from '../shared/cache-control.js';
import type { OpenAIChatMessage, OpenAIContentPart } from './chat-message-schema.js';

type WireContent = string | OpenAIContentPart[];

interface DecodedContent {
  content: string | ContentPart[];
  /** Text of `refusal` parts (only assistant turns carry them). */
  refusal?: string;
}

function decodeContent(content: WireContent): DecodedContent {
  if (typeof content === 'string') return { content };
  const parts: ContentPart[] = [];
  let refusal: string | undefined;
  for (const part of content) {
    switch (part.type) {
      case 'text':
        parts.push(withCacheControl<ContentPart>({ type: 'text', text: part.text }, part.cache_control));
        break;
      case 'image_url': {
        const image: ContentPart = { type: 'image', url: part.image_url.url };
        if (part.image_url.detail != null) image.detail = part.image_url.detail;
        parts.push(withCacheControl(image, part.cache_control));
        break;
      }
      case 'input_audio':
        parts.push({ type: 'audio', data: part.input_audio.data, format: part.input_audio.format });
        break;
      case 'file': {
        const file: ContentPart = { type: 'file' };
        if (part.file.file_data != null) file.data = part.file.file_data;
        if (part.file.file_id != null) file.fileId = part.file.file_id;
        if (part.file.filename != null) file.filename = part.file.filename;
        parts.push(withCacheControl(file, part.cache_control));
        break;
      }
      case 'refusal':
        refusal = refusal === undefined ? part.refusal : refusal + part.refusal;
        break;
    }
  }
  return refusal === undefined ? { content: parts } : { content: parts, refusal };
}

function decodeToolCalls(message: Extract<OpenAIChatMessage, { role: 'assistant' }>): ToolCall[] | undefined {
  if (message.tool_calls != null && message.tool_calls.length > 0) {
    return message.tool_calls.map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    }));
  }
  // Legacy function calling has one call per turn; its name doubles as the id that the
  // following `role: 'function'` turn answers.
  if (message.function_call != null) {
    const { name, arguments: args } = message.function_call;
    return [{ id: name, name, arguments: args }];
  }
  return undefined;
}

/**
 * Maps one validated wire message to the canonical message. Legacy `role: 'function'` turns
 * become `tool` turns whose `toolCallId` is the function name (see `decodeToolCalls`).
 * Throws a 400 when an assistant turn has neither content, tool calls nor a refusal.
 */
export function decodeChatMessage(message: OpenAIChatMessage, index: number): ChatMessage {
  switch (message.role) {
    case 'assistant': {
      const out: ChatMessage = { role: 'assistant', content: null };
      let refusal = message.refusal ?? undefined;
      if (message.content != null) {
        const decoded = decodeContent(message.content);
        out.content = decoded.content;
        if (decoded.refusal !== undefined) refusal = (refusal ?? '') + decoded.refusal;
      }
      const toolCalls = decodeToolCalls(message);
      if (toolCalls !== undefined) out.toolCalls = toolCalls;
      if (refusal !== undefined) out.refusal = refusal;
      if (message.name != null) out.name = message.name;
      if (out.content === null && toolCalls === undefined && refusal === undefined) {
        const param = `messages.${index}.content`;
        throw invalidRequest(
          `Missing required parameter: '${param}' (an assistant message needs content, tool_calls or a refusal).`,
          param,
        );
      }
      return out;
    }
    case 'tool': {
      const out: ChatMessage = {
        role: 'tool',
        content: decodeContent(message.content).content,
        toolCallId: message.tool_call_id,
      };
      if (message.name != null) out.name = message.name;
      return out;
    }
    case 'function':
      return { role: 'tool', content: message.content ?? '', name: message.name, toolCallId: message.name };
    default: {
      const out: ChatMessage = { role: message.role, content: decodeContent(message.content).content };
      if (message.name != null) out.name = message.name;
      return out;
    }
  }
}
