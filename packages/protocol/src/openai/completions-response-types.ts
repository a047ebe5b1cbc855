import type { SvcMetadata } from '@svc/core';
import type { OpenAIUsage } from './chat-response-types.js';

export interface OpenAICompletionChoice {
  /** The completion; starts with the prompt when the request asked for `echo`. */
  text: string;
  index: number;
  /** Always null: `logprobs` is accepted but not applied. */
  logprobs: null;
  finish_reason: string | null;
}

/** The legacy `text_completion` object (spec §Legacy completion response). */
export interface OpenAICompletion {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: OpenAICompletionChoice[];
  usage?: OpenAIUsage;
  svc_metadata?: SvcMetadata;
}
