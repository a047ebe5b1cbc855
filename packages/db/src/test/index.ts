export { createTestOrg, newDecision, newKeyInput, newUsageEvent, sha256Hex, uniqueName } from './fixtures.js';
export { checkPostgres, createScratchDatabase, dropSchema, randomSchemaName } from './postgres-test-schema.js';
export { runDbConformance } from './run-db-conformance.js';
