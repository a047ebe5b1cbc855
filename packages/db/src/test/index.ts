export { createTestOrg, newKeyInput, sha256Hex, uniqueName } from './fixtures.js';
export { checkPostgres, dropSchema, randomSchemaName } from './postgres-test-schema.js';
export { runDbConformance } from './run-db-conformance.js';
