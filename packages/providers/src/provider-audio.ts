/** A text part or an image part of a multimodal moderation input (OpenAI `omni-moderation`). */
export type ModerationInputPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** A moderations call as a provider receives it: the upstream model resolved. */
export interface ModerationRequest {
  /** The provider's own model name (catalog `upstreamId`). */
  model: string;
  /** One text, several texts, or one multimodal input of text and image parts. */
  input: string | readonly string[] | readonly ModerationInputPart[];
}

/** One verdict per input, in the upstream's own shape (passed through to the client). */
export interface ModerationVerdict {
  flagged: boolean;
  categories: Record<string, boolean>;
  category_scores: Record<string, number>;
  /** `omni-moderation` models: which input types (`text`, `image`) each category was applied to. */
  category_applied_input_types?: Record<string, string[]>;
}

export interface ModerationResult {
  /** The upstream's id of the moderation (`modr-...`). */
  id: string;
  /** The model that answered, as the upstream names it. */
  model: string;
  results: ModerationVerdict[];
}

/**
 * The output formats of speech synthesis: OpenAI's six, plus 8-bit mu-law and A-law telephony
 * audio (Deepgram, ElevenLabs). `pcm` is raw 16-bit little-endian mono.
 */
export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm' | 'ulaw' | 'alaw';

/** A speech-synthesis call as a provider receives it. */
export interface SpeechRequest {
  /** The provider's own model name (catalog `upstreamId`). */
  model: string;
  /** The text to speak. */
  input: string;
  voice: string;
  /** Default `mp3`. */
  responseFormat?: SpeechFormat;
  /** 0.25..4.0; default 1. */
  speed?: number;
  /** How to speak (tone, accent); models that take it only (`gpt-4o-mini-tts`). */
  instructions?: string;
  /**
   * Sample rate in Hz, for providers that produce several (Deepgram, ElevenLabs); absent: the
   * provider's default for the format. OpenAI has one rate (24 kHz) and ignores it.
   */
  sampleRate?: number;
}

/** Synthesised audio, not read yet: the bytes are streamed through as the upstream sends them. */
export interface SpeechResult {
  /** The upstream's content type, else the one of the requested format. */
  contentType: string;
  /**
   * The audio bytes. Read it once; ending the iteration early releases the upstream request.
   * A transport failure while reading is thrown from the iterator.
   */
  body: AsyncIterable<Uint8Array>;
}
