/** A named thing a remembered fact mentions (`place: Lisbon`, `name: Ana`). */
export interface MemoryEntity {
  type: string;
  value: string;
}

/**
 * A remembered fact as every memory store keeps it (the database's repository and the vector
 * stores' points), one organisation's and one memory scope's.
 */
export interface StoredMemory {
  id: string;
  orgId: string;
  /** The memory scope inside the organisation: `u:<end user hash>` or `k:<api key id>`. */
  subject: string;
  conversationId: string | null;
  /** Who said it: `user` (the only role memory stores facts from today). */
  role: string;
  /** What the fact is about (`home`, `name`, ...), when known: a newer fact of the same slot replaces it. */
  slot: string | null;
  text: string;
  entities: MemoryEntity[];
  createdAt: Date;
  updatedAt: Date;
}
