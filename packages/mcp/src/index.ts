export { type AddressPolicy, addressAllowed, isPublicAddress } from './address-policy.js';
export { type GuardedFetchSettings, type McpFetch, McpResponseTooLargeError, type Resolver, guardedFetch, guardedLookup } from './guarded-fetch.js';
export {
  type MaskedMcpServer,
  type McpConnectionTarget,
  McpRegistry,
  type McpRegistrySettings,
  type McpServerRegistration,
  type McpServerStore,
  type McpTransport,
  type StoredMcpCredential,
  type StoredMcpServer,
  mcpTransports,
} from './mcp-registry.js';
export { McpUrlRefusedError, checkMcpUrl } from './url-check.js';
// Types only from the modules that load the MCP SDK: importing this index must not load it (McpGateway does, on first use).
export type { McpCallError, McpCallFailure } from './mcp-call-error.js';
export { mcpGatewayErrorCodes } from './mcp-error-codes.js';
export { McpGateway, mcpProtocolVersion } from './mcp-gateway.js';
export type { McpCaller, McpGatewaySettings, McpServerRef, McpSpan, McpToolCallRecord } from './mcp-types.js';

