import type { DashboardUserRepository, PasskeyRepository } from '@svc/db';
import type { Kv } from '@svc/kv';

export type { DashboardRole, DashboardUserRecord, PasskeyRecord } from '@svc/db';

/** What dashboard sign-in needs from the relational store (a subset of @svc/db's Database). */
export interface DashboardStore {
  dashboardUsers: DashboardUserRepository;
  passkeys: PasskeyRepository;
  orgs: { get(id: string): Promise<{ id: string } | undefined> };
}

/** The part of @svc/kv that sessions and challenges need (shared across instances). */
export interface DashboardKv {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  delete(key: string): Promise<boolean>;
  /** Atomic get-and-delete. */
  take(key: string): Promise<string | null>;
  /** Failed sign-ins and enrollment links are counted with it (see FailureThrottle). */
  consumeAll: Kv['consumeAll'];
  /** Bounds the challenges outstanding at once. */
  consumeWindow: Kv['consumeWindow'];
}

