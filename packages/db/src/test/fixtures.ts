import type { NewPasskey } from '../repositories/passkeys.js';
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../database.js';
import type { NewApiKey, NewRoutingDecision, NewUsageEvent, OrganizationRecord } from '../types.js';

/** A name no other test (or earlier run against the same database) uses. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function createTestOrg(db: Database, prefix = 'org'): Promise<OrganizationRecord> {
  return db.orgs.create({ name: uniqueName(prefix) });
}

/** A key input with a fresh id, secret hash and the given overrides. */
export function newKeyInput(orgId: string, overrides: Partial<NewApiKey> = {}): NewApiKey {
  const secret = `sk-svc-${randomUUID()}`;
  return {
    id: `key_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    orgId,
    name: 'test key',
    keyHash: sha256Hex(secret),
    keyPrefix: secret.slice(0, 12),
    scopes: ['inference:chat'],
    expiresAt: null,
    ...overrides,
  };
}

/** Registers the shared instance for the conformance modules; set in beforeAll. */
export type GetDb = () => Database;

/** A decision-log row with a fresh request id and the given overrides. */
export function newDecision(orgId: string, overrides: Partial<NewRoutingDecision> = {}): NewRoutingDecision {
  return {
    requestId: `req_${randomUUID()}`,
    orgId,
    model: 'anthropic/claude-3-5-haiku',
    provider: 'anthropic',
    source: 'auto',
    outcome: 'success',
    ...overrides,
  };
}

/** A usage-ledger row with a fresh request id and the given overrides. */
export function newUsageEvent(orgId: string, overrides: Partial<NewUsageEvent> = {}): NewUsageEvent {
  return {
    requestId: `req_${randomUUID()}`,
    orgId,
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    promptTokens: 100,
    completionTokens: 50,
    costUsd: 0.001,
    baselineCostUsd: 0.01,
    latencyMs: 120,
    status: 200,
    ...overrides,
  };
}

/** A dashboard user of `orgId` to create (unique e-mail and WebAuthn user id). */
export const newUser = (orgId: string, role: 'admin' | 'member' = 'member') => ({ email: `${uniqueName('User')}@Example.com`, orgId, role, webauthnUserId: randomUUID() });

/** A passkey of `userId` to store (unique ids). */
export function newPasskey(userId: string, overrides: Partial<NewPasskey> = {}): NewPasskey {
  return {
    id: `pk_${randomUUID().slice(0, 12)}`,
    userId,
    name: 'Laptop',
    credentialId: randomUUID(),
    publicKey: 'pQECAyYgASFYIA',
    counter: 0,
    transports: ['internal', 'hybrid'],
    deviceType: 'multiDevice',
    backedUp: true,
    ...overrides,
  };
}

/**
 * Waits past the store clock's next tick. PGlite's `now()` follows the WebAssembly clock, which
 * may read the same millisecond for two statements in a row; rows created a tick apart have
 * distinct `created_at`, so a test can expect creation order where listings order by it.
 */
export function nextClockTick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 2));
}

const HOUR_MS = 3_600_000;

/**
 * Waits, when fewer than `marginMs` are left in the current UTC hour, until the next hour begins.
 * SLOs are judged per UTC hour: a test whose requests must share one hourly slice starts clear of
 * the edge (a CI run that crossed the hour split one test's traffic into two slices).
 */
export async function clearOfHourEdge(marginMs = 90_000): Promise<void> {
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
