import type { Provider } from '@svc/providers';
import { describe, expect, it } from 'vitest';
import type { ProviderLookup } from './org-provider-cache.js';
import { withOwnKeys } from './with-own-keys.js';

const lookup = (entries: Record<string, string>): ProviderLookup => ({ get: (id) => (entries[id] ? ({ id: entries[id] } as unknown as Provider) : undefined) });

describe('withOwnKeys', () => {
  const platform = lookup({ openai: 'platform-openai', anthropic: 'platform-anthropic' });

  it("serves an organisation's own provider first and the platform's for every other one", () => {
    const org = withOwnKeys(lookup({ openai: 'own-openai' }), platform);
    expect(org.providers.get('openai')?.id).toBe('own-openai');
    expect(org.providers.get('anthropic')?.id).toBe('platform-anthropic');
    expect(org.providers.get('gemini')).toBeUndefined();
    expect([org.ownKey('openai'), org.ownKey('anthropic')]).toEqual([true, false]);
  });

  it('is the platform alone for an organisation without keys', () => {
    const org = withOwnKeys(undefined, platform);
    expect(org.providers).toBe(platform);
    expect(org.ownKey('openai')).toBe(false);
  });
});
