import type { Guardrails } from './guardrails.js';
import type { OutputConfig } from './output-config.js';
import type { IntelligenceMode } from './request.js';

/** Scopes enforced per endpoint (DESIGN.md §3); also published as `scopes_supported`. */
export const scopes = [
  'inference:chat',
  'inference:embeddings',
  'inference:moderations',
  'inference:audio',
  'inference:images',
  'memory:read',
  'memory:write',
  'settings:write',
  'feedback:write',
  'observability:read',
  'admin',
] as const;

export type Scope = (typeof scopes)[number];

/** How far an organisation's memory recall reaches (`PUT /v1/settings {memory_scope}`). */
export const memoryScopeSettings = ['end_user', 'organization'] as const;
export type MemoryScopeSetting = (typeof memoryScopeSettings)[number];

/** Scopes a key gets when created without an explicit list: everything but `admin`. */
export const defaultKeyScopes: readonly Scope[] = scopes.filter((scope) => scope !== 'admin');

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/**
 * Which models and aliases a key or an organisation may use. An entry names a catalog slug
 * (`openai/gpt-4o-mini`), an upstream name on any provider (`gpt-4o-mini`), a whole provider
 * (`openai/*`) or an alias (`svc/auto`, `auto`, `svc/auto-quality`, ...). `allow` restricts only
 * its own kind: model entries limit the models, alias entries the aliases; empty: no limit of
 * that kind. `deny` always wins.
 */
export interface ModelAccess {
  allow: readonly string[];
  deny: readonly string[];
}

export interface Organization {
  id: string;
  name: string;
  plan: string;
  rpmLimit: number | null;
  tpmLimit: number | null;
  monthlyBudgetUsd: number | null;
  tokenQuota: number | null;
  defaultIntelligenceMode: IntelligenceMode | null;
  /** Routing policy: only free or open-weight models serve this organisation (absent = false). */
  freeModelsOnly?: boolean;
  /**
   * Explicit `<provider>/<model>` names the catalog does not list are forwarded to the configured
   * provider as named (absent = true); false: they answer 404 `model_not_found`.
   */
  passThroughModels?: boolean;
  /**
   * Output verification defaults, loaded with the caller on the auth path (so reloaded with it when
   * the org changes); absent or null: `defaultOutputConfig`.
   */
  outputConfig?: OutputConfig | null;
  /**
   * How far memory recall reaches: `end_user` (default: the end user's own memories, or the
   * key's user-less ones) or `organization` (the whole organisation, opted in).
   */
  memoryScope?: MemoryScopeSetting;
  /** Models and aliases the organisation may use (absent or null: any). */
  modelAccess?: ModelAccess | null;
  /** Content checks on every chat request of the organisation, before its key's (absent or null: none). */
  guardrails?: Guardrails | null;
  createdAt: Date;
}

/** Who is calling: the result of authentication, carried through every stage. */
export interface Caller {
  keyId: string;
  /** First characters of the key, safe to log. */
  keyPrefix: string;
  org: Organization;
  scopes: ReadonlySet<Scope>;
  /** The key's own limits, held on top of the organisation's (absent or null: none). */
  keyLimits?: { rpm: number | null; tpm: number | null; monthlyBudgetUsd: number | null };
  /** The key's own model and alias lists, held on top of its organisation's (absent: none). */
  modelAccess?: ModelAccess;
  /** The key's own content checks, run after its organisation's (absent: none). */
  guardrails?: Guardrails;
}
