import type { PGlite, Transaction } from '@electric-sql/pglite';

/** What the embedded store's maintenance needs of PGlite or one of its transactions. */
export type SqlRunner = Pick<PGlite | Transaction, 'query' | 'exec'>;
