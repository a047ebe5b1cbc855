import type { Catalog, ModelInfo } from '@svc/catalog';
import { invalidRequest, noProviderConfigured } from '@svc/core';
import { namedModel } from './named-model.js';

/** USD per minute of a speech-to-text model (its hourly rate's share when it publishes one). */
function perMinute(model: ModelInfo): number {
  const prices = model.unitPrices;
  return prices?.perMinute ?? (prices?.perHour === undefined ? Number.POSITIVE_INFINITY : prices.perHour / 60);
}

function speaks(model: ModelInfo, language: string): boolean {
  const languages = model.voice?.languages ?? 'multilingual';
  return languages === 'multilingual' || languages.includes(language);
}

/** The cheapest of `models` by `price`; the first listed wins a tie (catalog order). */
function cheapest(models: readonly ModelInfo[], price: (model: ModelInfo) => number): ModelInfo | undefined {
  let best: ModelInfo | undefined;
  for (const model of models) if (best === undefined || price(model) < price(best)) best = model;
  return best;
}


/**
 * The speech-to-text model of a voice request. Named (`stt_model`): that model, which must take
 * the language. Else by language (spec §Voice endpoints): English or unspecified goes to the
 * cheapest configured low-latency model, another language to the cheapest configured classic
 * multilingual one (not flagged low latency); failing those, the cheapest that takes the language.
 *
 * @throws GatewayError 404 `model_not_found` (param `stt_model`); 400 (param `language`) for a
 *   language the named model does not take; 500 `no_provider_configured` when no configured
 *   model takes the language.
 */
export function chooseSttModel(catalog: Catalog, requested: string | undefined, language: string | undefined): ModelInfo {
  if (requested !== undefined) {
    const model = namedModel(catalog, requested, 'transcription', { aModel: 'a configured speech-to-text model', param: 'stt_model' });
    if (language !== undefined && !speaks(model, language)) throw invalidRequest(`${model.id} does not transcribe '${language}'.`, 'language');
    return model;
  }
  const english = language === undefined || language === 'en';
  const able = catalog.list({ kind: 'transcription' }).filter((m) => speaks(m, language ?? 'en'));
  const preferred = able.filter((m) => (english ? m.voice?.lowLatency === true : m.voice?.lowLatency !== true));
  const model = cheapest(preferred, perMinute) ?? cheapest(able, perMinute);
  if (!model) throw noProviderConfigured(`No speech-to-text model is configured${language ? ` for '${language}'` : ''}: set a provider key (OPENAI, GROQ, DEEPGRAM or ELEVENLABS).`);
  return model;
}

/**
 * The text-to-speech model of a voice request: the one named (`param` names the field), or the
 * cheapest configured one per character, of `provider` when that is set.
 *
 * @throws GatewayError 404 `model_not_found` (param `param`); 400 (param `provider`) when the
 *   named model is another provider's, or the provider has no configured text-to-speech model;
 *   500 `no_provider_configured` when none is configured at all.
 */
export function chooseTtsModel(catalog: Catalog, requested: string | undefined, provider: string | undefined, param: string): ModelInfo {
  if (requested !== undefined) {
    const model = namedModel(catalog, requested, 'speech', { aModel: 'a configured text-to-speech model', param });
    if (provider !== undefined && model.provider !== provider) throw invalidRequest(`${model.id} is not a model of provider '${provider}'.`, 'provider');
    return model;
  }
  const models = catalog.list(provider === undefined ? { kind: 'speech' } : { kind: 'speech', provider });
  const model = cheapest(models, (m) => m.unitPrices?.perMChars ?? Number.POSITIVE_INFINITY);
  if (model) return model;
  if (provider !== undefined) throw invalidRequest(`Provider '${provider}' has no configured text-to-speech model.`, 'provider');
  throw noProviderConfigured('No text-to-speech model is configured: set a provider key (OPENAI, DEEPGRAM or ELEVENLABS).');
}
