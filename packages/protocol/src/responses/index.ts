export { answerTurn, conversationOf, type ResponsesConversation } from './conversation.js';
export {
  type DecodedResponsesRequest,
  type McpApprovalAnswer,
  type ResponseEcho,
  decodeResponsesRequest,
} from './decode-responses-request.js';
export { encodeResponse } from './encode-response.js';
export { type ResponseMeta, encodeResponsesUsage, randomItemId, responseId } from './response-shell.js';
export { ResponseStreamEncoder } from './response-stream-encoder.js';
export type * from './response-types.js';
export { type McpToolFilter, type ResponsesMcpTool, responsesRequestSchema, type ResponsesWireRequest } from './responses-request-schema.js';
