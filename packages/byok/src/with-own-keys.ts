import type { ProviderLookup } from './org-provider-cache.js';

/** The providers that serve one organisation: its own keys (BYOK) first, then the platform's. */
export interface OrgProviders {
  providers: ProviderLookup;
  /** Whether `provider` serves with the organisation's own key (its answers are attributed `byok` and cost the platform nothing). */
  ownKey(provider: string): boolean;
}

/** The organisation's own providers (`undefined`: it has none) in front of the platform's. */
export function withOwnKeys(own: ProviderLookup | undefined, platform: ProviderLookup): OrgProviders {
  if (!own) return { providers: platform, ownKey: () => false };
  return { providers: { get: (id) => own.get(id) ?? platform.get(id) }, ownKey: (id) => own.get(id) !== undefined };
}
