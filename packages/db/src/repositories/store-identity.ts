import { asc } from 'drizzle-orm';
import { storeIdentity } from '../schema/store-identity.js';
import type { Drizzle } from './drizzle.js';

/** The store's own identity (see the `store_identity` table). */
export interface StoreIdentityRepository {
  /**
   * The store's id: the same for every instance reading this database, for as long as it lives.
   * Made here when the row is missing; should two instances make one at once, the older row is
   * the id for both from then on.
   */
  id(): Promise<string>;
}

export function createStoreIdentityRepository(db: Drizzle): StoreIdentityRepository {
  const oldest = async () => {
    const [row] = await db.select({ id: storeIdentity.id }).from(storeIdentity).orderBy(asc(storeIdentity.createdAt), asc(storeIdentity.id)).limit(1);
    return row?.id;
  };
  return {
    async id() {
      const found = await oldest();
      if (found) return found;
      await db.insert(storeIdentity).values({});
      const made = await oldest();
      if (!made) throw new Error('store_identity: no row after an insert');
      return made;
    },
  };
}
