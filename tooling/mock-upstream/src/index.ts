export {
  type MockBehaviour,
  type MockFault,
  MOCK_FAULTS,
  DEFAULT_BEHAVIOUR,
  isMockFault,
  parseFaultKeys,
} from './behaviour.js';
export type { ChatScript } from './answer.js';
export {
  startMockUpstream,
  type MockUpstream,
  type MockUpstreamOptions,
  type MockUpstreamStats,
  type RecordedRequest,
} from './server.js';
export { embeddingVector } from './openai-embeddings.js';
export { sampleFromSchema } from './forced-tool.js';
export { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
