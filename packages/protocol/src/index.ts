/**
 * @svc/protocol: wire formats <-> canonical (@svc/core). One folder per wire protocol; each
 * exports a decoder for requests and encoders for responses and streams.
 */
export * from './anthropic/index.js';
export * from './openai/index.js';
export * from './responses/index.js';
export * from './voice/index.js';
export type { AudioUpload } from './shared/multipart-fields.js';
export { issuePath, issueToError } from './shared/issue-to-error.js';
export { applyLegacyHeaders, legacyHeaderKeys } from './shared/legacy-headers.js';
export { type MemoryWireSource, memoryToWire } from './shared/encode-memory.js';
