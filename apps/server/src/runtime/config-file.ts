import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { modelDefaultsSchema, modelEntrySchema } from '@svc/catalog';
import { FLAG_KEYS } from '@svc/pipeline';
import { ConfigError } from './env.js';

const keyList = v.union([v.pipe(v.string(), v.transform((value) => value.split(',').map((k) => k.trim()).filter(Boolean))), v.array(v.string())]);

/** Exported for the test that keeps docs/svc.config.example.yaml complete. */
export const providerSchema = v.strictObject({
  api_keys: v.optional(keyList),
  base_url: v.optional(v.pipe(v.string(), v.url('base_url must be a URL'))),
  /** Azure OpenAI: `api-version` and model -> deployment names. */
  api_version: v.optional(v.pipe(v.string(), v.minLength(1))),
  deployments: v.optional(v.record(v.string(), v.string())),
  /** Longest wait for this provider's first stream event, ms (overrides SVC_FIRST_BYTE_TIMEOUT_MS). */
  first_byte_timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** Prices, limits and capabilities of this provider's models the catalog does not list (passed through or discovered). */
  model_defaults: v.optional(modelDefaultsSchema),
});

export const mockSchema = v.strictObject({
  enabled: v.optional(v.boolean()),
  latency_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
  tokens_per_second: v.optional(v.pipe(v.number(), v.minValue(0))),
});

export const configSchema = v.strictObject({
  providers: v.optional(v.record(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'provider ids are lowercase letters, digits and dashes')), providerSchema), {}),
  mock: v.optional(mockSchema),
  /** Models to add to the catalog, or catalog entries' fields to change (prices, limits, priors). */
  models: v.optional(v.array(modelEntrySchema)),
  /** Feature flags' defaults (on unless listed false); the control plane overrides them at run time. */
  flags: v.optional(v.record(v.picklist(FLAG_KEYS, `flags are ${FLAG_KEYS.join(', ')}`), v.boolean('a flag is true or false'))),
});

export type ConfigFile = v.InferOutput<typeof configSchema>;

/** Reads `SVC_CONFIG` (JSON or YAML by extension or content). */
export async function loadConfigFile(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError('SVC_CONFIG', `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}); point it at a readable JSON or YAML file`);
  }
  // yaml is imported only when a YAML file is read (~1 MiB of heap a gateway without SVC_CONFIG does not hold).
  const parse: (text: string) => unknown = path.endsWith('.json') ? JSON.parse : (await import('yaml')).parse;
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    throw new ConfigError('SVC_CONFIG', `${path} is not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`);
  }
  const result = v.safeParse(configSchema, data ?? {});
  if (!result.success) {
    const issue = result.issues[0];
    const keys = issue.path?.map((item) => String(item.key)) ?? [];
    if (issue.type === 'strict_object' && keys.length > 0) {
      // A misspelt key would otherwise be ignored silently (e.g. `provider:` -> the mock provider).
      const where = keys.slice(0, -1).join('.');
      const known = Object.keys(knownKeys(keys.slice(0, -1)));
      throw new ConfigError('SVC_CONFIG', `${path}: unknown key '${keys.join('.')}'${where ? '' : ' at the top level'}; the keys known ${where ? `in '${where}'` : 'here'} are ${known.join(', ')}`);
    }
    const where = keys.join('.');
    throw new ConfigError('SVC_CONFIG', `${path}${where ? ` at ${where}` : ''}: ${issue.message}`);
  }
  return result.output;
}

/** The entries of the object schema at `path` (`[]`: the top level; `['providers', id]`: a provider; `['mock']`; `['models', index]`: a model). */
function knownKeys(path: readonly string[]): Record<string, unknown> {
  if (path.length === 0) return configSchema.entries;
  if (path[0] === 'providers') return path.length > 2 && path[2] === 'model_defaults' ? modelDefaultsSchema.entries : providerSchema.entries;
  if (path[0] === 'mock') return mockSchema.entries;
  if (path[0] === 'models') return modelEntrySchema.entries;
  return {};
}
