import { bench, describe } from 'vitest';
import { decodeChatRequest } from './decode-chat-request.js';

/** A typical request: system prompt, a short exchange, sampling knobs, streaming with usage. */
const typical = {
  model: 'svc/auto',
  messages: [
    { role: 'system', content: 'You are a helpful assistant that answers briefly and precisely.' },
    { role: 'assistant', content: 'Hello! How can I help you today?' },
    { role: 'user', content: 'Summarise the plot of Hamlet in two sentences, please.' },
  ],
  temperature: 0.7,
  max_tokens: 256,
  stream: true,
  stream_options: { include_usage: true },
  user: 'user-1234',
};

const withTools = {
  ...typical,
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ],
  tool_choice: 'auto',
  routing_hints: { mode: 'balanced', preference_dial: 0.6, max_tier: 2 },
  svc: { intelligence_mode: 'cache', enable_cache: true },
};

describe('decodeChatRequest', () => {
  bench('typical 3-message request', () => {
    decodeChatRequest(typical);
  });
  bench('3 messages + tools + routing_hints + svc', () => {
    decodeChatRequest(withTools);
  });
});
