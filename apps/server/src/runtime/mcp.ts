import type { ByokService } from '@svc/byok';
import type { Database } from '@svc/db';
import type { Kv } from '@svc/kv';
import { McpRegistry } from '@svc/mcp';
import type { ProviderRegistryConfig } from '@svc/providers';
import type { Logger } from '@svc/telemetry';
import { createByok, credentialCipher } from './byok.js';
import type { Env } from './env.js';

/** Tenants' sealed credentials: their own provider keys (BYOK) and their registered MCP servers. */
export interface TenantCredentials {
  byok: ByokService;
  mcp: McpRegistry;
}

/** BYOK (subscribed to invalidations) and the MCP server registry over one credential cipher. */
export async function startTenantCredentials(env: Env, deps: { db: Database; kv: Kv; platform: ProviderRegistryConfig; logger: Logger }): Promise<TenantCredentials> {
  const cipher = credentialCipher(env, deps.logger);
  const byok = createByok({ store: deps.db.providerKeys, cipher, kv: deps.kv, platform: deps.platform, logger: deps.logger });
  await byok.start();
  const mcp = new McpRegistry({ store: deps.db.mcpServers, cipher, policy: { allowPrivate: env.SVC_MCP_ALLOW_PRIVATE_URLS ?? false } });
  return { byok, mcp };
}
