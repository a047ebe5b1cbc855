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
export { McpCallError, type McpCallFailure, mcpGatewayErrorCodes } from './mcp-call-error.js';
export { type McpCaller, McpGateway, type McpServerRef, type McpGatewaySettings, type McpSpan, type McpToolCallRecord, mcpProtocolVersion } from './mcp-gateway.js';
export { namespacedTool, splitToolName, toolSeparator } from './tool-names.js';
