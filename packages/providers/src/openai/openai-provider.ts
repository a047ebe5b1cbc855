import type { CallOptions, Provider, ProviderSettings } from '../provider.js';
import { resolveHttpClient } from '../shared/http.js';
import { KeyPool } from '../shared/key-pool.js';
import { openAIBatches } from './openai-batches.js';
import { openAIChat } from './openai-chat.js';
import { type OpenAICompatibility, resolveCompatibility } from './openai-compatibility.js';
import type { OpenAIConfig } from './openai-config.js';
import { openAIEmbed } from './openai-embed.js';
import { classifyOpenAIError } from './openai-error.js';
import { openAIGenerateImages } from './openai-images.js';
import { openAIModerate } from './openai-moderation.js';
import { openAIRealtime } from './openai-realtime.js';
import { openAIRecognize } from './openai-recognize.js';
import { openAISpeech } from './openai-speech.js';
import { openAITranscribe } from './openai-transcription.js';
import { openAIStream } from './openai-stream.js';

/** Settings of an OpenAI or OpenAI-compatible provider. */
export interface OpenAIProviderSettings extends ProviderSettings {
  /** Provider id (`<provider>` of model slugs). Default `openai`; e.g. `groq` for a compatible vendor. */
  id?: string;
  /**
   * Base URL INCLUDING the version path; `/chat/completions` (and `/embeddings`) is appended.
   * Default `https://api.openai.com/v1`.
   */
  baseUrl?: string;
  /** Vendor differences from the OpenAI wire format. */
  compatibility?: OpenAICompatibility;
}

export const defaultOpenAIBaseUrl = 'https://api.openai.com/v1';

/**
 * The OpenAI chat-completions adapter; with `id`, `baseUrl` and `compatibility` it also serves
 * every vendor that speaks the same wire format. Keys rotate round-robin unless the call names
 * one (`options.apiKey`). With no keys at all (a local server such as Ollama or vLLM) no
 * Authorization header is sent. `embed` (`POST {baseUrl}/embeddings`) is there unless the
 * compatibility says the vendor has no embeddings; `transcribe` and `recognize`
 * (`/audio/transcriptions`, `/audio/translations`) where it says the vendor has them (OpenAI,
 * Groq); `moderate` (`/moderations`), `speech` (`/audio/speech`), `generateImages`
 * (`/images/generations`) and `realtime` (the `/realtime` WebSocket) only on OpenAI itself.
 */
export function createOpenAIProvider(settings: OpenAIProviderSettings): Provider {
  const id = settings.id ?? 'openai';
  const pool = settings.apiKeys.length > 0 ? new KeyPool(settings.apiKeys) : undefined;
  const baseHeaders = settings.headers ?? {};
  const base = (settings.baseUrl ?? defaultOpenAIBaseUrl).replace(/\/+$/, '');
  const config: OpenAIConfig = {
    provider: id,
    url: `${base}/chat/completions`,
    http: resolveHttpClient(settings),
    compat: resolveCompatibility(id, settings.compatibility),
    headers(options: CallOptions | undefined): Record<string, string> {
      const key = options?.apiKey ?? pool?.take().key;
      const headers = options?.headers === undefined ? { ...baseHeaders } : { ...baseHeaders, ...options.headers };
      if (key !== undefined) headers.authorization = `Bearer ${key}`;
      return headers;
    },
  };
  const embedUrl = `${base}/embeddings`;
  return {
    id,
    // The shared undici client keeps the first-byte bound itself: no signal of the caller's own per call.
    boundsFirstByte: config.http.boundsFirstByte === true,
    chat: (request, options) => openAIChat(config, request, options),
    stream: (request, options) => openAIStream(config, request, options),
    ...(config.compat.embeddings
      ? {
          embed: (request, options) =>
            openAIEmbed(
              { provider: id, http: config.http, url: embedUrl, headers: config.headers(options), model: request.model, compat: config.compat, classify: classifyOpenAIError },
              request,
              options,
            ),
        }
      : {}),
    ...(config.compat.transcriptions
      ? {
          transcribe: (request, options) => openAITranscribe({ provider: id, http: config.http, base, headers: config.headers(options) }, request, options),
          recognize: (request, options) => openAIRecognize({ provider: id, http: config.http, base, headers: config.headers(options) }, request, options),
        }
      : {}),
    // Moderation, speech, images and realtime are OpenAI's own endpoints; compatible vendors do not share them.
    ...(id === 'openai'
      ? {
          moderate: (request, options) => openAIModerate({ provider: id, http: config.http, url: `${base}/moderations`, headers: config.headers(options) }, request, options),
          speech: (request, options) => openAISpeech({ provider: id, http: config.http, url: `${base}/audio/speech`, headers: config.headers(options) }, request, options),
          generateImages: (request, options) =>
            openAIGenerateImages(
              { provider: id, http: config.http, url: `${base}/images/generations`, headers: config.headers(options), model: request.model, classify: classifyOpenAIError },
              request,
              options,
            ),
          realtime: (request, options) => openAIRealtime({ provider: id, base, headers: config.headers(options) }, request, options),
          batches: openAIBatches({ config, base, pool }),
        }
      : {}),
  };
}
