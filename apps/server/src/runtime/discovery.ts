import { type ModelDefaults, type ModelInfo, builtInModels, modelFromDefaults } from '@svc/catalog';
import type { CompatibleProviderConfig } from '@svc/providers';
import type { Logger } from '@svc/telemetry';
import * as v from 'valibot';

/** OpenAI's `GET /models` answer: only the ids are read. */
const modelList = v.object({ data: v.array(v.object({ id: v.pipe(v.string(), v.minLength(1)) })) });

/** Providers the catalog already describes (groq, mistral, ...): their lists are not read. */
const describedProviders: ReadonlySet<string> = new Set(builtInModels.map((model) => model.provider));

export interface DiscoveryOptions {
  fetch: typeof globalThis.fetch;
  logger: Logger;
  /** Longest wait for one provider's list. */
  timeoutMs: number;
}

/** What one provider's list said: how many models it serves, or why it could not be read. */
export interface ProviderDiscovery {
  provider: string;
  url: string;
  /** Models listed; null when the list could not be read (its earlier models are kept). */
  models: number | null;
  error?: string;
}

export interface Discovery {
  models: ModelInfo[];
  providers: ProviderDiscovery[];
}

/**
 * The models OpenAI-compatible providers the catalog does not describe (self-hosted vLLM, SGLang,
 * llama.cpp: an id with a `base_url`) say they serve, read from their `GET <base_url>/models` at
 * start and on an admin refresh: chat entries `<provider>/<id>` (source `discovered`) built from
 * the provider's `model_defaults`, unpriced without prices. A provider that cannot be read is
 * logged and keeps its models of `previous` (at start none: they can still be named, as
 * pass-through); no list is waited on longer than `timeoutMs`.
 */
export async function discoverModels(
  providers: readonly CompatibleProviderConfig[],
  defaults: Readonly<Record<string, ModelDefaults>>,
  options: DiscoveryOptions,
  previous: readonly ModelInfo[] = [],
): Promise<Discovery> {
  const targets = providers.filter((provider) => provider.baseUrl !== undefined && !describedProviders.has(provider.id));
  const lists = await Promise.all(targets.map((provider) => listModels(provider, options)));
  const found = targets.map((provider, i) => {
    const list = lists[i]!;
    if (typeof list === 'string') return previous.filter((model) => model.provider === provider.id);
    return list.map((id) => modelFromDefaults(provider.id, id, defaults[provider.id], 'discovered'));
  });
  return {
    models: found.flat(),
    providers: targets.map((provider, i) => {
      const list = lists[i]!;
      const url = modelsUrl(provider);
      return typeof list === 'string' ? { provider: provider.id, url, models: null, error: list } : { provider: provider.id, url, models: list.length };
    }),
  };
}

const modelsUrl = (provider: CompatibleProviderConfig): string => `${provider.baseUrl!.replace(/\/+$/, '')}/models`;

/** The ids a provider lists, or why they could not be read. */
async function listModels(provider: CompatibleProviderConfig, options: DiscoveryOptions): Promise<string[] | string> {
  const url = modelsUrl(provider);
  const key = provider.apiKeys?.[0];
  try {
    const response = await options.fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(options.timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const parsed = v.safeParse(modelList, await response.json());
    if (!parsed.success) throw new Error('the answer is not an OpenAI model list');
    return [...new Set(parsed.output.data.map((model) => model.id))];
  } catch (error) {
    options.logger.warn({ err: error, provider: provider.id }, `model discovery: could not read ${url}; its models are served only when named (pass-through)`);
    return (error as Error).message;
  }
}
