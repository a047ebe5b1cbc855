import type { Provider, ProviderSettings } from '../provider.js';
import { keyedTarget } from '../shared/keyed-target.js';
import { noChat } from '../shared/speech-only.js';
import { elevenlabsTranscribe } from './elevenlabs-stt.js';
import { elevenlabsSpeak } from './elevenlabs-tts.js';

/** Default endpoint; `settings.baseUrl` replaces it and excludes the version (`/v1`), like ElevenLabs' SDKs. */
export const ELEVENLABS_BASE_URL = 'https://api.elevenlabs.io';

/**
 * ElevenLabs, id `elevenlabs`: text to speech (`POST {baseUrl}/v1/text-to-speech/{voice_id}`,
 * `speech`) and Scribe speech to text (`POST {baseUrl}/v1/speech-to-text`, `recognize`). Keys go
 * in `xi-api-key`. It serves no chat models.
 */
export function createElevenLabsProvider(settings: ProviderSettings): Provider {
  const target = keyedTarget('elevenlabs', settings, ELEVENLABS_BASE_URL, (key) => ({ 'xi-api-key': key }));
  return {
    id: 'elevenlabs',
    ...noChat('elevenlabs'),
    recognize: (request, options) => elevenlabsTranscribe(target, request, options),
    speech: (request, options) => elevenlabsSpeak(target, request, options),
  };
}
