import type { Provider, ProviderSettings } from '../provider.js';
import { keyedTarget } from '../shared/keyed-target.js';
import { noChat } from '../shared/speech-only.js';
import { deepgramListen } from './deepgram-listen.js';
import { deepgramSpeak } from './deepgram-speak.js';

/** Default endpoint; `settings.baseUrl` replaces it and excludes the version (`/v1`), like Deepgram's SDKs. */
export const DEEPGRAM_BASE_URL = 'https://api.deepgram.com';

/**
 * Deepgram, id `deepgram`: pre-recorded speech to text (`POST {baseUrl}/v1/listen`, `recognize`)
 * and Aura text to speech (`POST {baseUrl}/v1/speak`, `speech`). Keys go in
 * `Authorization: Token <key>`. It serves no chat models.
 */
export function createDeepgramProvider(settings: ProviderSettings): Provider {
  const target = keyedTarget('deepgram', settings, DEEPGRAM_BASE_URL, (key) => ({ authorization: `Token ${key}` }));
  return {
    id: 'deepgram',
    ...noChat('deepgram'),
    recognize: (request, options) => deepgramListen(target, request, options),
    speech: (request, options) => deepgramSpeak(target, request, options),
  };
}
