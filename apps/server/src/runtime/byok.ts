import { resolve } from 'node:path';
import { ByokService, CredentialCipher, deriveDevEncryptionKey, type EncryptionKey, parseEncryptionKey } from '@svc/byok';
import type { ProviderKeyRepository } from '@svc/db';
import type { Kv } from '@svc/kv';
import type { ProviderRegistryConfig } from '@svc/providers';
import type { Logger } from '@svc/telemetry';
import type { Env } from './env.js';

/**
 * The key that seals BYOK credentials: `SVC_ENCRYPTION_KEY` (validated by parseEnv), else a
 * development key derived from where the data lives (the database's host and name, or the
 * embedded data directory), announced with a loud warning.
 */
export function byokEncryptionKey(env: Env, logger: Logger): EncryptionKey {
  if (env.SVC_ENCRYPTION_KEY) return parseEncryptionKey(env.SVC_ENCRYPTION_KEY);
  const location = env.DATABASE_URL ? databaseLocation(env.DATABASE_URL) : env.SVC_DATA_DIR.startsWith('memory://') ? env.SVC_DATA_DIR : resolve(env.SVC_DATA_DIR);
  const key = deriveDevEncryptionKey(location);
  logger.warn(
    { keyVersion: key.id },
    `*** SVC_ENCRYPTION_KEY is not set: BYOK provider keys are encrypted with a development key derived from ${location}, which anyone who knows that location can derive. Set SVC_ENCRYPTION_KEY to 32 random bytes (openssl rand -base64 32) before storing real credentials. ***`,
  );
  return key;
}

/** The database's host, port and name: stable across password changes, and never the password. */
function databaseLocation(url: string): string {
  const parsed = new URL(url);
  return `postgres://${parsed.host}${parsed.pathname}`;
}

/** The cipher that seals tenants' credentials at rest: BYOK provider keys and MCP servers' header credentials. */
export function credentialCipher(env: Env, logger: Logger): CredentialCipher {
  return new CredentialCipher(byokEncryptionKey(env, logger));
}

/** Each organisation's own providers (BYOK) over the platform's provider configuration. */
export function createByok(deps: { store: ProviderKeyRepository; cipher: CredentialCipher; kv: Kv; platform: ProviderRegistryConfig; logger: Logger }): ByokService {
  return new ByokService({
    store: deps.store,
    cipher: deps.cipher,
    platform: deps.platform,
    bus: deps.kv,
    onError: (error, orgId) => deps.logger.error({ err: error, orgId }, 'BYOK credential unavailable; serving with the platform keys'),
  });
}
