import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { runVectorStoreConformance, startFakeQdrantServer } from '../test/index.js';
import { createMemoryVectorStore } from './memory.js';
import { createQdrantVectorStore } from './qdrant.js';

runVectorStoreConformance('memory vector store', async () => createMemoryVectorStore());

const fake = await startFakeQdrantServer();
afterAll(() => fake.close());
runVectorStoreConformance('qdrant vector store (fake Qdrant REST server)', async () =>
  createQdrantVectorStore({ url: fake.url, dimensions: 8, collection: `svc_test_${randomUUID()}` }),
);
// The sentence encoder's 384 dimensions, as the gateway stores them by default.
runVectorStoreConformance('memory vector store, 384 dimensions', async () => createMemoryVectorStore(), { dimensions: 384 });
runVectorStoreConformance(
  'qdrant vector store (fake Qdrant REST server), 384 dimensions',
  async () => createQdrantVectorStore({ url: fake.url, dimensions: 384, collection: `svc_test_${randomUUID()}` }),
  { dimensions: 384 },
);

const qdrantUrl = process.env.TEST_QDRANT_URL;
if (qdrantUrl !== undefined && qdrantUrl !== '') {
  const probe = createQdrantVectorStore({ url: qdrantUrl, apiKey: process.env.TEST_QDRANT_API_KEY, dimensions: 8, timeoutMs: 1000 });
  const reachable = await probe.ping();
  await probe.close();
  const host = (() => {
    try {
      return new URL(qdrantUrl).host;
    } catch {
      return 'unparseable URL';
    }
  })();
  if (reachable) {
    // A fresh collection per test; the suite drops it afterwards (deleteByOrg()).
    runVectorStoreConformance('qdrant vector store (TEST_QDRANT_URL)', async () =>
      createQdrantVectorStore({ url: qdrantUrl, apiKey: process.env.TEST_QDRANT_API_KEY, dimensions: 8, collection: `svc_test_${randomUUID()}` }),
    );
  } else if (process.env.CI === 'true') {
    it('reaches the Qdrant at TEST_QDRANT_URL (required in CI)', () => {
      expect.fail(`TEST_QDRANT_URL (${host}) is set but does not answer`);
    });
  } else {
    describe.skip(`qdrant: TEST_QDRANT_URL (${host}) does not answer`, () => {
      it('conformance', () => {});
    });
  }
}
