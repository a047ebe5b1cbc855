import type { ChatMessage, ToolDefinition } from '@svc/core';

export const ephemeral = { type: 'ephemeral' } as const;

/** A coding agent's turn: breakpoints on the system prompt, a tool, user text and image, a tool result, an assistant turn. */
export const cachedConversation: { messages: ChatMessage[]; tools: ToolDefinition[] } = {
  tools: [
    { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'write_file', parameters: { type: 'object' }, cacheControl: { type: 'ephemeral', ttl: '1h' } },
  ],
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }, { type: 'text', text: 'Repository map ...', cacheControl: { type: 'ephemeral', ttl: '1h' } }] },
    { role: 'user', content: [{ type: 'text', text: 'Open main.ts' }, { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=', cacheControl: ephemeral }] },
    { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"main.ts"}' }], cacheControl: ephemeral },
    { role: 'tool', toolCallId: 'toolu_1', content: 'export {}', cacheControl: ephemeral },
    { role: 'user', content: [{ type: 'text', text: 'Now add a test.', cacheControl: ephemeral }] },
  ],
};

