export { ChatChunkEncoder, type ChatChunkEncoderOptions } from './chat-chunk-encoder.js';
export { type OpenAIChatMessage, type OpenAIContentPart, chatMessageSchema } from './chat-message-schema.js';
export { chatRequestSchema, type OpenAIChatRequest } from './chat-request-schema.js';
export type {
  OpenAIAssistantMessage,
  OpenAIChatChoice,
  OpenAIChatCompletion,
  OpenAIToolCall,
  OpenAIUsage,
} from './chat-response-types.js';
export { decodeChatRequest } from './decode-chat-request.js';
export { type ChatCompletionMeta, type EncodedChatCompletion, encodeChatCompletion } from './encode-chat-response.js';
export { encodeUsage } from './encode-usage.js';
export {
  normalizeTier,
  type OpenAIRoutingHints,
  type OpenAIRoutingOverride,
  type OpenAISvcBlock,
  routingHintsSchema,
  routingOverrideSchema,
  svcBlockSchema,
} from './svc-extensions-schema.js';
