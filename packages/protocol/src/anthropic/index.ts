export { decodeCountTokensRequest, decodeMessagesRequest } from './decode-messages-request.js';
export { type McpServerSpec, type McpToolsetRule, mcpServersOf } from './mcp-toolsets.js';
export {
  type AnthropicErrorBody,
  type AnthropicErrorType,
  type AnthropicMcpBlock,
  type AnthropicMessage,
  type AnthropicOutputBlock,
  type AnthropicStopReason,
  type AnthropicUsage,
  anthropicErrorType,
  encodeMessagesError,
  encodeMessagesResponse,
  type MessagesResponseMeta,
} from './encode-messages-response.js';
export { type AnthropicCountTokensRequest, type AnthropicMessagesRequest, countTokensRequestSchema, messagesRequestSchema } from './messages-request-schema.js';
export { MessagesStreamEncoder, type MessagesStreamEncoderOptions } from './messages-stream-encoder.js';
export { type CreateMessageBatchRequest, MAX_MESSAGE_BATCH_REQUESTS, createMessageBatchSchema } from './message-batch-request.js';
