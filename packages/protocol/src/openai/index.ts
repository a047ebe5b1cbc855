export { ChatChunkEncoder, type ChatChunkEncoderOptions } from './chat-chunk-encoder.js';
export { type ChatEventStream, chatChunks } from './chat-chunks.js';
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
export { completionsRequestSchema, type OpenAICompletionsRequest } from './completions-request-schema.js';
export type { OpenAICompletion, OpenAICompletionChoice } from './completions-response-types.js';
export { type DecodedCompletionsRequest, decodeCompletionsRequest } from './decode-completions-request.js';
export { type CompletionMeta, encodeCompletion } from './encode-completion.js';
export { embeddingsRequestSchema, type OpenAIEmbeddingsRequest } from './embeddings-request-schema.js';
export { type DecodedEmbeddingsRequest, decodeEmbeddingsRequest } from './decode-embeddings-request.js';
export { type EmbeddingsMeta, type OpenAIEmbedding, type OpenAIEmbeddingList, encodeEmbeddings } from './encode-embeddings.js';
export { type DecodedModerationsRequest, type ModerationPart, decodeModerationsRequest, moderationsRequestSchema } from './moderations-request.js';
export {
  type DecodedSpeechRequest,
  MAX_SPEECH_INPUT_CHARS,
  type SpeechResponseFormat,
  type SpeechVoice,
  decodeSpeechRequest,
  speechFormats,
  speechRequestSchema,
  speechVoices,
} from './speech-request.js';
export {
  type DecodedTranscriptionRequest,
  MAX_AUDIO_FILE_BYTES,
  type TranscriptionResponseFormat,
  decodeTranscriptionRequest,
  transcriptionContentTypes,
  transcriptionFormSchema,
  transcriptionFormats,
  translationFormSchema,
} from './transcriptions-request.js';
export {
  type DecodedImageGenerationRequest,
  type ImageResponseFormat,
  MAX_IMAGES_PER_REQUEST,
  decodeImageGenerationRequest,
  imageGenerationRequestSchema,
  imageResponseFormats,
} from './image-generation-request.js';
export { type DeliveredImage, type ImagesMeta, type OpenAIImage, type OpenAIImagesResponse, encodeImagesResponse } from './encode-images.js';
export { REALTIME_TYPE_HEAD, type RealtimeObservation, mayObserveRealtimeFrame, readRealtimeEvent } from './realtime-events.js';
export { type DecodedFileUpload, type FilePurpose, decodeFileUpload, fileFormSchema, filePurposes } from './files-request.js';
export {
  type BatchEndpoint,
  type BatchInputError,
  type BatchInputLine,
  type CreateBatchRequest,
  MAX_BATCH_LINES,
  batchEndpoints,
  createBatchRequestSchema,
  BatchInputReader,
  type BatchInputResult,
  decodeBatchInput,
} from './batch-request.js';
