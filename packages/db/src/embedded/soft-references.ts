/**
 * References the schema does not declare as foreign keys (the ledger and the decision log take
 * no constraint on their hot insert path; a memory's user-less subject names its key inside a
 * string). Merging two copies of the store re-points them like foreign keys; a test checks that
 * every id column of the schema is either a foreign key or listed here.
 */
export interface SoftReference {
  table: string;
  column: string;
  parent: string;
  /** The column holds `prefix` + the parent's id (e.g. `k:<key id>`); absent: the id itself. */
  prefix?: string;
}

export const SOFT_REFERENCES: readonly SoftReference[] = [
  { table: 'usage_events', column: 'org_id', parent: 'organizations' },
  { table: 'usage_events', column: 'key_id', parent: 'api_keys' },
  { table: 'routing_decisions', column: 'org_id', parent: 'organizations' },
  { table: 'memories', column: 'subject', parent: 'api_keys', prefix: 'k:' },
  // The key that submitted a batch (its lines run as that key); a revoked key keeps its batches' history.
  { table: 'batches', column: 'key_id', parent: 'api_keys' },
  // The key that sent a request's feedback; a revoked key keeps its feedback.
  { table: 'request_feedback', column: 'key_id', parent: 'api_keys' },
];
