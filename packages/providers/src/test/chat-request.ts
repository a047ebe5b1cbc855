import type { ProviderChatRequest } from '../provider.js';

/** The request adapter tests start from: system "Be brief.", user "Hi", not streamed, one choice, usage asked for. */
export function chatRequest(model: string): ProviderChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ],
    stream: false,
    n: 1,
    includeUsage: true,
  };
}

/** A described tool with one required string parameter, `location`. */
export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};
