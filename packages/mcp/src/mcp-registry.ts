import type { CredentialCipher, SealedCredential } from '@svc/byok';
import { type InvalidationBus, type OrgCache, createOrgCache } from '@svc/kv';
import type { AddressPolicy } from './address-policy.js';
import { checkMcpUrl } from './url-check.js';

/** The one transport the gateway speaks to registered servers (MCP 2025-03-26 and later). */
export const mcpTransports = ['streamable_http'] as const;
export type McpTransport = (typeof mcpTransports)[number];

/** A sealed header credential as stored (`@svc/db`'s McpServerCredential fits). */
export interface StoredMcpCredential extends SealedCredential {
  header: string;
  last4: string;
}

/** A registered server as stored (`@svc/db`'s McpServerRecord fits). */
export interface StoredMcpServer {
  name: string;
  url: string;
  transport: string;
  credential: StoredMcpCredential | null;
  tools: string[] | null;
  keyIds: string[] | null;
  toolKeyIds: Record<string, string[]> | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Where registrations live (`@svc/db`'s `db.mcpServers` fits). */
export interface McpServerStore {
  list(orgId: string): Promise<StoredMcpServer[]>;
  get(orgId: string, name: string): Promise<StoredMcpServer | undefined>;
  put(orgId: string, server: Omit<StoredMcpServer, 'createdAt' | 'updatedAt'>): Promise<{ server: StoredMcpServer; created: boolean }>;
  delete(orgId: string, name: string): Promise<boolean>;
}

/** What an admin registers. */
export interface McpServerRegistration {
  name: string;
  url: string;
  transport: McpTransport;
  /** The header sent with every request to the server, and its value (sealed at rest); `unchanged` keeps the one stored (none for a new server). */
  credential: { header: string; value: string } | null | 'unchanged';
  /** Tool names exposed at the gateway; null = all the server lists. */
  tools: string[] | null;
  /** The organisation's keys (ids) that may reach the server; null = every key allowed on `/mcp`. */
  keyIds: string[] | null;
  /** Per tool, the keys (ids) that alone may use it; a tool not named is open to every key of `keyIds`; null = no such rule. */
  toolKeyIds: Record<string, string[]> | null;
}

/** A registration as it may be shown: the credential's header and last 4 characters, never its value. */
export interface MaskedMcpServer {
  name: string;
  url: string;
  transport: string;
  credential: { header: string; last4: string } | null;
  tools: string[] | null;
  keyIds: string[] | null;
  toolKeyIds: Record<string, string[]> | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface McpRegistrySettings {
  store: McpServerStore;
  /** The BYOK cipher: credentials are sealed with the same keys (and rotate with them). */
  cipher: CredentialCipher;
  policy: AddressPolicy;
  /** Cross-instance invalidation of the servers the gateway dials (the kv); without it another instance sees a change within {@link registrationTtlMs}. */
  bus?: InvalidationBus;
}

/** How long an organisation's registrations serve `/mcp` without a store read, ms (a change here or announced on the bus drops them at once). */
export const registrationTtlMs = 30_000;

/** The credential's owner for the cipher's associated data: a sealed row copied to another org or server does not open. */
const owner = (orgId: string, name: string) => ({ orgId, provider: `mcp:${name}` });

function mask(server: StoredMcpServer): MaskedMcpServer {
  const { credential, ...rest } = server;
  return { ...rest, credential: credential ? { header: credential.header, last4: credential.last4 } : null };
}

/**
 * Organisations' registered MCP servers: URLs checked, credentials sealed, never shown back. The
 * servers `/mcp` dials are cached per organisation (channel `mcp:changed`), so a call does no
 * store read; registering or deleting drops them here and on every instance sharing the bus.
 */
export class McpRegistry {
  private readonly servers: OrgCache<StoredMcpServer[]>;

  constructor(private readonly settings: McpRegistrySettings) {
    this.servers = createOrgCache({ load: (orgId) => settings.store.list(orgId), channel: 'mcp:changed', ttlMs: registrationTtlMs, ...(settings.bus ? { bus: settings.bus } : {}) });
  }

  /** Subscribes to other instances' changes. Call once at start. */
  start(): Promise<void> {
    return this.servers.start();
  }

  stop(): Promise<void> {
    return this.servers.stop();
  }

  /** Registers or replaces; throws McpUrlRefusedError for a URL the policy refuses. */
  async put(orgId: string, registration: McpServerRegistration): Promise<{ server: MaskedMcpServer; created: boolean }> {
    checkMcpUrl(registration.url, this.settings.policy);
    const { credential, ...rest } = registration;
    const sealed =
      credential === 'unchanged'
        ? ((await this.settings.store.get(orgId, registration.name))?.credential ?? null)
        : credential
          ? { header: credential.header, last4: credential.value.slice(-4), ...this.settings.cipher.seal(credential.value, owner(orgId, registration.name)) }
          : null;
    const { server, created } = await this.settings.store.put(orgId, { ...rest, credential: sealed });
    await this.servers.invalidate(orgId);
    return { server: mask(server), created };
  }

  async list(orgId: string): Promise<MaskedMcpServer[]> {
    return (await this.settings.store.list(orgId)).map(mask);
  }

  async get(orgId: string, name: string): Promise<MaskedMcpServer | undefined> {
    const server = await this.settings.store.get(orgId, name);
    return server ? mask(server) : undefined;
  }

  async delete(orgId: string, name: string): Promise<boolean> {
    const deleted = await this.settings.store.delete(orgId, name);
    if (deleted) await this.servers.invalidate(orgId);
    return deleted;
  }

  /** The organisation's servers key `keyId` may reach, as the gateway dials them (the tools the key may not use withheld). */
  async connections(orgId: string, keyId: string): Promise<McpConnectionTarget[]> {
    const servers = await this.servers.get(orgId);
    return servers.filter((server) => reaches(server, keyId)).map((server) => this.target(orgId, keyId, server));
  }

  /**
   * The registration of the server at `url`, when the organisation registered one, as key `keyId`
   * is held to it: a request that names a registered server by its URL (with its own credential)
   * keeps the registration's exposed tools and key rules. `reachable` is false when the key may
   * not reach the server at all.
   */
  async registeredUrl(orgId: string, keyId: string, url: string): Promise<{ target: McpConnectionTarget; reachable: boolean } | undefined> {
    const wanted = normalUrl(url);
    const server = (await this.servers.get(orgId)).find((entry) => normalUrl(entry.url) === wanted);
    return server ? { target: this.target(orgId, keyId, server), reachable: reaches(server, keyId) } : undefined;
  }

  private target(orgId: string, keyId: string, server: StoredMcpServer): McpConnectionTarget {
    const credential = server.credential;
    return {
      name: server.name,
      url: server.url,
      tools: server.tools,
      withheld: withheldTools(server.toolKeyIds, keyId),
      headers: () => (credential ? { [credential.header]: this.settings.cipher.open(credential, owner(orgId, server.name)) } : {}),
    };
  }
}

const reaches = (server: StoredMcpServer, keyId: string): boolean => server.keyIds === null || server.keyIds.includes(keyId);

const noTools: ReadonlySet<string> = new Set();

/** The tools whose key list (`toolKeyIds`) leaves `keyId` out. */
function withheldTools(toolKeyIds: Record<string, string[]> | null, keyId: string): ReadonlySet<string> {
  if (toolKeyIds === null) return noTools;
  const withheld = Object.keys(toolKeyIds).filter((tool) => !toolKeyIds[tool]!.includes(keyId));
  return withheld.length === 0 ? noTools : new Set(withheld);
}

/** A URL as compared with registrations (scheme and host case, default port, empty path); an unparsable one as written. */
function normalUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** What `target`'s caller may do with `tool`: `exposed` (listed and callable), `hidden` (the registration does not expose it) or `withheld` (exposed to other keys only). */
export function toolAccess(target: McpConnectionTarget, tool: string): 'exposed' | 'hidden' | 'withheld' {
  if (target.tools !== null && !target.tools.includes(tool)) return 'hidden';
  return target.withheld.has(tool) ? 'withheld' : 'exposed';
}

/** A registered server as the gateway dials it. */
export interface McpConnectionTarget {
  name: string;
  url: string;
  tools: string[] | null;
  /** Tools exposed to other keys of the organisation but not to the caller's (`toolKeyIds`); not listed, and a call is `tool_not_allowed`. */
  withheld: ReadonlySet<string>;
  /** The credential header, opened in clear when called (throws CredentialOpenError); empty when the server takes none. */
  headers(): Record<string, string>;
}
