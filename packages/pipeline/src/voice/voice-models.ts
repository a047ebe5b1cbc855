import type { ModelInfo } from '@svc/catalog';
import { invalidRequest } from '@svc/core';
import type { SpeechFormat } from '@svc/providers';

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
