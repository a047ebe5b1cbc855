import { ProviderError } from '@svc/core';
import type { Provider } from '../provider.js';

/**
 * `chat` and `stream` of a provider that serves speech models only (Deepgram, ElevenLabs): the
 * catalog lists no chat model of theirs, so routing never calls them; a direct call is refused
 * with an error that says why, not sent anywhere.
 */
export function noChat(provider: string): Pick<Provider, 'chat' | 'stream'> {
  const refuse = () => Promise.reject(new ProviderError({ provider, kind: 'invalid_request', message: `${provider} serves speech models only: it has no chat models.` }));
  return { chat: refuse, stream: refuse };
}
