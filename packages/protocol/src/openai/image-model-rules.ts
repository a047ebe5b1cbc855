import { invalidRequest } from '@svc/core';

/** What one OpenAI image model accepts on `POST /v1/images/generations` (OpenAI's API reference). */
export interface ImageModelRules {
  /** The model's name in messages (`dall-e-3`), or a description for unknown models. */
  name: string;
  /** Most images one request may ask for. */
  maxN: number;
  sizes: readonly string[];
  /** Sent when the request names none, so what is priced is what is drawn. Absent: the upstream decides. */
  defaultSize?: string;
  /** Empty: the model takes no `quality`. */
  qualities: readonly string[];
  defaultQuality?: string;
  /** Whether `style` (vivid, natural) applies. */
  styles: boolean;
  maxPromptChars: number;
  /** Whether the GPT image options (`output_format`, `background`, `moderation`, `output_compression`) apply. */
  gptImage: boolean;
}

const dalle3: ImageModelRules = {
  name: 'dall-e-3',
  maxN: 1,
  sizes: ['1024x1024', '1024x1792', '1792x1024'],
  defaultSize: '1024x1024',
  qualities: ['standard', 'hd'],
  defaultQuality: 'standard',
  styles: true,
  maxPromptChars: 4000,
  gptImage: false,
};

const dalle2: ImageModelRules = {
  name: 'dall-e-2',
  maxN: 10,
  sizes: ['256x256', '512x512', '1024x1024'],
  defaultSize: '1024x1024',
  qualities: [],
  styles: false,
  maxPromptChars: 1000,
  gptImage: false,
};

const gptImage1: ImageModelRules = {
  name: 'gpt-image-1',
  maxN: 10,
  sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
  defaultSize: 'auto',
  qualities: ['low', 'medium', 'high', 'auto'],
  defaultQuality: 'auto',
  styles: false,
  maxPromptChars: 32_000,
  gptImage: true,
};

/** A model the gateway does not know by name (an operator's own): the union of the known rules, the upstream has the last word. */
const anyImageModel: ImageModelRules = {
  name: 'this model',
  maxN: 10,
  sizes: [...new Set([...dalle3.sizes, ...dalle2.sizes, ...gptImage1.sizes])],
  qualities: [...dalle3.qualities, ...gptImage1.qualities],
  styles: true,
  maxPromptChars: 32_000,
  gptImage: true,
};

const byName: ReadonlyMap<string, ImageModelRules> = new Map([
  ['dall-e-3', dalle3],
  ['dall-e-2', dalle2],
  ['gpt-image-1', gptImage1],
]);

/**
 * The rules of the model a request names: by its bare name, so `dall-e-3`, `openai/dall-e-3`
 * and `azure/dall-e-3` are one model. No model: DALL·E 3, the endpoint's default.
 */
export function imageModelRules(model: string | undefined): ImageModelRules {
  if (model === undefined) return dalle3;
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  return byName.get(name) ?? anyImageModel;
}

function list(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

/** The options of a request, in wire names; null is absence (as the wire schema reads it). */
export interface ImageOptions {
  prompt: string;
  n: number;
  size?: string | null;
  quality?: string | null;
  style?: string | null;
  output_format?: string | null;
  background?: string | null;
  moderation?: string | null;
  output_compression?: number | null;
}

const gptImageOptions = ['output_format', 'background', 'moderation', 'output_compression'] as const;

/**
 * Checks the options against the model's rules.
 *
 * @throws GatewayError 400 naming the param: `n` above the model's most (DALL·E 3: 1), a `size`
 *   the model does not draw, `quality` or `style` on a model without them (DALL·E 2), a GPT
 *   image option on DALL·E, a prompt longer than the model reads.
 */
export function checkImageOptions(rules: ImageModelRules, options: ImageOptions): void {
  if (options.prompt.length > rules.maxPromptChars) {
    throw invalidRequest(`Invalid 'prompt': must be at most ${rules.maxPromptChars} characters for ${rules.name} (got ${options.prompt.length}).`, 'prompt');
  }
  if (options.n > rules.maxN) {
    throw invalidRequest(`Invalid 'n': ${rules.maxN === 1 ? 'must be 1' : `must be at most ${rules.maxN}`} for ${rules.name} (got ${options.n}).`, 'n');
  }
  if (options.size != null && !rules.sizes.includes(options.size)) {
    throw invalidRequest(`Invalid 'size': must be one of ${list(rules.sizes)} for ${rules.name} (got '${options.size}').`, 'size');
  }
  if (options.quality != null && !rules.qualities.includes(options.quality)) {
    throw invalidRequest(
      rules.qualities.length === 0
        ? `'quality' is not supported by ${rules.name}; dall-e-3 and gpt-image-1 take it.`
        : `Invalid 'quality': must be one of ${list(rules.qualities)} for ${rules.name} (got '${options.quality}').`,
      'quality',
    );
  }
  if (options.style != null && !rules.styles) throw invalidRequest(`'style' is not supported by ${rules.name}; only dall-e-3 takes it.`, 'style');
  if (!rules.gptImage) {
    for (const param of gptImageOptions) {
      if (options[param] != null) throw invalidRequest(`'${param}' is not supported by ${rules.name}; only GPT image models (gpt-image-1) take it.`, param);
    }
  }
}
