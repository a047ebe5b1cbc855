/**
 * The canonical chat model. Every wire protocol decodes into these types and every provider
 * adapter speaks them, so N protocols + M providers never becomes N x M translations.
 * Field names are camelCase; wire names live only in @svc/protocol and the adapters.
 */

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

/**
 * A prompt-cache breakpoint (Anthropic's `cache_control`): the provider caches the prompt up to
 * and including what carries it. Providers that cache by themselves, or not at all, ignore it.
 */
export interface CacheControl {
  type: 'ephemeral';
  /** How long the entry lives: `5m` (the default) or `1h`. */
  ttl?: '5m' | '1h';
}

export interface TextPart {
  type: 'text';
  text: string;
  cacheControl?: CacheControl;
}

/** An image given by URL; `data:` URLs carry inline base64 content. */
export interface ImagePart {
  type: 'image';
  url: string;
  detail?: 'auto' | 'low' | 'high';
  cacheControl?: CacheControl;
}

export interface AudioPart {
  type: 'audio';
  /** Base64 audio bytes. */
  data: string;
  format: string;
  cacheControl?: CacheControl;
}

export interface FilePart {
  type: 'file';
  /** Base64 file bytes or a `data:` URL. */
  data?: string;
  fileId?: string;
  filename?: string;
  mediaType?: string;
  cacheControl?: CacheControl;
}

export type ContentPart = TextPart | ImagePart | AudioPart | FilePart;

export interface ToolCall {
  id: string;
  name: string;
  /** The JSON text of the arguments, exactly as the model produced it. */
  arguments: string;
}

export interface ChatMessage {
  role: Role;
  content: string | ContentPart[] | null;
  name?: string;
  /** Assistant turns that called tools. */
  toolCalls?: ToolCall[];
  /** Tool turns: the call this message answers. */
  toolCallId?: string;
  refusal?: string;
  /** A cache breakpoint after the message's last block (a tool result, an assistant turn). */
  cacheControl?: CacheControl;
}

/** A JSON Schema object, kept as data. */
export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description?: string;
  parameters?: JsonSchema;
  strict?: boolean;
  /** A cache breakpoint after this tool's definition (the tools come first in the cached prefix). */
  cacheControl?: CacheControl;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema?: JsonSchema; strict?: boolean; description?: string };

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

export interface ReasoningOptions {
  effort?: ReasoningEffort;
  maxTokens?: number;
  summary?: string;
  exclude?: boolean;
  enabled?: boolean;
}

/** Sampling and output controls shared by every chat-shaped protocol. */
export interface ChatParams {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  stop?: string[];
  seed?: number;
  logprobs?: boolean;
  topLogprobs?: number;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  reasoningEffort?: ReasoningEffort;
  reasoning?: ReasoningOptions;
  user?: string;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Prompt tokens served from the provider's prompt cache (billed at the cached price). */
  cachedPromptTokens?: number;
  /** Prompt tokens written to the provider's prompt cache (billed at the cache-write price). */
  cacheWriteTokens?: number;
  /** Of `cacheWriteTokens`, those written for one hour (Anthropic's `ttl: "1h"`), billed at the one-hour write price. */
  cacheWrite1hTokens?: number;
  /** Completion tokens spent on hidden reasoning (already included in completionTokens). */
  reasoningTokens?: number;
  /** Prompt tokens that were audio (already included in promptTokens; billed at the audio input price where the catalog has one). */
  audioPromptTokens?: number;
  /** True when the counts were estimated locally because the provider reported none. */
  estimated?: boolean;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  toolCalls?: ToolCall[];
  refusal?: string;
  /** Reasoning text when the provider returns it. */
  reasoning?: string;
}

export interface ChatChoice {
  index: number;
  message: AssistantMessage;
  finishReason: FinishReason;
  /** Provider logprobs, passed through as the provider sent them (OpenAI shape). */
  logprobs?: unknown;
}

/** One provider answer in canonical form. */
export interface ChatResult {
  /** Provider's response id when it has one. */
  id?: string;
  /** Upstream model name the provider reports. */
  model: string;
  created?: number;
  /** The upstream's backend configuration fingerprint (OpenAI's `system_fingerprint`), passed through. */
  systemFingerprint?: string;
  choices: ChatChoice[];
  usage?: Usage;
}
