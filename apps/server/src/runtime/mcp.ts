import type { ByokService } from '@svc/byok';
import type { Database, UsageEvent } from '@svc/db';
import type { GovernanceSource } from '@svc/governance';
import type { Kv } from '@svc/kv';
import { McpGateway, McpRegistry, type McpToolCallRecord } from '@svc/mcp';
import { type LearnSink, uncalledUsage } from '@svc/pipeline';
import type { ProviderRegistryConfig } from '@svc/providers';
import type { Logger } from '@svc/telemetry';
import { createByok, credentialCipher } from './byok.js';
import type { Env } from './env.js';

/** Tenants' sealed credentials: their own provider keys (BYOK) and their registered MCP servers. */
export interface TenantCredentials {
  byok: ByokService;
  mcp: McpRegistry;
}

/** BYOK and the MCP server registry (both subscribed to invalidations) over one credential cipher. */
export async function startTenantCredentials(env: Env, deps: { db: Database; kv: Kv; platform: ProviderRegistryConfig; logger: Logger }): Promise<TenantCredentials> {
  const cipher = credentialCipher(env, deps.logger);
  const byok = createByok({ store: deps.db.providerKeys, cipher, kv: deps.kv, platform: deps.platform, logger: deps.logger });
  await byok.start();
  const mcp = new McpRegistry({ store: deps.db.mcpServers, cipher, policy: { allowPrivate: env.SVC_MCP_ALLOW_PRIVATE_URLS ?? false }, bus: deps.kv });
  await mcp.start();
  return { byok, mcp };
}

/**
 * The MCP gateway at the inference port's `/mcp`: the registry's servers, the organisation's tool
 * governance, and each tool call a row of the usage ledger (`provider` `mcp`, `model` the
 * gateway's tool name, no tokens, no cost) so the request log shows it.
 */
export function createMcpGateway(env: Env, deps: { registry: McpRegistry; governance: GovernanceSource; learn: Pick<LearnSink, 'recordUsage'>; logger: Logger }): McpGateway {
  return new McpGateway({
    registry: deps.registry,
    governance: deps.governance,
    policy: { allowPrivate: env.SVC_MCP_ALLOW_PRIVATE_URLS ?? false },
    timeoutMs: env.SVC_MCP_TIMEOUT_MS,
    maxResponseBytes: env.SVC_MCP_MAX_RESPONSE_BYTES,
    maxRequestBytes: env.SVC_MAX_BODY_BYTES,
    onToolCall: (call) => deps.learn.recordUsage(toolCallUsage(call)),
    onListFailure: (error, orgId) => deps.logger.warn({ orgId, code: error.failure, err: error }, 'MCP server left out of tools/list'),
  });
}

function toolCallUsage(call: McpToolCallRecord): UsageEvent {
  return uncalledUsage({ requestId: call.id, orgId: call.orgId, keyId: call.keyId, model: call.tool, provider: 'mcp', latencyMs: call.latencyMs, status: call.status });
}
