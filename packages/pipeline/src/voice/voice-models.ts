import type { Catalog, ModelInfo } from '@svc/catalog';
import { invalidRequest, noProviderConfigured } from '@svc/core';
import type { SpeechFormat } from '@svc/providers';

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

/** A speech model of `kind` the client named, by slug or upstream name. */
function named(catalog: Catalog, requested: string, kind: 'transcription' | 'speech', param: string): ModelInfo {
  const model = catalog.resolve(requested);
  if (model?.kind !== kind) {
    const what = kind === 'speech' ? 'text-to-speech' : 'speech-to-text';
    throw invalidRequest(`The model '${requested}' does not exist or is not a configured ${what} model. GET /v1/models lists the available models.`, param, 'model_not_found');
  }
  return model;
}

/**
 * The speech-to-text model of a voice request. Named (`stt_model`): that model, which must take
 * the language. Else by language (spec §Voice endpoints): English or unspecified goes to the
 * cheapest configured low-latency model, another language to the cheapest configured classic
 * multilingual one (not flagged low latency); failing those, the cheapest that takes the language.
 *
 * @throws GatewayError 400 `model_not_found` (param `stt_model`); 400 (param `language`) for a
 *   language the named model does not take; 500 `no_provider_configured` when no configured
 *   model takes the language.
 */
export function chooseSttModel(catalog: Catalog, requested: string | undefined, language: string | undefined): ModelInfo {
  if (requested !== undefined) {
    const model = named(catalog, requested, 'transcription', 'stt_model');
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
 * @throws GatewayError 400 `model_not_found` (param `param`); 400 (param `provider`) when the
 *   named model is another provider's, or the provider has no configured text-to-speech model;
 *   500 `no_provider_configured` when none is configured at all.
 */
export function chooseTtsModel(catalog: Catalog, requested: string | undefined, provider: string | undefined, param: string): ModelInfo {
  if (requested !== undefined) {
    const model = named(catalog, requested, 'speech', param);
    if (provider !== undefined && model.provider !== provider) throw invalidRequest(`${model.id} is not a model of provider '${provider}'.`, 'provider');
    return model;
  }
  const models = catalog.list(provider === undefined ? { kind: 'speech' } : { kind: 'speech', provider });
  const model = cheapest(models, (m) => m.unitPrices?.perMChars ?? Number.POSITIVE_INFINITY);
  if (model) return model;
  if (provider !== undefined) throw invalidRequest(`Provider '${provider}' has no configured text-to-speech model.`, 'provider');
  throw noProviderConfigured('No text-to-speech model is configured: set a provider key (OPENAI, DEEPGRAM or ELEVENLABS).');
}

/** How one synthesis is asked of the provider: the voice, the format and its sample rate. */
export interface SynthesisPlan {
  voice: string;
  format: SpeechFormat;
  sampleRate: number;
  /** `<format>_<rate>`, as the client names it. */
  outputFormat: string;
}

/** Field names of the request the plan's errors name (`text`, `voice`, `output_format`). */
const fields = { text: 'text', voice: 'voice', outputFormat: 'output_format' } as const;

/**
 * Checks a synthesis against the model's voice spec and fills the defaults: `voice` one of the
 * model's (or of its library's shape), `output_format` one of its formats, `text` within its
 * longest. Nothing here calls a provider.
 *
 * @throws GatewayError 400 naming `voice`, `output_format` or `text` (`textParam`).
 */
export function planSynthesis(model: ModelInfo, request: { text?: string; voice?: string; outputFormat?: string }, textParam: string = fields.text): SynthesisPlan {
  const spec = model.voice;
  const formats = spec?.outputFormats ?? [];
  if (!spec || formats.length === 0) throw invalidRequest(`${model.id} has no voice spec in the catalog, so the voice endpoints cannot use it.`, 'model');
  if (request.text !== undefined && spec.maxChars !== undefined && request.text.length > spec.maxChars) {
    throw invalidRequest(`'${textParam}' is ${request.text.length} characters; ${model.id} takes at most ${spec.maxChars}.`, textParam);
  }
  const voice = checkVoice(model, request.voice);
  const outputFormat = request.outputFormat ?? formats[0]!;
  if (!formats.includes(outputFormat)) throw invalidRequest(`${model.id} does not produce '${outputFormat}'; use one of ${formats.join(', ')}.`, fields.outputFormat);
  const separator = outputFormat.lastIndexOf('_');
  return { voice, format: outputFormat.slice(0, separator) as SpeechFormat, sampleRate: Number(outputFormat.slice(separator + 1)), outputFormat };
}

/**
 * The voice to speak with: the one asked for when the model has it (a listed voice, or an id of
 * its library's shape), else its default.
 *
 * @throws GatewayError 400 (param `voice`) for a voice the model does not have.
 */
export function checkVoice(model: ModelInfo, voice: string | undefined): string {
  const spec = model.voice;
  const listed = spec?.voices;
  if (voice === undefined) {
    const fallback = listed?.[0] ?? spec?.defaultVoice;
    if (fallback === undefined) throw invalidRequest(`${model.id} has no default voice: name one.`, fields.voice);
    return fallback;
  }
  if (listed && listed.length > 0) {
    if (!listed.includes(voice)) throw invalidRequest(`${model.id} has no voice '${voice.slice(0, 60)}'; use one of ${listed.join(', ')}.`, fields.voice);
    return voice;
  }
  if (spec?.voicePattern !== undefined && !voicePattern(spec.voicePattern).test(voice)) {
    throw invalidRequest(`'${voice.slice(0, 60)}' is not a voice id of ${model.provider} (it must match ${spec.voicePattern}).`, fields.voice);
  }
  return voice;
}

/** Compiled voice-id patterns, by source (a handful per catalog). */
const patterns = new Map<string, RegExp>();

function voicePattern(source: string): RegExp {
  let pattern = patterns.get(source);
  if (!pattern) {
    pattern = new RegExp(source);
    patterns.set(source, pattern);
  }
  return pattern;
}
