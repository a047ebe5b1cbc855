/** JSON-RPC codes of the gateway's own failures (the implementation-defined server range). */
export const mcpGatewayErrorCodes = { toolCallBlocked: -32010, upstreamFailed: -32011, rateLimited: -32012, toolNotAllowed: -32013 } as const;
