import { type CompatibleProviderConfig, type ProviderRegistryConfig, compatibleVendors } from '@svc/providers';

/**
 * First-party providers that take an API key. Vertex is left out (it takes a short-lived OAuth
 * token, not a key), so is the built-in `mock`.
 */
const firstParty = ['openai', 'anthropic', 'gemini', 'cohere', 'deepgram', 'elevenlabs', 'azure', 'bedrock'] as const;

/**
 * Provider ids an organisation may store a key for: the first-party providers, the known
 * OpenAI-compatible vendors that use keys, and any compatible provider the platform configures
 * with keys (a custom id from `SVC_CONFIG`).
 */
export function byokProviderIds(platform: ProviderRegistryConfig): ReadonlySet<string> {
  const ids = new Set<string>(firstParty);
  for (const [id, vendor] of Object.entries(compatibleVendors)) if (!vendor.keyless) ids.add(id);
  for (const entry of platform.compatible ?? []) if ((entry.apiKeys?.length ?? 0) > 0) ids.add(entry.id);
  return ids;
}

/**
 * Registry config for one organisation: each of its providers configured like the platform's
 * (same base URL, API version, deployments, region, compatibility, HTTP transport) but with the
 * organisation's key as the only key. Providers that cannot be built without platform settings
 * (Azure needs the resource endpoint, Bedrock the region) are left out when the platform has none.
 * The platform's key cooldowns are not shared: they count failures by key index.
 */
export function orgProviderConfig(platform: ProviderRegistryConfig, secrets: ReadonlyMap<string, string>): ProviderRegistryConfig {
  const compatible: CompatibleProviderConfig[] = [];
  const config: ProviderRegistryConfig = { compatible };
  if (platform.http) config.http = platform.http;
  else if (platform.fetch) config.fetch = platform.fetch;
  for (const [provider, secret] of secrets) {
    const apiKeys = [secret];
    switch (provider) {
      case 'openai':
      case 'anthropic':
      case 'gemini':
      case 'cohere':
      case 'deepgram':
      case 'elevenlabs': {
        const baseUrl = platform[provider]?.baseUrl;
        config[provider] = { apiKeys, ...(baseUrl ? { baseUrl } : {}) };
        break;
      }
      case 'azure':
        if (platform.azure) config.azure = { ...platform.azure, apiKeys };
        break;
      case 'bedrock':
        if (platform.bedrock) {
          const { region, baseUrl } = platform.bedrock;
          config.bedrock = { region, apiKeys, ...(baseUrl ? { baseUrl } : {}) };
        }
        break;
      default: {
        const configured = platform.compatible?.find((entry) => entry.id === provider);
        const known = Object.hasOwn(compatibleVendors, provider) ? compatibleVendors[provider] : undefined;
        const baseUrl = configured?.baseUrl ?? known?.baseUrl;
        if (baseUrl === undefined) break;
        compatible.push({ id: provider, apiKeys, baseUrl, ...(configured?.compatibility ? { compatibility: configured.compatibility } : {}) });
      }
    }
  }
  return config;
}
