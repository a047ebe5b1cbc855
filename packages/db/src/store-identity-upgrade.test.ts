import { describe, expect, it } from 'vitest';
import { createDb } from './create-db.js';
import { openPglite } from './pglite-start.js';
import { embeddedStoreAt } from './test/index.js';

/** The schema level of the release before the store's identity (0029 adds `store_identity`). */
const PREVIOUS_MIGRATION = '0028_batch_hold';
const org = '00000000-0000-4000-8000-00000000a029';

describe('a store the release before 0029 wrote (no identity)', () => {
  it('gets one identity from the migration, read alike by every later open, its rows kept', async () => {
    const store = await embeddedStoreAt(PREVIOUS_MIGRATION, async (pg) => {
      await pg.query('insert into organizations (id, name) values ($1, $2)', [org, 'identity-before-0029']);
    });
    try {
      const ids: string[] = [];
      for (let open = 0; open < 2; open++) {
        const db = await createDb({ dataDir: store.dir });
        try {
          expect(await db.orgs.get(org)).toMatchObject({ id: org, name: 'identity-before-0029' });
          ids.push(await db.storeIdentity.id());
        } finally {
          await db.close();
        }
      }
      expect(ids[0]).toBe(ids[1]);
      const pg = await openPglite(store.dir);
      try {
        expect((await pg.query<{ id: string }>('select id from store_identity')).rows).toEqual([{ id: ids[0] }]);
      } finally {
        await pg.close();
      }
    } finally {
      await store.remove();
    }
  }, 300_000);
});
