import { type Capability, type ModelInfo, type ModelKind, type UnitPrices, type VoiceSpec, modelKinds } from './model.js';

const kinds: ReadonlySet<ModelKind> = new Set<ModelKind>(modelKinds);
const tiers: ReadonlySet<string> = new Set(['T1', 'T2', 'T3']);
const capabilities: ReadonlySet<Capability> = new Set<Capability>(['tools', 'vision', 'json', 'reasoning', 'audio']);
const prices = ['inputPricePerMTok', 'outputPricePerMTok', 'cachedInputPricePerMTok', 'cacheWritePricePerMTok', 'audioInputPricePerMTok'] as const;

/** Keys a model given in full (an operator override that adds a model) must carry. */
export const requiredModelKeys = [
  'id',
  'provider',
  'upstreamId',
  'family',
  'kind',
  'tier',
  'contextWindow',
  'maxOutputTokens',
  'inputPricePerMTok',
  'outputPricePerMTok',
  'capabilities',
  'free',
  'openWeight',
  'created',
  'qualityPrior',
] as const satisfies readonly (keyof ModelInfo)[];

function fail(id: unknown, problem: string): never {
  throw new Error(`Invalid catalog model ${JSON.stringify(id)}: ${problem}`);
}

function isNonNegative(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * Checks one model's fields, throwing an Error that names the model. The checks run at catalog
 * construction, which is where operator-supplied overrides (JSON/YAML config) enter.
 */
export function validateModel(model: ModelInfo): void {
  const { id, provider } = model;
  if (typeof id !== 'string' || id.length === 0) fail(id, 'id must be a non-empty string');
  if (typeof provider !== 'string' || provider.length === 0) fail(id, 'provider must be a non-empty string');
  if (!id.startsWith(`${provider}/`) || id.length === provider.length + 1) {
    fail(id, `id must be "<provider>/<model>" with provider "${provider}"`);
  }
  if (typeof model.upstreamId !== 'string' || model.upstreamId.length === 0) fail(id, 'upstreamId must be non-empty');
  if (typeof model.family !== 'string' || model.family.length === 0) fail(id, 'family must be non-empty');
  if (!kinds.has(model.kind)) fail(id, `kind must be one of ${[...kinds].join(', ')} (got ${JSON.stringify(model.kind)})`);
  if (!tiers.has(model.tier)) fail(id, `tier must be T1, T2 or T3 (got ${JSON.stringify(model.tier)})`);
  if (!(typeof model.contextWindow === 'number' && Number.isFinite(model.contextWindow) && model.contextWindow > 0)) {
    fail(id, `contextWindow must be a positive number (got ${String(model.contextWindow)})`);
  }
  if (!isNonNegative(model.maxOutputTokens) || (model.kind === 'chat' && model.maxOutputTokens === 0)) {
    fail(id, `maxOutputTokens must be positive for chat models (got ${String(model.maxOutputTokens)})`);
  }
  for (const key of prices) {
    const value = model[key];
    if (value === undefined && key !== 'inputPricePerMTok' && key !== 'outputPricePerMTok') continue;
    if (!isNonNegative(value)) fail(id, `${key} must be a non-negative number (got ${String(value)})`);
  }
  if (!Array.isArray(model.capabilities) || !model.capabilities.every((c) => capabilities.has(c))) {
    fail(id, `capabilities must be a list of ${[...capabilities].join(', ')}`);
  }
  if (typeof model.free !== 'boolean' || typeof model.openWeight !== 'boolean') {
    fail(id, 'free and openWeight must be booleans');
  }
  if (model.kind === 'embedding' && !(typeof model.dimensions === 'number' && model.dimensions > 0)) {
    fail(id, 'embedding models need positive dimensions');
  }
  if (model.kind === 'image' && Object.keys(model.unitPrices?.perImage ?? {}).length === 0) {
    fail(id, 'image models need unitPrices.perImage (USD per image by size or quality:size)');
  }
  if (model.routable !== undefined && typeof model.routable !== 'boolean') fail(id, 'routable must be a boolean');
  if (model.batchPriceFactor !== undefined && !(isNonNegative(model.batchPriceFactor) && model.batchPriceFactor > 0 && model.batchPriceFactor <= 1)) {
    fail(id, `batchPriceFactor must be within (0, 1] (got ${String(model.batchPriceFactor)})`);
  }
  if (model.unpriced !== undefined && typeof model.unpriced !== 'boolean') fail(id, 'unpriced must be a boolean');
  if (model.unitPrices !== undefined) validateUnitPrices(id, model.unitPrices);
  if (model.retiresAt !== undefined && Number.isNaN(Date.parse(model.retiresAt))) fail(id, `retiresAt must be an ISO 8601 date (got ${JSON.stringify(model.retiresAt)})`);
  if (model.deprecatedAt !== undefined && Number.isNaN(Date.parse(model.deprecatedAt))) fail(id, `deprecatedAt must be an ISO 8601 date (got ${JSON.stringify(model.deprecatedAt)})`);
  if (model.replacement !== undefined && (typeof model.replacement !== 'string' || model.replacement === id)) fail(id, 'replacement must be another model id');
  if (model.voice !== undefined) validateVoice(id, model.kind, model.voice);
  if (!isNonNegative(model.created)) fail(id, 'created must be unix seconds');
  if (!(isNonNegative(model.qualityPrior) && model.qualityPrior <= 1)) {
    fail(id, `qualityPrior must be within 0..1 (got ${String(model.qualityPrior)})`);
  }
}

function validateUnitPrices(id: string, prices: UnitPrices): void {
  for (const key of ['perMinute', 'perHour', 'perMChars', 'audioInputPerMTok', 'cachedAudioInputPerMTok', 'audioOutputPerMTok'] as const) {
    const value = prices[key];
    if (value !== undefined && !isNonNegative(value)) fail(id, `unitPrices.${key} must be a non-negative number (got ${String(value)})`);
  }
  for (const [key, price] of Object.entries(prices.perImage ?? {})) {
    if (!isNonNegative(price)) fail(id, `unitPrices.perImage[${JSON.stringify(key)}] must be a non-negative number (got ${String(price)})`);
  }
}

/** `<format>_<sample rate>`: lowercase letters and digits, an underscore, the rate in Hz. */
const outputFormatPattern = /^[a-z][a-z0-9]*_\d{4,6}$/;
const languagePattern = /^[a-z]{2,3}$/;

function validateVoice(id: string, kind: ModelKind, voice: VoiceSpec): void {
  if (kind !== 'speech' && kind !== 'transcription') fail(id, `only speech and transcription models carry a voice spec (kind ${kind})`);
  const { languages } = voice;
  if (languages !== 'multilingual' && !(Array.isArray(languages) && languages.length > 0 && languages.every((l) => languagePattern.test(l)))) {
    fail(id, 'voice.languages must be "multilingual" or a non-empty list of ISO 639-1 codes');
  }
  if (kind !== 'speech') return;
  const formats = voice.outputFormats;
  if (!(Array.isArray(formats) && formats.length > 0 && formats.every((f) => outputFormatPattern.test(f)))) {
    fail(id, 'voice.outputFormats must list formats such as mp3_44100 (the first is the default)');
  }
  const listed = Array.isArray(voice.voices) && voice.voices.length > 0;
  if (!listed && !(voice.defaultVoice && voice.voicePattern)) fail(id, 'voice.voices, or voice.defaultVoice with voice.voicePattern, is required for speech models');
  if (voice.voicePattern !== undefined) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(voice.voicePattern);
    } catch {
      fail(id, 'voice.voicePattern must be a valid regular expression');
    }
    if (voice.defaultVoice !== undefined && !pattern.test(voice.defaultVoice)) fail(id, 'voice.defaultVoice must match voice.voicePattern');
  }
  if (!(typeof voice.maxChars === 'number' && Number.isInteger(voice.maxChars) && voice.maxChars > 0)) fail(id, 'voice.maxChars must be a positive integer');
}

/** Validates every model and that ids are unique. */
export function validateModels(models: readonly ModelInfo[]): void {
  const seen = new Set<string>();
  for (const model of models) {
    validateModel(model);
    if (seen.has(model.id)) fail(model.id, 'duplicate id');
    seen.add(model.id);
  }
}
