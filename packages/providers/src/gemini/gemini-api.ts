import { ProviderError } from '@svc/core';
import * as v from 'valibot';

/*
 * Wire shapes of the Gemini API (`v1beta` generateContent / streamGenerateContent).
 * Requests are plain TypeScript types (we build them); responses are minimal loose valibot
 * schemas of the fields the adapter reads. A streamed chunk has the same shape as a response.
 */

// ---- request ----

export type GeminiPart =
  | { text: string; thought?: boolean }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { mimeType?: string; fileUri: string } }
  | { functionCall: { name: string; args: Record<string, unknown> }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: Record<string, unknown> } };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** Gemini's OpenAPI-subset schema (see `toGeminiSchema`). */
export type GeminiSchema = Record<string, unknown>;

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
}

export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  candidateCount?: number;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseSchema?: GeminiSchema;
  thinkingConfig?: { thinkingBudget?: number; includeThoughts?: boolean };
}

export interface GeminiGenerateContentBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
  generationConfig?: GeminiGenerationConfig;
}

// ---- responses ----

const count = v.nullish(v.number());

export const geminiUsageSchema = v.looseObject({
  promptTokenCount: count,
  candidatesTokenCount: count,
  thoughtsTokenCount: count,
  cachedContentTokenCount: count,
  toolUsePromptTokenCount: count,
  totalTokenCount: count,
});
export type GeminiUsage = v.InferOutput<typeof geminiUsageSchema>;

const partSchema = v.looseObject({
  text: v.optional(v.string()),
  thought: v.optional(v.boolean()),
  /**
   * `args` is checked to be an object and kept by reference: `v.record` would drop keys such as
   * `prototype` or `constructor` (valibot's pollution guard), and tool arguments may use any name.
   */
  functionCall: v.optional(
    v.looseObject({
      id: v.optional(v.string()),
      name: v.string(),
      args: v.nullish(v.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be an object')),
    }),
  ),
});

const candidateSchema = v.looseObject({
  index: v.optional(v.number()),
  content: v.nullish(v.looseObject({ parts: v.nullish(v.array(partSchema)) })),
  finishReason: v.nullish(v.string()),
  finishMessage: v.nullish(v.string()),
});
export type GeminiCandidate = v.InferOutput<typeof candidateSchema>;

export const geminiErrorSchema = v.looseObject({
  code: v.optional(v.number()),
  message: v.optional(v.string()),
  status: v.optional(v.string()),
  details: v.optional(v.array(v.unknown())),
});
export type GeminiError = v.InferOutput<typeof geminiErrorSchema>;

export const geminiResponseSchema = v.looseObject({
  candidates: v.nullish(v.array(candidateSchema)),
  promptFeedback: v.nullish(v.looseObject({ blockReason: v.nullish(v.string()), blockReasonMessage: v.nullish(v.string()) })),
  usageMetadata: v.nullish(geminiUsageSchema),
  modelVersion: v.nullish(v.string()),
  responseId: v.nullish(v.string()),
  /** Only inside a stream: a failure after the 200 arrives as a chunk holding the error. */
  error: v.optional(geminiErrorSchema),
});
export type GeminiResponse = v.InferOutput<typeof geminiResponseSchema>;

/**
 * Validates an upstream payload against a wire schema. A mismatch is the upstream's fault
 * (kind `server`), so the waterfall may try elsewhere.
 */
export function parseGeminiWire<const TSchema extends v.GenericSchema>(schema: TSchema, value: unknown, what: string): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  throw new ProviderError({ provider: 'gemini', kind: 'server', message: `gemini sent an unexpected ${what}: ${v.summarize(result.issues)}` });
}
