export { clearOfHourEdge, createTestOrg, newDecision, newKeyInput, newPasskey, newUsageEvent, newUser, sha256Hex, uniqueName } from './fixtures.js';
export { checkPostgres, createScratchDatabase, dropSchema, randomSchemaName } from './postgres-test-schema.js';
export { runDbConformance } from './run-db-conformance.js';
export { affected, november, NOVEMBER_MIGRATION, writeAffectedRows, writeNovemberDirectory } from './november-release.js';
export { embeddedStoreAt, migrationsUpTo } from './previous-release.js';
