import { afterAll, describe, it } from 'vitest';
import { createDb } from './create-db.js';
import { checkPostgres, dropSchema, randomSchemaName } from './test/index.js';
import { runDbConformance } from './test/run-db-conformance.js';

runDbConformance('pglite (in-memory)', () => createDb());

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const problem = await checkPostgres(pgUrl);
  if (problem === undefined) {
    const schema = randomSchemaName();
    runDbConformance('postgres', () => createDb({ url: pgUrl, schema, poolSize: 4 }));
    afterAll(() => dropSchema(pgUrl, schema));
  } else if (process.env.CI === 'true') {
    describe('postgres', () => {
      it('is reachable at TEST_DATABASE_URL', () => {
        throw new Error(`TEST_DATABASE_URL is set but unreachable: ${problem}`);
      });
    });
  } else {
    describe.skip(`postgres (TEST_DATABASE_URL unreachable: ${problem})`, () => {
      it('conformance', () => {});
    });
  }
}
