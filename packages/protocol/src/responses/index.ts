export { answerTurn, conversationOf, type ResponsesConversation } from './conversation.js';
export {
  type DecodedResponsesRequest,
  type ResponseEcho,
  decodeResponsesRequest,
} from './decode-responses-request.js';
export { encodeResponse } from './encode-response.js';
export { type ResponseMeta, encodeResponsesUsage, responseId } from './response-shell.js';
export { ResponseStreamEncoder } from './response-stream-encoder.js';
export type * from './response-types.js';
export { responsesRequestSchema, type ResponsesWireRequest } from './responses-request-schema.js';
