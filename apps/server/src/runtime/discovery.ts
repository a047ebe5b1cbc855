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

/**
 * The models OpenAI-compatible providers the catalog does not describe (self-hosted vLLM, SGLang,
 * llama.cpp: an id with a `base_url`) say they serve, read from their `GET <base_url>/models` at
 * start: chat entries `<provider>/<id>` (source `discovered`) built from the provider's
 * `model_defaults`, unpriced without prices. A provider that cannot be read is logged and skipped
 * (its models can still be named: they pass through); the start never waits longer than `timeoutMs`.
 */
export async function discoverModels(providers: readonly CompatibleProviderConfig[], defaults: Readonly<Record<string, ModelDefaults>>, options: DiscoveryOptions): Promise<ModelInfo[]> {
  const targets = providers.filter((provider) => provider.baseUrl !== undefined && !describedProviders.has(provider.id));
  const lists = await Promise.all(targets.map((provider) => listModels(provider, options)));
  return targets.flatMap((provider, i) => (lists[i] ?? []).map((id) => modelFromDefaults(provider.id, id, defaults[provider.id], 'discovered')));
}

async function listModels(provider: CompatibleProviderConfig, options: DiscoveryOptions): Promise<string[] | undefined> {
  const url = `${provider.baseUrl!.replace(/\/+$/, '')}/models`;
  const key = provider.apiKeys?.[0];
  try {
    const response = await options.fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(options.timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const parsed = v.safeParse(modelList, await response.json());
    if (!parsed.success) throw new Error('the answer is not an OpenAI model list');
    return [...new Set(parsed.output.data.map((model) => model.id))];
  } catch (error) {
    options.logger.warn({ err: error, provider: provider.id }, `model discovery: could not read ${url}; its models are served only when named (pass-through)`);
    return undefined;
  }
}
