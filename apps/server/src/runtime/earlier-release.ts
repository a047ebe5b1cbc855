import type { RuntimeBase } from './runtime-base.js';

/**
 * Whether the store served under an earlier release (it holds a ledger row). What releases up to
 * 2026-12-06 kept on the kv for every deployment at once (the ledger's journal, the feature
 * switches, the router's weights) is taken over only by such a store, at its upgrade; a new
 * deployment starts from its own defaults, not from another deployment's state on the same Redis.
 */
export async function servedBefore(db: RuntimeBase['db']): Promise<boolean> {
  return (await db.usage.exportPage({}, 1)).length > 0;
}
