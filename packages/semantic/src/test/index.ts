export { type FakeQdrantServer, type QdrantRequestRecord, startFakeQdrantServer } from './fake-qdrant-server.js';
export { axisVector, cachedAnswer, chatRequest } from './fixtures.js';
export { runVectorStoreConformance, type VectorStoreConformanceOptions } from './run-vector-store-conformance.js';
